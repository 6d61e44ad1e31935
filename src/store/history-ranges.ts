// What a server's history answers for a range (the history API, the uptime
// and peak badges, the sparkline): points one step apart, read from the
// roll-up level that still covers the range (history.ts) and summed per step
// by the store, up to the present from what the sweep has not rolled up yet
// (unrolled-history.ts), with the uptime and the peak of the range; cached by
// what each answer is read from (ServerHistories).

import type { BoundedCache } from "../cache/bounded-cache.ts";
import { nextTurn } from "../next-turn.ts";
import type { CacheBudget } from "../cache/budget.ts";
import { DAY_MS, FIVE_MINUTES_MS, floorTo, HOUR_MS, MINUTE_MS, type HistoryMarks, type HistoryStep, type Span } from "./history.ts";
import type { ServerRow } from "./records.ts";
import type { Store } from "./store.ts";
import { joinedSteps, onlineIn, rangeSources, sampleSteps, type RangeSources } from "./unrolled-history.ts";

export const HISTORY_RANGES = ["24h", "7d", "30d", "1y"] as const;
export type HistoryRange = (typeof HISTORY_RANGES)[number];

/**
 * Each range's span, the step of its points (a few hundred at most), and the
 * level it is read from: 5-minute buckets while they are kept (30 days), so
 * that little of these ranges is read below the level (unrolled-history.ts).
 */
export const RANGE_STEPS: Readonly<Record<HistoryRange, { spanMs: number; stepMs: number; levelMs: number }>> = {
  "24h": { spanMs: DAY_MS, stepMs: FIVE_MINUTES_MS, levelMs: FIVE_MINUTES_MS },
  "7d": { spanMs: 7 * DAY_MS, stepMs: HOUR_MS, levelMs: FIVE_MINUTES_MS },
  "30d": { spanMs: 30 * DAY_MS, stepMs: 3 * HOUR_MS, levelMs: FIVE_MINUTES_MS },
  "1y": { spanMs: 365 * DAY_MS, stepMs: DAY_MS, levelMs: HOUR_MS },
};

export function isHistoryRange(value: string): value is HistoryRange {
  return (HISTORY_RANGES as readonly string[]).includes(value);
}

/** One step of a history: players over its samples (null when it has none) and the fraction of it the server was online. */
export interface ServerHistoryPoint {
  /** The step's start. */
  at: number;
  min: number | null;
  avg: number | null;
  max: number | null;
  online: number;
}

export interface ServerHistory {
  range: HistoryRange;
  stepMs: number;
  /** Oldest first; a step without a point was offline throughout. */
  points: ServerHistoryPoint[];
  /** The fraction of the range the server was online, up to now; null when none of it is counted yet (the first push is now). */
  uptime: number | null;
  /** The most players online at once in the range; null when it has no sample. */
  peak: number | null;
}

/** How long [from, to) and [start, end) share. */
const overlap = (from: number, to: number, start: number, end: number) => Math.max(0, Math.min(to, end) - Math.max(from, start));

/**
 * How much of [start, end) lies in the time counted: [from, to), from the
 * range's start (or the server's first push, if later) to now, less the gaps
 * left unread (unrolled-history.ts).
 */
function counted(from: number, to: number, gaps: readonly Span[], start: number, end: number): number {
  return gaps.reduce((sum, gap) => sum - overlap(Math.max(from, gap.from), Math.min(to, gap.to), start, end), overlap(from, to, start, end));
}

/** A range's points from its steps (summed by the store), each online fraction over the step's counted time. */
function pointOf(step: HistoryStep, stepMs: number, levelMs: number, from: number, to: number, gaps: readonly Span[]): ServerHistoryPoint {
  const span = counted(from, to, gaps, step.at, step.at + stepMs);
  return {
    at: step.at,
    min: step.samples > 0 ? step.min : null,
    avg: step.samples > 0 ? step.playersSum / step.samples : null,
    max: step.samples > 0 ? step.max : null,
    online: span > 0 ? Math.min(1, (step.online * levelMs) / span) : 0,
  };
}

/** A server's history over `range` from its steps, counted over [from, to) less `gaps`. */
function historyOf(steps: readonly HistoryStep[], range: HistoryRange, from: number, to: number, gaps: readonly Span[]): ServerHistory {
  const { stepMs, levelMs } = RANGE_STEPS[range];
  const countedMs = counted(from, to, gaps, from, to);
  const onlineMs = steps.reduce((sum, step) => sum + step.online * levelMs, 0);
  const peak = steps.reduce<number | null>((most, step) => (step.samples > 0 && step.max !== null && (most === null || step.max > most) ? step.max : most), null);
  return {
    range,
    stepMs,
    points: steps.map((step) => pointOf(step, stepMs, levelMs, from, to, gaps)),
    uptime: countedMs > 0 ? Math.min(1, onlineMs / countedMs) : null,
    peak,
  };
}

