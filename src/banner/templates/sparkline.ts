// sparkline: players over the last 24 hours (the plugin's pushed history),
// with the peak and the current value; a flat line and a note when there is
// no history to draw.

import { Path, linearGradient, solid } from "../../render/index.ts";
import type { LayoutKey } from "../layout-keys.ts";
import { HISTORY_WINDOW_MS, type HistoryPoint, type ServerBannerData } from "../model.ts";
import { exactCount } from "../numbers.ts";
import { drawStatusHeader } from "../parts.ts";
import { drawSlot, textInSlot, type TextSlot } from "../slots.ts";
import type { Box, Surface } from "../surface.ts";
import type { Palette } from "../theme.ts";
import { fitCount, UNKNOWN } from "../fitted-counts.ts";
import type { ServerTemplate } from "./template.ts";

interface Stat {
  label: TextSlot;
  value: TextSlot;
}

export interface SparklineLayout {
  radius: number;
  name: TextSlot;
  status: TextSlot;
  dot: number;
  chart: Box;
  /** Stroke width of the line and radius of its end and peak markers. */
  line: number;
  marker: number;
  note: TextSlot;
  /** The current value: a small label over a number. */
  now: Stat;
  /** The peak: the same, or on strips one "peak 14" text right after the status slot. */
  peak: Stat | { inline: TextSlot };
}

const label = (x: number, width: number, baseline: number, size: number, align?: "right" | "center"): TextSlot =>
  ({ x, width, baseline, size: { max: size, min: size }, align });
const value = (x: number, width: number, baseline: number, max: number, min: number, align?: "right"): TextSlot =>
  ({ x, width, baseline, size: { max, min }, align });

const layouts: Record<LayoutKey, SparklineLayout> = {
  "468x60": {
    radius: 6,
    name: { x: 14, width: 200, baseline: 25, size: { max: 15, min: 12 } },
    status: { x: 14, width: 74, baseline: 45, size: { max: 11, min: 10 } },
    dot: 3.5,
    chart: { x: 224, y: 12, width: 150, height: 36 },
    line: 1.5,
    marker: 2.5,
    note: label(224, 150, 34, 10, "center"),
    now: { label: label(384, 70, 22, 10, "right"), value: value(384, 70, 44, 20, 12, "right") },
    peak: { inline: label(0, 120, 45, 10) },
  },
  "728x90": {
    radius: 8,
    name: { x: 22, width: 330, baseline: 38, size: { max: 22, min: 15 } },
    status: { x: 22, width: 100, baseline: 66, size: { max: 14, min: 12 } },
    dot: 4.5,
    chart: { x: 372, y: 16, width: 220, height: 58 },
    line: 2,
    marker: 3,
    note: label(372, 220, 50, 12, "center"),
    now: { label: label(606, 100, 32, 12, "right"), value: value(606, 100, 64, 30, 16, "right") },
    peak: { inline: label(0, 220, 66, 13) },
  },
  "300x250": {
    radius: 10,
    name: { x: 22, width: 256, baseline: 76, size: { max: 22, min: 14 } },
    status: { x: 22, width: 160, baseline: 44, size: { max: 14, min: 12 } },
    dot: 4.5,
    chart: { x: 22, y: 100, width: 256, height: 74 },
    line: 2,
    marker: 3,
    note: label(22, 256, 142, 13, "center"),
    now: { label: label(22, 120, 204, 12), value: value(22, 120, 230, 24, 14) },
    peak: { label: label(158, 120, 204, 12, "right"), value: value(158, 120, 230, 24, 14, "right") },
  },
  "600x150": {
    radius: 12,
    name: { x: 30, width: 250, baseline: 76, size: { max: 26, min: 16 } },
    status: { x: 30, width: 150, baseline: 44, size: { max: 15, min: 13 } },
    dot: 5,
    chart: { x: 300, y: 28, width: 270, height: 94 },
    line: 2,
    marker: 3.5,
    note: label(300, 270, 80, 14, "center"),
    now: { label: label(30, 100, 104, 13), value: value(30, 100, 128, 22, 14) },
    peak: { label: label(140, 120, 104, 13), value: value(140, 120, 128, 22, 14) },
  },
};

export interface ChartPoint {
  x: number;
  y: number;
  online: number;
}

