// What a server's history answers for a range (the history API, the uptime
// and peak badges, the sparkline): points one step apart, read from the
// roll-up level that still covers the range (history.ts), with the uptime and
// the peak of the range.

import { DAY_MS, FIVE_MINUTES_MS, floorTo, HOUR_MS, type HistoryBucket } from "./history.ts";
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
export interface HistoryPoint {
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
  points: HistoryPoint[];
  /** The fraction of the range the server was online; null when no time of it is rolled up yet. */
  uptime: number | null;
  /** The most players online at once in the range; null when it has no sample. */
  peak: number | null;
}

/** How much of the step [stepStart, stepEnd) lies in the time counted, [from, to): from the range's start (or the server's first push, if later) to where the level is written. */
function counted(from: number, to: number, stepStart: number, stepEnd: number): number {
  return Math.max(0, Math.min(to, stepEnd) - Math.max(from, stepStart));
}

/** The points of `buckets` (one level, oldest first) one `stepMs` apart, each online fraction over the step's counted time. */
function pointsOf(buckets: readonly HistoryBucket[], stepMs: number, levelMs: number, from: number, to: number): HistoryPoint[] {
  const steps = new Map<number, { buckets: HistoryBucket[] }>();
  for (const bucket of buckets) {
    const at = floorTo(bucket.at, stepMs);
    const step = steps.get(at) ?? { buckets: [] };
    step.buckets.push(bucket);
    steps.set(at, step);
  }
  return [...steps].map(([at, step]) => {
    const withPlayers = step.buckets.filter((bucket) => bucket.samples > 0);
    const samples = withPlayers.reduce((sum, bucket) => sum + bucket.samples, 0);
    const onlineMs = step.buckets.reduce((sum, bucket) => sum + bucket.online * levelMs, 0);
    const span = counted(from, to, at, at + stepMs);
    return {
      at,
      min: withPlayers.length > 0 ? Math.min(...withPlayers.map((bucket) => bucket.playersMin!)) : null,
      avg: samples > 0 ? withPlayers.reduce((sum, bucket) => sum + bucket.playersAvg! * bucket.samples, 0) / samples : null,
      max: withPlayers.length > 0 ? Math.max(...withPlayers.map((bucket) => bucket.playersMax!)) : null,
      online: span > 0 ? Math.min(1, onlineMs / span) : 0,
    };
  });
}

/** The history of a pushed server over `range` at `now`. */
export async function readServerHistory(store: Store, server: Pick<ServerRow, "uuid" | "firstSeen">, range: HistoryRange, now: number): Promise<ServerHistory> {
  const { spanMs, stepMs, levelMs } = RANGE_STEPS[range];
  const rangeStart = floorTo(now - spanMs, levelMs);
  const { buckets, until } = await store.history.buckets(server.uuid, levelMs, rangeStart);
  const from = Math.max(rangeStart, floorTo(server.firstSeen, levelMs));
  const to = Math.min(until, now);
  const inRange = buckets.filter((bucket) => bucket.at < to);
  const countedMs = to - from;
  const onlineMs = inRange.reduce((sum, bucket) => sum + bucket.online * levelMs, 0);
  const maxima = inRange.filter((bucket) => bucket.playersMax !== null).map((bucket) => bucket.playersMax!);
  return {
    range,
    stepMs,
    points: pointsOf(inRange, stepMs, levelMs, from, to),
    uptime: countedMs > 0 ? Math.min(1, onlineMs / countedMs) : null,
    peak: maxima.length > 0 ? Math.max(...maxima) : null,
  };
}
