// The chart's layout (src/page/chart-layout.ts): pure geometry from a range's
// points, checked by where things land, not by a picture.

import { describe, expect, test } from "bun:test";
import { layoutChart, type ChartData } from "../../src/page/chart-layout.ts";
import type { ServerHistoryPoint } from "../../src/store/history-ranges.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Monday 5 January 2026, 00:00 UTC. */
const MONDAY = Date.UTC(2026, 0, 5);

const point = (at: number, avg: number, spread = 2, online = 1): ServerHistoryPoint => ({ at, min: avg - spread, avg, max: avg + spread, online });

/** A week of hourly steps with 10 players, none for the 3 hours from day 2, and 50 at day 3, 01:00. */
function week(): ChartData {
  const points: ServerHistoryPoint[] = [];
  for (let at = MONDAY; at < MONDAY + 7 * DAY; at += HOUR) {
    if (at >= MONDAY + 2 * DAY && at < MONDAY + 2 * DAY + 3 * HOUR) continue;
    points.push(at === MONDAY + 3 * DAY + HOUR ? point(at, 40, 10) : point(at, 10));
  }
  return { range: "7d", stepMs: HOUR, points, from: MONDAY, to: MONDAY + 7 * DAY, dataFrom: 0 };
}

const FRAME = { width: 800, height: 300 };

