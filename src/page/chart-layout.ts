// The players chart of a server's history, laid out: where the min-max band,
// the mean line, the offline stretches, the grid and the axis labels go in a
// frame of CSS pixels. Pure: the same data and frame give the same layout,
// which the SVG writer (chart-svg.ts) and the engine's painter
// (chart-png.ts) both draw, so the page's chart, chart.svg and chart.png
// show one picture. Times are UTC: a chart is read anywhere.
//
// A step's point sums [at, at + step): it is placed at the middle of the part
// of that the chart spans (the first and the current step may be cut).
// A step the server was online for less than half of, or that has no point
// at all, is offline; time before the server's first push is no data, not
// offline, and so is the current step while it is still being written.

import { compactNumber } from "../compact-number.ts";
import type { HistoryRange, ServerHistoryPoint } from "../store/history-ranges.ts";

/** What a chart is laid out from: a range's points (history-ranges.ts) and the span they cover. */
export interface ChartData {
  range: HistoryRange;
  stepMs: number;
  /** Oldest first; a step without a point was offline throughout. */
  points: readonly ServerHistoryPoint[];
  /** Where the chart starts and ends (the range's start, now). */
  from: number;
  to: number;
  /** The server's first push: before it there is no data (drawn as none, not as offline). */
  dataFrom: number;
}

export interface ChartFrame {
  width: number;
  height: number;
  /** The labels' size in CSS pixels (default 12). */
  fontSize?: number;
}

/** x, y in CSS pixels from the frame's top left. */
export type ChartXY = readonly [x: number, y: number];

export interface ChartTick {
  /** x of a time tick, y of a count tick. */
  at: number;
  label: string;
}

export interface ChartLayout {
  width: number;
  height: number;
  fontSize: number;
  /** The plotting area, inside the axes. */
  plot: { x: number; y: number; width: number; height: number };
  /** The min-max band: one closed outline per run of consecutive steps with players (the maxima left to right, the minima back). */
  band: ChartXY[][];
  /** The mean line: one line per run of consecutive steps with players; a run of one step is a lone point (drawn as a dot). */
  mean: ChartXY[][];
  /** Offline stretches, each across the plot's height. */
  offline: Array<{ x: number; width: number }>;
  /** Counts, bottom (0) up, each a grid line. */
  counts: ChartTick[];
  /** Times, left to right, each a grid line. */
  times: ChartTick[];
  /** The baseline of the time labels, and of "UTC", which ends left of the plot under the counts. */
  timeBaseline: number;
  /** Said in the plot when no step of the range has players (else null). */
  note: string | null;
  /** The chart in words, for screen readers and a title: the range, the peak, the mean. */
  summary: string;
}

/** A step counts as online when the server was online for at least this fraction of it. */
const ONLINE_FRACTION = 0.5;
const DEFAULT_FONT_SIZE = 12;
/** Room for a count label beside the plot, in characters of at most about 0.72 em (capitals). */
const CHARACTER_EM = 0.72;
/** The fewest CSS pixels between two time labels. */
const TIME_LABEL_ROOM = { "24h": 56, "7d": 64, "30d": 64, "1y": 56 } as const satisfies Record<HistoryRange, number>;
/** Written under the counts, left of the time labels: the times' zone. */
export const ZONE = "UTC";
/** Count grid lines: at most this many above 0. */
const MAX_COUNT_TICKS = 4;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export const RANGE_WORDS: Readonly<Record<HistoryRange, string>> = {
  "24h": "the last 24 hours", "7d": "the last 7 days", "30d": "the last 30 days", "1y": "the last year",
};

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** Tenths of a pixel: enough for any screen, and short SVG. */
const round = (value: number) => Math.round(value * 10) / 10;

/** The smallest "nice" count (1, 2 or 5 times a power of ten) that is at least `value`. */
function niceStep(value: number): number {
  const power = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 5, 10].map((factor) => factor * power).find((step) => step >= value)!;
}

