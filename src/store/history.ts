// A server's history beyond its minute samples, and the rules every backend
// rolls it up by. Full resolution (server_samples, one row per server per
// minute) is kept a day; 5-minute buckets, made from it, 30 days; hourly
// buckets, made from those, a year; older rows are dropped. A sweep, not the
// push, does it (sweepHistory in server-history.ts), so a push costs what it did.
//
// Online: a sample is an accepted update, and a server counts as online from
// each update that says "online" until the next update or until
// PENNANT_STALE_AFTER has passed without one, as the banners read a record
// (src/minecraft/status.ts); from an update that says anything else it counts
// offline. A minute's sample holds its latest update's status: an update
// holds from its time on, so the latest decides what follows the minute.
// Heartbeats (which write no sample) are not seen: a server that only
// heartbeats shows no history.

import { sql, type SQLWrapper } from "drizzle-orm";

export const MINUTE_MS = 60_000;
export const FIVE_MINUTES_MS = 5 * MINUTE_MS;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/** How long each level is kept. */
export const KEPT_MS = { samples: DAY_MS, fiveMinutes: 30 * DAY_MS, hours: 365 * DAY_MS } as const;

/**
 * The most source time one sweep rolls up per level: the work of one run is
 * bounded (a day of minutes, a week of 5-minute buckets per server) even when
 * a month of samples waits, as on the first sweep of an existing database.
 */
export const SPAN_PER_SWEEP_MS = { minutes: DAY_MS, fiveMinutes: 7 * DAY_MS } as const;

/** A 5-minute bucket is rolled up once it ended this long ago: room for an instance whose clock runs a little behind. */
export const SETTLE_MS = MINUTE_MS;

/** One rolled-up bucket of a server's history. */
export interface HistoryBucket {
  serverUuid: string;
  stepMs: number;
  /** The bucket's start, a multiple of stepMs. */
  at: number;
  playersMin: number | null;
  playersAvg: number | null;
  playersMax: number | null;
  /** Minute samples with a player count in the bucket: the weight of its mean in a wider bucket. */
  samples: number;
  /** The fraction of the bucket the server was online (0..1). */
  online: number;
}

/**
 * The buckets of one level that fall in one step of a range, summed by the
 * database (history-ranges.ts): a year's chart reads 365 rows, not 8,760, and
 * no bucket is built as an object. Players only from buckets with samples.
 */
export interface HistoryStep {
  /** The step's start, a multiple of its length. */
  at: number;
  min: number | null;
  max: number | null;
  /** The sum of each bucket's mean times its samples: the step's mean is this over `samples`. */
  playersSum: number;
  samples: number;
  /** The sum of the buckets' online fractions: times the level's length, the time online. */
  online: number;
}

/** The columns of a history table that steps are summed from (SQLite's and PostgreSQL's have the same). */
interface BucketColumns {
  at: SQLWrapper;
  playersMin: SQLWrapper;
  playersAvg: SQLWrapper;
  playersMax: SQLWrapper;
  samples: SQLWrapper;
  online: SQLWrapper;
}

/**
 * The select list of HistoryStep over `table`, its steps `stepMs` long (a
 * constant of ours, written into the statement: a bound number may be a
 * float, and the division must be an integer one). Group and order by `at`.
 */
export function stepSelection(table: BucketColumns, stepMs: number) {
  const step = sql.raw(String(Math.trunc(stepMs)));
  const withSamples = (column: SQLWrapper) => sql`case when ${table.samples} > 0 then ${column} end`;
  return {
    at: sql<number>`(${table.at} / ${step}) * ${step}`.mapWith(Number),
    min: sql<number | null>`min(${withSamples(table.playersMin)})`.mapWith(Number),
    max: sql<number | null>`max(${withSamples(table.playersMax)})`.mapWith(Number),
    playersSum: sql<number>`coalesce(sum(${withSamples(sql`${table.playersAvg} * ${table.samples}`)}), 0)`.mapWith(Number),
    samples: sql<number>`sum(${table.samples})`.mapWith(Number),
    online: sql<number>`sum(${table.online})`.mapWith(Number),
  };
}

/** What the 5-minute roll-up reads of a minute sample. */
export interface MinuteSample {
  serverUuid: string;
  at: number;
  playersOnline: number | null;
  /** Whether the minute's latest update said "online". */
  online: boolean;
}

/** How far the sweep has rolled up: every bucket of a level before its mark is written (0: nothing yet). */
export interface HistoryMarks {
  fiveMinutesUntil: number;
  hoursUntil: number;
}

/** A span of source time to roll up in one sweep. */
export interface Span {
  from: number;
  to: number;
}

export function floorTo(time: number, stepMs: number): number {
  return Math.floor(time / stepMs) * stepMs;
}

/**
 * The span one sweep rolls up of a level: from its mark (or, on the first
 * sweep, the oldest source row's bucket) to `end`, at most `maxSpanMs`.
 * Undefined when nothing is to do.
 */
export function nextSpan(mark: number, oldestSource: number | undefined, end: number, maxSpanMs: number, stepMs: number): Span | undefined {
  const from = mark > 0 ? mark : oldestSource === undefined ? end : floorTo(oldestSource, stepMs);
  const to = Math.min(end, from + maxSpanMs);
  return to > from ? { from, to } : undefined;
}

/** Whether a sweep's span stopped short of its level's end (its bound), leaving work for the next run. */
export function spanLeftWork(span: Span | undefined, end: number): boolean {
  return span !== undefined && span.to < end;
}

/** Where the 5-minute level may end at `now`: the last bucket that has settled. */
export function fiveMinutesEnd(now: number): number {
  return floorTo(now - SETTLE_MS, FIVE_MINUTES_MS);
}

