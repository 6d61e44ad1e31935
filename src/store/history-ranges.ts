// What a server's history answers for a range (the history API, the uptime
// and peak badges, the sparkline): points one step apart, read from the
// roll-up level that still covers the range (history.ts) and summed per step
// by the store, with the uptime and the peak of the range; cached by what
// each answer is read from (ServerHistories).

import type { BoundedCache } from "../cache/bounded-cache.ts";
import { nextTurn } from "../next-turn.ts";
import type { CacheBudget } from "../cache/budget.ts";
import { DAY_MS, FIVE_MINUTES_MS, floorTo, HOUR_MS, type HistoryMarks, type HistoryStep } from "./history.ts";
import type { ServerRow } from "./records.ts";
import type { Store } from "./store.ts";

export const HISTORY_RANGES = ["24h", "7d", "30d", "1y"] as const;
export type HistoryRange = (typeof HISTORY_RANGES)[number];

/**
 * Each range's span, the step of its points (a few hundred at most), and the
 * level it is read from: 5-minute buckets while they are kept (30 days), so
 * these ranges lag the present by minutes, not the hour an hourly bucket takes.
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
  /** The fraction of the range the server was online; null when no time of it is rolled up yet. */
  uptime: number | null;
  /** The most players online at once in the range; null when it has no sample. */
  peak: number | null;
}

/** How much of the step [stepStart, stepEnd) lies in the time counted, [from, to): from the range's start (or the server's first push, if later) to where the level is written. */
function counted(from: number, to: number, stepStart: number, stepEnd: number): number {
  return Math.max(0, Math.min(to, stepEnd) - Math.max(from, stepStart));
}

/** A range's points from its steps (summed by the store), each online fraction over the step's counted time. */
function pointOf(step: HistoryStep, stepMs: number, levelMs: number, from: number, to: number): ServerHistoryPoint {
  const span = counted(from, to, step.at, step.at + stepMs);
  return {
    at: step.at,
    min: step.samples > 0 ? step.min : null,
    avg: step.samples > 0 ? step.playersSum / step.samples : null,
    max: step.samples > 0 ? step.max : null,
    online: span > 0 ? Math.min(1, (step.online * levelMs) / span) : 0,
  };
}

/** A server's history over `range` from its steps; `to` is where the level is written (or now, if earlier). */
function historyOf(steps: readonly HistoryStep[], range: HistoryRange, from: number, to: number): ServerHistory {
  const { stepMs, levelMs } = RANGE_STEPS[range];
  const countedMs = to - from;
  const onlineMs = steps.reduce((sum, step) => sum + step.online * levelMs, 0);
  const peak = steps.reduce<number | null>((most, step) => (step.samples > 0 && step.max !== null && (most === null || step.max > most) ? step.max : most), null);
  return {
    range,
    stepMs,
    points: steps.map((step) => pointOf(step, stepMs, levelMs, from, to)),
    uptime: countedMs > 0 ? Math.min(1, onlineMs / countedMs) : null,
    peak,
  };
}

/**
 * Charges the asker for `buckets` buckets read from the store (their span
 * divided by the level's length; a read of minute samples counts a day's
 * 5-minute buckets); throws (a 429) when its budget is spent. Reads the cache
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
 * A server's steps of a range that no sweep can change any more (whole steps,
 * all before the level's mark), packed STEP_FIELDS numbers a step: a year's
 * 365 steps in 17.5 KB rather than 365 objects.
 */
