// What a range's history reads beyond its level's mark: the time the sweep
// has not rolled up yet (history.ts), read from the level below, so that an
// answer reaches the present. A range of 5-minute buckets reads the minute
// samples past the 5-minute mark (about 6 minutes of them); the year, of
// hourly buckets, first the 5-minute buckets past the hourly mark (up to an
// hour), then those samples. Each read is bounded (UNROLLED_MS): a sweep that
// is further behind leaves a gap, which counts neither online nor offline.

import { FIVE_MINUTES_MS, fiveMinuteBuckets, floorTo, HOUR_MS, MINUTE_MS, type HistoryBucket, type HistoryMarks, type HistoryStep, type MinuteSample, type Span } from "./history.ts";

/**
 * How far back from now a read looks below a level's mark, per source: the
 * 5-minute mark lags now by about 6 minutes (a bucket settles a minute after
 * it ends, and the sweep runs every minute), the hourly mark the 5-minute one
 * by up to an hour. Twice that and more, so a sweep that missed a few runs
 * leaves no gap; and a read stays small: 16 samples, 24 five-minute buckets.
 */
export const UNROLLED_MS = { samples: 15 * MINUTE_MS, fiveMinutes: 2 * HOUR_MS } as const;

/** What one range read at `now` reads of each source, oldest first; `gaps` are left unread (UNROLLED_MS). */
export interface RangeSources {
  /** The range's level, from its start to the level's mark (or now, if earlier). */
  level: Span;
  /** The year's: 5-minute buckets past the hourly mark. */
  fiveMinutes?: Span;
  /** Minute samples past the 5-minute mark, up to now. */
  samples: Span;
  gaps: Span[];
}

const clamp = (time: number, low: number, high: number) => Math.min(high, Math.max(low, time));

/** What a range from `rangeStart` of the level `levelMs` reads at `now` (each source from where the one above it ends). */
export function rangeSources(levelMs: number, rangeStart: number, now: number, marks: HistoryMarks): RangeSources {
  const level = { from: rangeStart, to: clamp(levelMs === HOUR_MS ? marks.hoursUntil : marks.fiveMinutesUntil, rangeStart, now) };
  const gaps: Span[] = [];
  const after = (end: number, bound: number) => {
    const from = Math.min(now, Math.max(end, bound));
    if (from > end) gaps.push({ from: end, to: from });
    return from;
  };
  let end = level.to;
  let fiveMinutes: Span | undefined;
  if (levelMs === HOUR_MS) {
    const from = after(end, floorTo(now - UNROLLED_MS.fiveMinutes, FIVE_MINUTES_MS));
    fiveMinutes = { from, to: clamp(marks.fiveMinutesUntil, from, now) };
    end = fiveMinutes.to;
  }
  const samples = { from: after(end, floorTo(now - UNROLLED_MS.samples, MINUTE_MS)), to: now };
  return { level, ...(fiveMinutes ? { fiveMinutes } : {}), samples, gaps };
}

/** A bucket as a step of `stepMs` (players only when it has samples, as the store sums a level: stepSelection). */
function stepOf(bucket: HistoryBucket, stepMs: number): HistoryStep {
  const players = bucket.samples > 0;
  return {
    at: floorTo(bucket.at, stepMs),
    min: players ? bucket.playersMin : null,
    max: players ? bucket.playersMax : null,
    playersSum: players ? bucket.playersAvg! * bucket.samples : 0,
    samples: bucket.samples,
    online: bucket.online,
  };
}

/**
 * The steps of `stepMs` that `samples` (readUnrolledSamples') make over
 * `span`, as the sweep will make their 5-minute buckets (its online in
 * 5-minute buckets, as a level's).
 */
export function sampleSteps(samples: readonly MinuteSample[], span: Span, staleAfterMs: number, stepMs: number): HistoryStep[] {
  const buckets = fiveMinuteBuckets(samples, span, staleAfterMs).sort((a, b) => a.at - b.at);
  return joinedSteps(buckets.map((bucket) => stepOf(bucket, stepMs)));
}

/** Steps whose online counts buckets of `fromMs` counted in buckets of `toMs`. */
export function onlineIn(steps: readonly HistoryStep[], fromMs: number, toMs: number): HistoryStep[] {
  return steps.map((step) => ({ ...step, online: (step.online * fromMs) / toMs }));
}

const least = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.min(a, b));
const most = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));

/** Steps in time order, parts of one step (read from two sources) joined into one. */
export function joinedSteps(steps: readonly HistoryStep[]): HistoryStep[] {
  const joined: HistoryStep[] = [];
  for (const step of steps) {
    const last = joined.at(-1);
    if (last?.at !== step.at) joined.push(step);
    else {
      joined[joined.length - 1] = {
        at: step.at, min: least(last.min, step.min), max: most(last.max, step.max),
        playersSum: last.playersSum + step.playersSum, samples: last.samples + step.samples, online: last.online + step.online,
      };
    }
  }
  return joined;
}