/** Where the hourly level may end: the last hour whose 5-minute buckets are all written. */
export function hoursEnd(marks: HistoryMarks): number {
  return floorTo(marks.fiveMinutesUntil, HOUR_MS);
}

/**
 * What each level keeps at `now`, as the times below which rows are dropped:
 * never a row the level above has not rolled up yet (nor, for samples, one
 * whose staleness still reaches into the next span).
 */
export function dropBefore(marks: HistoryMarks, now: number, staleAfterMs: number): { samples: number; fiveMinutes: number; hours: number } {
  return {
    samples: Math.min(floorTo(now - KEPT_MS.samples, HOUR_MS), marks.fiveMinutesUntil - staleAfterMs),
    fiveMinutes: Math.min(floorTo(now - KEPT_MS.fiveMinutes, HOUR_MS), marks.hoursUntil),
    hours: floorTo(now - KEPT_MS.hours, HOUR_MS),
  };
}

interface Accumulator {
  min: number | null;
  max: number | null;
  sum: number;
  samples: number;
  onlineMs: number;
}

function bucketOf(buckets: Map<string, Accumulator>, serverUuid: string, at: number): Accumulator {
  const key = `${serverUuid}\u0000${at}`;
  let bucket = buckets.get(key);
  if (!bucket) buckets.set(key, (bucket = { min: null, max: null, sum: 0, samples: 0, onlineMs: 0 }));
  return bucket;
}

function addPlayers(bucket: Accumulator, min: number, max: number, sum: number, samples: number): void {
  bucket.min = bucket.min === null ? min : Math.min(bucket.min, min);
  bucket.max = bucket.max === null ? max : Math.max(bucket.max, max);
  bucket.sum += sum;
  bucket.samples += samples;
}

function bucketsOut(buckets: Map<string, Accumulator>, stepMs: number, stepOnlineMs: number): HistoryBucket[] {
  return [...buckets].map(([key, bucket]) => {
    const [serverUuid, at] = key.split("\u0000") as [string, string];
    return {
      serverUuid,
      stepMs,
      at: Number(at),
      playersMin: bucket.min,
      playersAvg: bucket.samples > 0 ? bucket.sum / bucket.samples : null,
      playersMax: bucket.max,
      samples: bucket.samples,
      online: Math.min(1, bucket.onlineMs / stepOnlineMs),
    };
  });
}

/**
 * The 5-minute buckets of `span` from minute samples, sorted by server then
 * time, read from `span.from - staleAfterMs` (an earlier update keeps the
 * server online into the span). A bucket is written when it holds a sample or
 * online time; one with neither is left out (read as offline).
 */
export function fiveMinuteBuckets(samples: readonly MinuteSample[], span: Span, staleAfterMs: number): HistoryBucket[] {
  const buckets = new Map<string, Accumulator>();
  samples.forEach((sample, i) => {
    const next = samples[i + 1];
    // Online until the next update or until the record goes stale, whichever comes first; an update saying offline, not at all.
    const onlineUntil = sample.online ? Math.min(sample.at + staleAfterMs, next?.serverUuid === sample.serverUuid ? next.at : Infinity, span.to) : -Infinity;
    for (let start = Math.max(sample.at, span.from); start < onlineUntil; ) {
      const bucketAt = floorTo(start, FIVE_MINUTES_MS);
      const end = Math.min(onlineUntil, bucketAt + FIVE_MINUTES_MS);
      bucketOf(buckets, sample.serverUuid, bucketAt).onlineMs += end - start;
      start = end;
    }
    if (sample.at >= span.from && sample.at < span.to && sample.playersOnline !== null) {
      const players = sample.playersOnline;
      addPlayers(bucketOf(buckets, sample.serverUuid, floorTo(sample.at, FIVE_MINUTES_MS)), players, players, players, 1);
    }
  });
  return bucketsOut(buckets, FIVE_MINUTES_MS, FIVE_MINUTES_MS);
}

/** The hourly buckets of a span from its 5-minute buckets: a missing 5-minute bucket counts as offline. */
export function hourBuckets(fiveMinutes: readonly HistoryBucket[]): HistoryBucket[] {
  const buckets = new Map<string, Accumulator>();
  for (const row of fiveMinutes) {
    const bucket = bucketOf(buckets, row.serverUuid, floorTo(row.at, HOUR_MS));
    bucket.onlineMs += row.online * FIVE_MINUTES_MS;
    if (row.samples > 0) addPlayers(bucket, row.playersMin!, row.playersMax!, row.playersAvg! * row.samples, row.samples);
  }
  return bucketsOut(buckets, HOUR_MS, HOUR_MS);
}

/** An upsert's SET for a recomputed bucket: the new row replaces the old one whole (the same SQL on both backends). */
export const BUCKET_UPSERT_SET = {
  playersMin: sql.raw("excluded.players_min"),
  playersAvg: sql.raw("excluded.players_avg"),
  playersMax: sql.raw("excluded.players_max"),
  samples: sql.raw("excluded.samples"),
  online: sql.raw("excluded.online"),
};

/** Rows per INSERT: 8 parameters a row stays well under either backend's limit on parameters. */
export const UPSERT_BATCH_ROWS = 1000;

/** `rows` in batches of UPSERT_BATCH_ROWS. */
export function inBatches<T>(rows: readonly T[]): T[][] {
  const batches: T[][] = [];
  for (let i = 0; i < rows.length; i += UPSERT_BATCH_ROWS) batches.push(rows.slice(i, i + UPSERT_BATCH_ROWS));
  return batches;
}