interface ClosedSteps {
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

/** The packed steps at or after `from` and before `until`. */
function unpack(packed: Float64Array, from: number, until: number): HistoryStep[] {
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

type Cached = ServerHistory | RecentPeaks | ClosedSteps | Summed;

/** Bytes a cached value holds besides HISTORY_ENTRY_BYTES. */
function bytesHeld(value: Cached): number {
  if (Array.isArray(value)) return PEAK_BYTES * value.length;
  if ("packed" in value) return value.packed.byteLength;
  return POINT_BYTES * (value as ServerHistory).points.length;
}

const ceilTo = (time: number, stepMs: number) => floorTo(time + stepMs - 1, stepMs);

/**
 * Reading servers' histories, for every route that shows them (the history
 * API, uptime and peak badges, charts), so that reading them costs little
 * and never holds the answering thread long.
 *
 * - A server's answer is cached under everything it is read from: the
 *   server, its first push, the range, its start and its end (the level's
 *   mark, which a sweep that writes moves); recent peaks under the server, its
 *   last update and heartbeat, and the window; a sum (a network's chart)
 *   under the key its asker builds the same way. Exact keys, no lifetime:
 *   nothing shown is older than what the store holds.
 * - A range's whole steps before the mark never change: they are kept apart
 *   (ClosedSteps), so when the mark moves only the new steps and the two
 *   partial ones at the range's ends are read (tens of buckets, not 8,760).
 * - What is read, is read in slices of at most SLICE_BUCKETS buckets with a
 *   turn of the event loop between them (SQLite's reads run on the answering
 *   thread), and charged to the asker before each slice.
 */
export class ServerHistories {
  private readonly cache: BoundedCache<Cached>;

  constructor(
    private readonly store: Store,
    caches: CacheBudget,
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
  async read(
    server: Pick<ServerRow, "uuid" | "firstSeen">, range: HistoryRange, now: number, charge: ReadCharge, marks?: HistoryMarks, keep = true,
  ): Promise<ServerHistory> {
    const known = marks ?? (await this.store.history.marks());
    const { rangeStart, to } = spanOf(range, now, known);
    const from = Math.max(rangeStart, floorTo(server.firstSeen, RANGE_STEPS[range].levelMs));
    const compute = async () => historyOf(await this.stepsOf(server, range, rangeStart, to, charge), range, from, to);
    if (!keep) return compute();
    return this.cache.getOrComputeAsync(this.rangeKey(server, range, now, known), compute) as Promise<ServerHistory>;
  }

  /** What `read` of this server, range and time is cached under: everything it is read from. */
  rangeKey(server: Pick<ServerRow, "uuid" | "firstSeen">, range: HistoryRange, now: number, marks: HistoryMarks): string {
    const { rangeStart, to } = spanOf(range, now, marks);
    return `range|${server.uuid}|${server.firstSeen}|${range}|${rangeStart}|${to}`;
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

  /** A range's steps in [since, before): the partial steps at its ends read, the whole ones between from ClosedSteps. */
  private async stepsOf(server: Pick<ServerRow, "uuid" | "firstSeen">, range: HistoryRange, since: number, before: number, charge: ReadCharge): Promise<HistoryStep[]> {
    const { stepMs } = RANGE_STEPS[range];
    const closedFrom = ceilTo(since, stepMs);
    const closedUntil = floorTo(before, stepMs);
    if (closedFrom >= closedUntil) return this.stepsInSlices(server.uuid, range, since, before, charge);
    const head = await this.stepsInSlices(server.uuid, range, since, closedFrom, charge);
    const closed = await this.closedSteps(server, range, closedFrom, closedUntil, charge);
    const tail = await this.stepsInSlices(server.uuid, range, closedUntil, before, charge);
    return [...head, ...closed, ...tail];
  }

  /** The whole steps in [from, until), all before the mark: those held kept, only the others read. */
  private async closedSteps(server: Pick<ServerRow, "uuid" | "firstSeen">, range: HistoryRange, from: number, until: number, charge: ReadCharge): Promise<HistoryStep[]> {
    const key = `closed|${server.uuid}|${server.firstSeen}|${range}`;
    const held = this.cache.get(key) as ClosedSteps | undefined;
    const usable = held !== undefined && held.from <= from && held.until > from;
    const kept = usable ? unpack(held.packed, from, until) : [];
    const readFrom = usable ? Math.min(held.until, until) : from;
    const steps = [...kept, ...(await this.stepsInSlices(server.uuid, range, readFrom, until, charge))];
    this.cache.set(key, { from, until, packed: pack(steps) });
    return steps;
  }

  /**
   * Steps in [since, before) read a slice at a time, each of whole steps and
   * at most SLICE_BUCKETS buckets, charged before it is read, with a turn of
   * the event loop between slices: a year of hourly buckets (8,760 rows, tens
   * of milliseconds in SQLite) never holds the answering thread in one piece.
   */
  private async stepsInSlices(uuid: string, range: HistoryRange, since: number, before: number, charge: ReadCharge): Promise<HistoryStep[]> {
    const { stepMs, levelMs } = RANGE_STEPS[range];
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

/** Where a range read at `now` starts, and where it ends: the level's mark, or now if earlier. */
function spanOf(range: HistoryRange, now: number, marks: HistoryMarks): { rangeStart: number; to: number } {
  const { spanMs, levelMs } = RANGE_STEPS[range];
  return { rangeStart: floorTo(now - spanMs, levelMs), to: Math.min(levelMark(marks, levelMs), now) };
}

/** The mark of the level `levelMs`: every bucket before it is written. */
function levelMark(marks: HistoryMarks, levelMs: number): number {
  return levelMs === HOUR_MS ? marks.hoursUntil : marks.fiveMinutesUntil;
}