/**
 * Charges the asker for `buckets` buckets read from the store (their span
 * divided by the level's length; a read of a day's minute samples counts a
 * day's 5-minute buckets, of the samples not rolled up yet one a sample);
 * throws (a 429) when its budget is spent. Reads the cache
 * answers are not charged. The price of a bucket is the caller's.
 */
export type ReadCharge = (buckets: number) => unknown;

/** The charge of reads for no client (tests, benches, the CLI). */
export const UNCHARGED: ReadCharge = () => undefined;

/** A peak per bucket of a server's last day, from its minute samples (the banners' 24-hour chart). */
export type RecentPeaks = Array<{ at: number; online: number }>;

/** The most buckets one read of the store sums: about a millisecond of SQLite, less than a 468x60 banner's drawing. */
const SLICE_BUCKETS = 720;

/** Bytes a cached history holds besides its points: the object, its key, the cache's entry. */
const HISTORY_ENTRY_BYTES = 256;
/** Bytes of one point (an object of five numbers) or peak (two). */
const POINT_BYTES = 80;
const PEAK_BYTES = 48;

/**
 * A server's steps of a range that no sweep can change any more (all before
 * the level's mark: its whole steps, or a partial one at an end of the range),
 * packed STEP_FIELDS numbers a step: a year's 365 steps in 17.5 KB rather than
 * 365 objects.
 */
interface PackedSteps {
  from: number;
  until: number;
  packed: Float64Array;
}

const STEP_FIELDS = 6;

function pack(steps: readonly HistoryStep[]): Float64Array {
  const packed = new Float64Array(steps.length * STEP_FIELDS);
  steps.forEach((step, i) => packed.set([step.at, step.min ?? Number.NaN, step.max ?? Number.NaN, step.playersSum, step.samples, step.online], i * STEP_FIELDS));
  return packed;
}

/** The packed steps at or after `from` and before `until` (all, by default). */
function unpack(packed: Float64Array, from = Number.NEGATIVE_INFINITY, until = Number.POSITIVE_INFINITY): HistoryStep[] {
  const steps: HistoryStep[] = [];
  for (let i = 0; i < packed.length; i += STEP_FIELDS) {
    const at = packed[i]!;
    if (at < from || at >= until) continue;
    const [min, max] = [packed[i + 1]!, packed[i + 2]!];
    steps.push({ at, min: Number.isNaN(min) ? null : min, max: Number.isNaN(max) ? null : max, playersSum: packed[i + 3]!, samples: packed[i + 4]!, online: packed[i + 5]! });
  }
  return steps;
}

/** A sum over servers' histories (a network's chart), cached whole by whoever asks `summed`. */
export type Summed = ReadonlyArray<{ at: number; online: number }>;

type Cached = ServerHistory | RecentPeaks | PackedSteps | Summed;

/** Bytes a cached value holds besides HISTORY_ENTRY_BYTES. */
function bytesHeld(value: Cached): number {
  if (Array.isArray(value)) return PEAK_BYTES * value.length;
  if ("packed" in value) return value.packed.byteLength;
  return POINT_BYTES * (value as ServerHistory).points.length;
}

const ceilTo = (time: number, stepMs: number) => floorTo(time + stepMs - 1, stepMs);

/** What a history is read by: the server, its first push (where it is counted from) and its last update (which wrote its newest sample). */
export type HistoryServer = Pick<ServerRow, "uuid" | "firstSeen" | "statsUpdatedAt">;