describe("layoutChart", () => {
  test("the mean line has a vertex at the middle of every step with players, broken where the history has none", () => {
    const layout = layoutChart(week(), FRAME);
    const { plot } = layout;
    expect(layout.mean.length).toBe(2);
    expect(layout.mean[0]!.length).toBe(48);
    expect(layout.mean[1]!.length).toBe(7 * 24 - 48 - 3);
    const xOf = (at: number) => plot.x + ((at - MONDAY) / (7 * DAY)) * plot.width;
    expect(layout.mean[0]![0]![0]).toBeCloseTo(xOf(MONDAY + HOUR / 2), 1);
    expect(layout.mean[1]![0]![0]).toBeCloseTo(xOf(MONDAY + 2 * DAY + 3.5 * HOUR), 1);
  });

  test("the band runs along the maxima and back along the minima; counts are scaled to nice ticks", () => {
    const layout = layoutChart(week(), FRAME);
    expect(layout.counts.map((tick) => tick.label)).toEqual(["0", "20", "40", "60"]);
    const yOf = (count: number) => layout.plot.y + layout.plot.height - (count / 60) * layout.plot.height;
    const outline = layout.band[1]!;
    const run = 7 * 24 - 48 - 3;
    expect(outline.length).toBe(2 * run);
    expect(outline[0]![1]).toBeCloseTo(yOf(12), 1);
    expect(outline.at(-1)![1]).toBeCloseTo(yOf(8), 1);
    expect(outline.at(-1)![0]).toBe(outline[0]![0]);
    const peak = Math.min(...layout.mean[1]!.map(([, y]) => y));
    expect(peak).toBeCloseTo(yOf(40), 1);
  });

  test("offline stretches: the steps with no point, merged; none before the first push, none for the step still being written", () => {
    const data = week();
    const layout = layoutChart(data, FRAME);
    const xOf = (at: number) => layout.plot.x + ((at - MONDAY) / (7 * DAY)) * layout.plot.width;
    expect(layout.offline.length).toBe(1);
    expect(layout.offline[0]!.x).toBeCloseTo(xOf(MONDAY + 2 * DAY), 1);
    expect(layout.offline[0]!.width).toBeCloseTo(xOf(MONDAY + 2 * DAY + 3 * HOUR) - xOf(MONDAY + 2 * DAY), 0);

    // First pushed on day 1 at noon: the time before has no data and is not shaded; half an hour into a step, it is not yet offline.
    const young = { ...data, points: data.points.filter((p) => p.at >= MONDAY + 1.5 * DAY && p.at < MONDAY + 6 * DAY), dataFrom: MONDAY + 1.5 * DAY, to: MONDAY + 6 * DAY + HOUR / 2 };
    const shaded = layoutChart(young, FRAME).offline;
    expect(shaded.length).toBe(1);
    expect(shaded[0]!.x).toBeGreaterThan(layout.plot.x + layout.plot.width / 7);
  });

  test("a step online less than half of it is offline; a lone step with players is a line of one point", () => {
    const data: ChartData = {
      range: "24h", stepMs: 5 * 60_000, from: MONDAY, to: MONDAY + DAY, dataFrom: 0,
      points: [point(MONDAY + HOUR, 5, 1, 0.4), point(MONDAY + 2 * HOUR, 5, 1, 1)],
    };
    const layout = layoutChart(data, FRAME);
    expect(layout.mean.map((line) => line.length)).toEqual([1, 1]);
    // Everything but the one step fully online (and the one being written) is shaded: two stretches around it.
    expect(layout.offline.length).toBe(2);
  });

  test("a step online without a count (no update fell in it) is passed over, not a break: pushes every 10 minutes draw one line over 5-minute steps", () => {
    const points: ServerHistoryPoint[] = [];
    for (let at = MONDAY; at < MONDAY + DAY; at += 5 * 60_000) {
      const counted = (at / (5 * 60_000)) % 2 === 0;
      points.push(counted ? point(at, 10) : { at, min: null, avg: null, max: null, online: 1 });
    }
    const layout = layoutChart({ range: "24h", stepMs: 5 * 60_000, points, from: MONDAY, to: MONDAY + DAY, dataFrom: 0 }, FRAME);
    expect(layout.mean.map((line) => line.length)).toEqual([144]);
    expect(layout.offline).toEqual([]);
  });

  test("no players in the range: a note, no band or line, and the whole known span shaded", () => {
    const layout = layoutChart({ range: "30d", stepMs: 3 * HOUR, points: [], from: MONDAY, to: MONDAY + 30 * DAY, dataFrom: 0 }, FRAME);
    expect(layout.note).toBe("No players recorded in this range yet");
    expect([layout.band, layout.mean]).toEqual([[], []]);
    expect(layout.counts.map((tick) => tick.label)).toEqual(["0", "1"]);
    expect(layout.offline.length).toBe(1);
    expect(layout.summary).toBe("Players online over the last 30 days: no data");
  });

  test("time labels: days of the week for 7 days, hours for a day, months for a year, fewer where the frame is narrow", () => {
    expect(layoutChart(week(), FRAME).times.map((tick) => tick.label)).toEqual(["Tue 6", "Wed 7", "Thu 8", "Fri 9", "Sat 10", "Sun 11"]);
    const day: ChartData = { range: "24h", stepMs: 5 * 60_000, points: [], from: MONDAY, to: MONDAY + DAY, dataFrom: 0 };
    expect(layoutChart(day, FRAME).times.map((tick) => tick.label)).toEqual(["02:00", "04:00", "06:00", "08:00", "10:00", "12:00", "14:00", "16:00", "18:00", "20:00", "22:00"]);
    expect(layoutChart(day, { width: 360, height: 200 }).times.map((tick) => tick.label)).toEqual(["06:00", "12:00", "18:00"]);
    const year: ChartData = { range: "1y", stepMs: DAY, points: [], from: Date.UTC(2025, 5, 10), to: Date.UTC(2026, 5, 10), dataFrom: 0 };
    expect(layoutChart(year, FRAME).times.map((tick) => tick.label)).toEqual(["Jul", "Aug", "Sep", "Oct", "Nov", "Dec", "2026", "Feb", "Mar", "Apr", "May", "Jun"]);
  });

  test("the same data and frame give the same layout; the summary names the peak and mean", () => {
    expect(layoutChart(week(), FRAME)).toEqual(layoutChart(week(), FRAME));
    expect(layoutChart(week(), FRAME).summary).toBe("Players online over the last 7 days: peak 50, mean 10.2");
  });
});