export interface Chart {
  points: ChartPoint[];
  /** Index into points of the (first) highest value. */
  peak: number;
}

/**
 * History within the 24 hours before its newest sample, placed in `box`:
 * time left to right over the whole window, players bottom (0) to top (peak).
 * Null when fewer than two samples remain: nothing to draw a line through.
 */
export function chartOf(history: readonly HistoryPoint[], box: Box): Chart | null {
  const valid = history.filter((p) => Number.isFinite(p.at) && Number.isFinite(p.online)).sort((a, b) => a.at - b.at);
  const end = valid.at(-1)?.at;
  if (end === undefined) return null;
  const start = end - HISTORY_WINDOW_MS;
  const recent = valid.filter((p) => p.at >= start);
  if (recent.length < 2) return null;
  const counts = recent.map((p) => Math.max(0, Math.floor(p.online)));
  const top = Math.max(1, ...counts);
  const points = recent.map((p, i) => ({
    x: box.x + ((p.at - start) / HISTORY_WINDOW_MS) * box.width,
    y: box.y + box.height - (counts[i]! / top) * box.height,
    online: counts[i]!,
  }));
  const peak = counts.indexOf(Math.max(...counts));
  return { points, peak };
}

function drawChart(surface: Surface, layout: SparklineLayout, chart: Chart, data: ServerBannerData, palette: Palette): void {
  const { chart: box } = layout;
  const { points } = chart;
  const floor = box.y + box.height;
  const line = new Path();
  for (const p of points) line.lineTo(p.x, p.y);
  const area = new Path().moveTo(points[0]!.x, floor);
  for (const p of points) area.lineTo(p.x, p.y);
  area.lineTo(points.at(-1)!.x, floor).close();
  const color = data.status === "online" ? palette.accent : palette.muted;
  surface.fill(area, linearGradient(0, box.y, 0, floor, [
    { offset: 0, color: { ...color, a: 90 } },
    { offset: 1, color: { ...color, a: 0 } },
  ]));
  surface.stroke(line, { width: layout.line, join: "round", cap: "round" }, solid(color));
  // Markers on the peak and the newest sample.
  for (const p of [points[chart.peak]!, points.at(-1)!]) surface.fill(new Path().circle(p.x, p.y, layout.marker), solid(color));
}

function drawStat(surface: Surface, stat: Stat, caption: string, count: number | null, palette: Palette): void {
  const bold = { face: "sans", bold: true } as const;
  textInSlot(surface, stat.label, caption, { face: "sans" }, palette.muted);
  if (count === null) textInSlot(surface, stat.value, UNKNOWN, bold, palette.text);
  else drawSlot(surface, stat.value, fitCount(surface, stat.value, count, bold), palette.text);
}

export const sparkline: ServerTemplate<SparklineLayout> = {
  key: "sparkline",
  title: "Sparkline",
  description: "Players over the last 24 hours, with the peak and the current value.",
  kind: "server",
  defaultTheme: "dark",
  uses: ["server_name", "server_status", "online_players", "history", "accent"],
  layouts,
  draw(surface, layout, data, palette) {
    drawStatusHeader(surface, layout, data, palette);
    const sans = { face: "sans" } as const;

    const { chart: box } = layout;
    const chart = chartOf(data.history, box);
    if (chart) drawChart(surface, layout, chart, data, palette);
    else {
      // A flat line on the floor, and a note saying why.
      surface.stroke(new Path().moveTo(box.x, box.y + box.height - layout.line / 2).lineTo(box.x + box.width, box.y + box.height - layout.line / 2),
        { width: layout.line, cap: "round" }, solid(palette.well));
      textInSlot(surface, layout.note, "No history yet", sans, palette.muted);
    }

    const current = data.players?.online ?? chart?.points.at(-1)?.online ?? null;
    const peak = chart ? chart.points[chart.peak]!.online : null;
    drawStat(surface, layout.now, "now", current, palette);
    if ("inline" in layout.peak) {
      const slot = { ...layout.peak.inline, x: layout.status.x + layout.status.width };
      textInSlot(surface, slot, `peak ${peak === null ? UNKNOWN : exactCount(peak)}`, sans, palette.muted);
    } else drawStat(surface, layout.peak, "peak 24 h", peak, palette);
  },
};