/**
 * Reading servers' histories, for every route that shows them (the history
 * API, uptime and peak badges, charts), so that reading them costs little
 * and never holds the answering thread long.
 *
 * - A server's answer is cached under everything it is read from: the
 *   server, its first push and last update (which wrote a sample), the range,
 *   its start, the marks it reads up to (which a sweep that writes moves) and
 *   the minute: what is not rolled up yet is read up to now, and again in
 *   the next minute, so an answer is at most a minute old (the history API's
 *   max-age; the sweep runs once a minute). Recent peaks are cached under the
 *   server, its last update and heartbeat, and the window; a sum (a network's
 *   chart) under the key its asker builds the same way. Exact keys, no
 *   lifetime.
 * - A range's steps before the mark never change: its whole steps are kept
 *   apart, and its partial ones at the range's ends under their bounds
 *   (PackedSteps), so when the mark moves only the new steps and the two
 *   partial ones are read (tens of buckets, not 8,760), and when only the
 *   minute turns, only what is not rolled up.
 * - What is read, is read in slices of at most SLICE_BUCKETS buckets with a
 *   turn of the event loop between them (SQLite's reads run on the answering
 *   thread), and charged to the asker before each slice; what is not rolled
 *   up yet, a few dozen rows at most (UNROLLED_MS), in one read per source.
 */
export class ServerHistories {
  private readonly cache: BoundedCache<Cached>;

  constructor(
    private readonly store: Store,
    caches: CacheBudget,
    /** PENNANT_STALE_AFTER: how long an update keeps its server online, in the samples read as the sweep reads them. */
    private readonly staleAfterMs: number,
  ) {
    this.cache = caches.cache("server_histories", { sizeOf: (value) => HISTORY_ENTRY_BYTES + bytesHeld(value) });
  }

  /** How far each level is written (one read; hand it to `read` for each of many servers). */
  marks(): Promise<HistoryMarks> {
    return this.store.history.marks();
  }

  /**
   * The history of a pushed server over `range` at `now`, its reads charged
   * to `charge`; `marks` when already read. `keep`: false for a part of a sum
   * that is kept whole (its closed steps are kept all the same).
   */
  async read(server: HistoryServer, range: HistoryRange, now: number, charge: ReadCharge, marks?: HistoryMarks, keep = true): Promise<ServerHistory> {
    const known = marks ?? (await this.store.history.marks());
    const sources = sourcesOf(range, now, known);
    const from = Math.max(sources.level.from, server.firstSeen);
    const compute = async () => historyOf(await this.stepsOf(server, range, sources, charge), range, from, now, sources.gaps);
    if (!keep) return compute();
    return this.cache.getOrComputeAsync(this.rangeKey(server, range, now, known), compute) as Promise<ServerHistory>;
  }

  /** What `read` of this server, range and time is cached under: everything it is read from, and the minute. */
  rangeKey(server: HistoryServer, range: HistoryRange, now: number, marks: HistoryMarks): string {
    const { level, fiveMinutes } = sourcesOf(range, now, marks);
    return `range|${server.uuid}|${server.firstSeen}|${server.statsUpdatedAt}|${range}|${level.from}|${level.to}|${fiveMinutes?.to}|${floorTo(now, MINUTE_MS)}`;
  }

  /** What `recentPeaks` of this server and window is cached under. */
  peaksKey(server: Pick<ServerRow, "uuid" | "statsUpdatedAt" | "lastSeen">, since: number, bucketMs: number): string {
    return `peaks|${server.uuid}|${since}|${bucketMs}|${server.statsUpdatedAt}|${server.lastSeen}`;
  }

  /** The highest count of each `bucketMs` of a server's samples since `since` (the store's sampleBuckets, charged a day's buckets); `keep` as for `read`. */
  recentPeaks(server: Pick<ServerRow, "uuid" | "statsUpdatedAt" | "lastSeen">, since: number, bucketMs: number, charge: ReadCharge, keep = true): Promise<RecentPeaks> {
    const compute = async () => {
      await charge(DAY_MS / FIVE_MINUTES_MS);
      return this.store.servers.sampleBuckets(server.uuid, since, bucketMs);
    };
    if (!keep) return compute();
    return this.cache.getOrComputeAsync(this.peaksKey(server, since, bucketMs), compute) as Promise<RecentPeaks>;
  }

  /** A sum over servers' histories, computed once per `key` (which names everything it is read from: their rangeKey or peaksKey) and kept. */
  summed(key: string, compute: () => Promise<Summed>): Promise<Summed> {
    return this.cache.getOrComputeAsync(`sum|${key}`, compute) as Promise<Summed>;
  }