/** The count axis: 0 to a top of whole steps covering `highest`, at most MAX_COUNT_TICKS steps. */
function countTicks(highest: number): { top: number; ticks: number[] } {
  const step = Math.max(1, niceStep(Math.max(1, highest) / MAX_COUNT_TICKS));
  const steps = Math.max(1, Math.ceil(highest / step));
  return { top: steps * step, ticks: Array.from({ length: steps + 1 }, (_, i) => i * step) };
}

const pad = (value: number) => String(value).padStart(2, "0");

/** Where time ticks fall in a range and how each is written, finest first: the first that leaves each label its room is used. */
const TIME_STEPS: Readonly<Record<HistoryRange, ReadonlyArray<{ every: (from: number, to: number) => number[]; label: (at: number) => string }>>> = {
  "24h": [1, 2, 3, 4, 6, 12].map((hours) => ({ every: aligned(hours * HOUR_MS), label: (at: number) => `${pad(new Date(at).getUTCHours())}:00` })),
  "7d": [
    { every: aligned(DAY_MS), label: (at) => `${WEEKDAYS[new Date(at).getUTCDay()]} ${new Date(at).getUTCDate()}` },
    { every: aligned(2 * DAY_MS), label: (at) => `${new Date(at).getUTCDate()} ${MONTHS[new Date(at).getUTCMonth()]}` },
  ],
  "30d": [2, 5, 10].map((days) => ({ every: aligned(days * DAY_MS), label: (at: number) => `${new Date(at).getUTCDate()} ${MONTHS[new Date(at).getUTCMonth()]}` })),
  "1y": [1, 2, 3, 6].map((months) => ({ every: monthStarts(months), label: monthLabel })),
};

/** Multiples of `stepMs` since the epoch in [from, to]: hours and days of UTC. */
function aligned(stepMs: number): (from: number, to: number) => number[] {
  return (from, to) => {
    const ticks: number[] = [];
    for (let at = Math.ceil(from / stepMs) * stepMs; at <= to; at += stepMs) ticks.push(at);
    return ticks;
  };
}

/** The first day of every `months`-th month (January included) in [from, to]. */
function monthStarts(months: number): (from: number, to: number) => number[] {
  return (from, to) => {
    const ticks: number[] = [];
    const start = new Date(from);
    for (let month = start.getUTCFullYear() * 12 + start.getUTCMonth(); ; month++) {
      const at = Date.UTC(Math.floor(month / 12), month % 12, 1);
      if (at > to) return ticks;
      if (at >= from && (month % 12) % months === 0) ticks.push(at);
    }
  };
}

/** "Mar", or "2026" for January: the year shows where it turns. */
function monthLabel(at: number): string {
  const date = new Date(at);
  return date.getUTCMonth() === 0 ? String(date.getUTCFullYear()) : MONTHS[date.getUTCMonth()]!;
}

interface Step {
  /** Where the middle of the step's part in the chart is. */
  x: number;
  point: ServerHistoryPoint | undefined;
}

type PlayerStep = Step & { point: ServerHistoryPoint & { min: number; avg: number; max: number } };

/**
 * Runs of steps with players, unbroken by an offline step: a step online
 * without a count (no update fell in it: a plugin pushing every 10 minutes
 * leaves every other 5-minute step without one) is passed over, an offline
 * one ends the run.
 */
function playerRuns(steps: readonly Step[]): PlayerStep[][] {
  const runs: PlayerStep[][] = [];
  let current: PlayerStep[] = [];
  for (const step of steps) {
    const { point } = step;
    if (point && point.min !== null && point.avg !== null && point.max !== null) {
      current.push(step as PlayerStep);
    } else if ((point?.online ?? 0) < ONLINE_FRACTION && current.length > 0) {
      runs.push(current);
      current = [];
    }
  }
  if (current.length > 0) runs.push(current);
  return runs;
}

/** Spans of [start, end) where `offline` holds, merged. */
function merged(spans: ReadonlyArray<{ start: number; end: number }>): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  for (const span of spans) {
    const last = out.at(-1);
    if (last && last.end >= span.start) last.end = Math.max(last.end, span.end);
    else out.push({ ...span });
  }
  return out;
}