  /** A range's steps: its level's, then what the sweep has not rolled up yet (its online counted in the level's buckets). */
  private async stepsOf(server: HistoryServer, range: HistoryRange, sources: RangeSources, charge: ReadCharge): Promise<HistoryStep[]> {
    const { levelMs, stepMs } = RANGE_STEPS[range];
    const level = await this.levelSteps(server, range, sources.level.from, sources.level.to, charge);
    const { fiveMinutes, samples } = sources;
    const fiveMinuteSteps = fiveMinutes ? await this.stepsInSlices(server.uuid, range, fiveMinutes.from, fiveMinutes.to, charge, FIVE_MINUTES_MS) : [];
    let recent: HistoryStep[] = [];
    if (samples.to > samples.from) {
      await charge((samples.to - samples.from) / MINUTE_MS + 1);
      recent = sampleSteps(await this.store.history.unrolledSamples(server.uuid, samples.from, samples.to, this.staleAfterMs), samples, this.staleAfterMs, stepMs);
    }
    return joinedSteps([...level, ...onlineIn([...fiveMinuteSteps, ...recent], FIVE_MINUTES_MS, levelMs)]);
  }

  /** A range's steps of its level in [since, before), all before the mark: the partial steps at its ends and the whole ones between, each kept. */
  private async levelSteps(server: HistoryServer, range: HistoryRange, since: number, before: number, charge: ReadCharge): Promise<HistoryStep[]> {
    const { stepMs } = RANGE_STEPS[range];
    const closedFrom = ceilTo(since, stepMs);
    const closedUntil = floorTo(before, stepMs);
    if (closedFrom >= closedUntil) return this.partialSteps(server, range, since, before, charge);
    const head = await this.partialSteps(server, range, since, closedFrom, charge);
    const closed = await this.closedSteps(server, range, closedFrom, closedUntil, charge);
    const tail = await this.partialSteps(server, range, closedUntil, before, charge);
    return [...head, ...closed, ...tail];
  }

  /** The steps in [since, before), partial ones at an end of a range, all before the mark: kept under their bounds, read when not held. */
  private async partialSteps(server: HistoryServer, range: HistoryRange, since: number, before: number, charge: ReadCharge): Promise<HistoryStep[]> {
    if (since >= before) return [];
    const key = `part|${server.uuid}|${server.firstSeen}|${range}|${since}|${before}`;
    const held = this.cache.get(key) as PackedSteps | undefined;
    // A partial step starts before `since`: all of them.
    if (held) return unpack(held.packed);
    const steps = await this.stepsInSlices(server.uuid, range, since, before, charge);
    this.cache.set(key, { from: since, until: before, packed: pack(steps) });
    return steps;
  }

  /** The whole steps in [from, until), all before the mark: those held kept, only the others read. */
  private async closedSteps(server: HistoryServer, range: HistoryRange, from: number, until: number, charge: ReadCharge): Promise<HistoryStep[]> {
    const key = `closed|${server.uuid}|${server.firstSeen}|${range}`;
    const held = this.cache.get(key) as PackedSteps | undefined;
    const usable = held !== undefined && held.from <= from && held.until > from;
    const kept = usable ? unpack(held.packed, from, until) : [];
    const readFrom = usable ? Math.min(held.until, until) : from;
    const steps = [...kept, ...(await this.stepsInSlices(server.uuid, range, readFrom, until, charge))];
    if (!usable || held.from !== from || held.until !== until) this.cache.set(key, { from, until, packed: pack(steps) });
    return steps;
  }

  /**
   * Steps in [since, before) of the level `levelMs` (the range's by default)
   * read a slice at a time, each of whole steps and at most SLICE_BUCKETS
   * buckets, charged before it is read, with a turn of the event loop between
   * slices: a year of hourly buckets (8,760 rows, tens of milliseconds in
   * SQLite) never holds the answering thread in one piece.
   */
  private async stepsInSlices(uuid: string, range: HistoryRange, since: number, before: number, charge: ReadCharge, levelMs = RANGE_STEPS[range].levelMs): Promise<HistoryStep[]> {
    const { stepMs } = RANGE_STEPS[range];
    const sliceMs = Math.max(1, Math.floor((SLICE_BUCKETS * levelMs) / stepMs)) * stepMs;
    const steps: HistoryStep[] = [];
    for (let start = since; start < before; ) {
      const end = Math.min(before, floorTo(start, stepMs) + sliceMs);
      await charge((end - start) / levelMs);
      steps.push(...(await this.store.history.steps(uuid, levelMs, stepMs, start, end)));
      start = end;
      if (start < before) await nextTurn();
    }
    return steps;
  }
}

/** What a range read at `now` reads: its level from the range's start, then below the level's mark up to now. */
function sourcesOf(range: HistoryRange, now: number, marks: HistoryMarks): RangeSources {
  const { spanMs, levelMs } = RANGE_STEPS[range];
  return rangeSources(levelMs, floorTo(now - spanMs, levelMs), now, marks);
}