/** The chart of `data` in `frame`. */
export function layoutChart(data: ChartData, frame: ChartFrame): ChartLayout {
  const fontSize = frame.fontSize ?? DEFAULT_FONT_SIZE;
  const { from, to, stepMs } = data;
  const span = Math.max(1, to - from);
  const byStart = new Map(data.points.map((point) => [point.at, point]));
  const highest = Math.max(0, ...data.points.map((point) => point.max ?? 0));
  const counts = countTicks(highest);
  const labelChars = Math.max(ZONE.length, ...counts.ticks.map((count) => compactNumber(count).length));
  const left = Math.ceil(labelChars * CHARACTER_EM * fontSize + fontSize * 0.75);
  const plot = { x: left, y: Math.ceil(fontSize * 0.75), width: 0, height: 0 };
  plot.width = Math.max(1, frame.width - left - Math.ceil(fontSize));
  plot.height = Math.max(1, frame.height - plot.y - Math.ceil(fontSize * 2.25));
  const xOf = (at: number) => round(plot.x + ((Math.min(to, Math.max(from, at)) - from) / span) * plot.width);
  const yOf = (count: number) => round(plot.y + plot.height - (count / counts.top) * plot.height);

  const steps: Step[] = [];
  const offline: Array<{ start: number; end: number }> = [];
  for (let at = Math.floor(from / stepMs) * stepMs; at < to; at += stepMs) {
    const point = byStart.get(at);
    steps.push({ x: xOf((Math.max(at, from) + Math.min(at + stepMs, to)) / 2), point });
    const known = { start: Math.max(at, from, data.dataFrom), end: Math.min(at + stepMs, to) };
    // The step still being written is not yet known to be offline.
    const current = at + stepMs > to;
    if (known.end > known.start && !current && (point?.online ?? 0) < ONLINE_FRACTION) offline.push(known);
  }

  const runs = playerRuns(steps);
  const band = runs.map((run) => [
    ...run.map((step): ChartXY => [step.x, yOf(step.point.max)]),
    ...[...run].reverse().map((step): ChartXY => [step.x, yOf(step.point.min)]),
  ]);
  const mean = runs.map((run) => run.map((step): ChartXY => [step.x, yOf(step.point.avg)]));

  const room = TIME_LABEL_ROOM[data.range] * (fontSize / DEFAULT_FONT_SIZE);
  const options = TIME_STEPS[data.range];
  const timeStep = options.find((option) => option.every(from, to).length <= Math.max(2, plot.width / room)) ?? options.at(-1)!;
  // A label centred on its tick keeps clear of "UTC" on the left and of the frame's edge on the right.
  const times = timeStep.every(from, to)
    .map((at) => ({ at: xOf(at), label: timeStep.label(at) }))
    .filter((tick) => tick.at >= plot.x + room * 0.4 && tick.at <= frame.width - room * 0.5);

  const withPlayers = data.points.filter((point) => point.avg !== null);
  const meanPlayers = withPlayers.length > 0 ? withPlayers.reduce((sum, point) => sum + point.avg!, 0) / withPlayers.length : null;
  const summary = meanPlayers === null
    ? `Players online over ${RANGE_WORDS[data.range]}: no data`
    : `Players online over ${RANGE_WORDS[data.range]}: peak ${highest}, mean ${Math.round(meanPlayers * 10) / 10}`;
  return {
    width: frame.width,
    height: frame.height,
    fontSize,
    plot,
    band,
    mean,
    offline: merged(offline).map(({ start, end }) => ({ x: xOf(start), width: round(xOf(end) - xOf(start)) })),
    counts: counts.ticks.map((count) => ({ at: yOf(count), label: compactNumber(count) })),
    times,
    timeBaseline: round(plot.y + plot.height + fontSize * 1.5),
    note: runs.length === 0 ? "No players recorded in this range yet" : null,
    summary,
  };
}
