// sparkline: players over the last 24 hours, or 7 or 30 days (range=; the plugin's pushed history),
// with the current value and the peak, beside the server's name, status,
// MOTD, join address and version. A history shorter than a day spans the
// chart from its first sample; fewer than two samples draw a flat line at the
// known count (never a lone dot), or on the floor when no count is known.

import { stripFormatting } from "../../minecraft/format.ts";
import { Path, linearGradient, solid, type Color } from "../../render/index.ts";
import type { TextBlock } from "../fit-text.ts";
import type { LayoutKey } from "../layout-keys.ts";
import { HISTORY_WINDOW_MS, playersUnknown, shows, SPARKLINE_RANGES, type HistoryPoint, type ServerBannerData, type SparklineRange } from "../model.ts";
import { compactCount, exactCount } from "../numbers.ts";
import { drawAddressChip, fitAddressChip, type AddressPlace } from "../address-chip.ts";
import { bannerMotdLines } from "../motd-lines.ts";
import { drawPanel, drawServerStatus } from "../parts.ts";
import { drawSlot, fitSlot, formattedBlock, textInSlot, type TextSlot, SANS_BOLD } from "../slots.ts";
import type { Box, Surface } from "../surface.ts";
import { accentWash, backdrops, type Palette } from "../theme.ts";
import { fitCount, UNKNOWN } from "../fitted-counts.ts";
import type { ServerTemplate } from "./template.ts";

/** A number with a small caption over (or under) it. */
interface Stat {
  label: TextSlot;
  value: TextSlot;
}

export interface SparklineLayout {
  radius: number;
  name: TextSlot;
  /** Both MOTD lines; null where there is no room (468x60). */
  motd: TextBlock | null;
  /** The status dot and word; the details named by `row` follow it on its baseline, up to the slot's end. */
  status: TextSlot;
  dot: number;
  row: ReadonlyArray<"address" | "version">;
  /**
   * The address chip's place; where `row` names it, the chip goes after the
   * status word on that row (the place gives its height and the rest).
   */
  address: AddressPlace;
  /** On a line of its own where `row` does not name it (null: not drawn). */
  version: TextSlot | null;
  chart: Box;
  /** Stroke width of the line and radius of its end and peak markers. */
  line: number;
  marker: number;
  /** The note over a flat line ("collecting history since 10:55 UTC"). */
  note: TextSlot;
  /** The current value under its caption "now". */
  now: Stat;
  /**
   * The peak: a caption over a number, or (value null) one text "peak 7 d: 14";
   * null: in the caption of the current value ("now · peak 7 d: 14").
   */
  peak: { label: TextSlot; value: TextSlot | null } | null;
}

const label = (x: number, width: number, baseline: number, size: number, align?: "right" | "center"): TextSlot =>
  ({ x, width, baseline, size: { max: size, min: size }, align });
const value = (x: number, width: number, baseline: number, max: number, min: number, align?: "right"): TextSlot =>
  ({ x, width, baseline, size: { max, min }, align });

const layouts: Record<LayoutKey, SparklineLayout> = {
  "468x60": {
    radius: 6,
    name: { x: 14, width: 222, baseline: 26, size: { max: 16, min: 12 } },
    motd: null,
    status: { x: 14, width: 222, baseline: 45, size: { max: 11, min: 10 } },
    dot: 3.5,
    row: ["address"],
    address: { box: { x: 14, y: 33, width: 222, height: 17 }, size: { max: 10, min: 9 }, align: "left", whole: true },
    version: null,
    chart: { x: 248, y: 14, width: 96, height: 32 },
    line: 1.5,
    marker: 2.5,
    note: label(248, 96, 24, 10, "center"),
    // Room for "now · peak 30 d: 9,999" at 9 px: the chart gives up 20 px for it.
    now: { value: value(372, 82, 31, 20, 12, "right"), label: { x: 350, width: 104, baseline: 46, size: { max: 10, min: 9 }, align: "right" } },
    peak: null,
  },
  "728x90": {
    radius: 8,
    name: { x: 20, width: 360, baseline: 28, size: { max: 20, min: 15 } },
    motd: { x: 20, width: 360, baseline: 46, lineHeight: 1.3, size: { max: 11, min: 10 }, wrap: 1 },
    status: { x: 20, width: 360, baseline: 80, size: { max: 12, min: 11 } },
    dot: 4,
    row: ["address", "version"],
    address: { box: { x: 20, y: 66, width: 360, height: 20 }, size: { max: 11.5, min: 10 }, align: "left", whole: false },
    version: null,
    chart: { x: 398, y: 16, width: 192, height: 58 },
    line: 2,
    marker: 3,
    note: label(398, 192, 36, 11, "center"),
    now: { label: label(600, 110, 28, 11, "right"), value: value(600, 110, 57, 28, 16, "right") },
    peak: { label: label(600, 110, 78, 12, "right"), value: null },
  },
  "300x250": {
    radius: 10,
    name: { x: 22, width: 256, baseline: 62, size: { max: 22, min: 14 } },
    motd: { x: 22, width: 256, baseline: 83, lineHeight: 1.3, size: { max: 12, min: 10 }, wrap: 1 },
    status: { x: 22, width: 150, baseline: 36, size: { max: 13, min: 12 } },
    dot: 4,
    row: [],
    address: { box: { x: 22, y: 217, width: 256, height: 21 }, size: { max: 12, min: 10 }, align: "left", whole: false },
    version: { x: 128, width: 150, baseline: 36, size: { max: 12, min: 11 }, align: "right" },
    chart: { x: 22, y: 108, width: 256, height: 56 },
    line: 2,
    marker: 3,
    note: label(22, 256, 128, 12, "center"),
    now: { label: label(22, 120, 184, 11), value: value(22, 120, 208, 22, 14) },
    peak: { label: label(158, 120, 184, 11, "right"), value: value(158, 120, 208, 22, 14, "right") },
  },
  "600x150": {
    radius: 12,
    name: { x: 28, width: 262, baseline: 60, size: { max: 24, min: 16 } },
    motd: { x: 28, width: 262, baseline: 82, lineHeight: 1.3, size: { max: 13, min: 11 }, wrap: 1 },
    status: { x: 28, width: 262, baseline: 32, size: { max: 13, min: 12 } },
    dot: 4.5,
    row: ["version"],
    address: { box: { x: 28, y: 111, width: 262, height: 22 }, size: { max: 13, min: 11 }, align: "left", whole: false },
    version: null,
    chart: { x: 310, y: 22, width: 262, height: 72 },
    line: 2,
    marker: 3.5,
    note: label(310, 262, 44, 12, "center"),
    now: { label: label(310, 120, 114, 12), value: value(310, 120, 138, 20, 14) },
    peak: { label: label(412, 160, 114, 12, "right"), value: value(452, 120, 138, 20, 14, "right") },
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
  /** When the chart starts: the window before its newest sample, or its first sample if that is later. */
  start: number;
  /** Whether the history covers the whole window. */
  fullDay: boolean;
}

/**
 * A history whose first bucket lands a little after the window's start still
 * reads as the whole window: an hour of a day, and as much of longer ranges
 * (whose points are an hour or three apart).
 */
const FULL_WINDOW_SLACK = 1 / 24;

/**
 * History within the window (24 hours unless given) before its newest sample, placed in `box`:
 * time left to right from the window's start (or the first sample, when the
 * history is younger) to the newest, players bottom (0) to top (peak).
 * Null when fewer than two samples at different times remain: no line to draw.
 */
export function chartOf(history: readonly HistoryPoint[], box: Box, windowMs: number = HISTORY_WINDOW_MS): Chart | null {
  const valid = history.filter((p) => Number.isFinite(p.at) && Number.isFinite(p.online)).sort((a, b) => a.at - b.at);
  const end = valid.at(-1)?.at;
  if (end === undefined) return null;
  const recent = valid.filter((p) => p.at >= end - windowMs);
  const start = recent[0]!.at;
  const span = end - start;
  if (span <= 0) return null;
  const counts = recent.map((p) => Math.max(0, Math.floor(p.online)));
  const top = Math.max(1, ...counts);
  const points = recent.map((p, i) => ({
    x: box.x + ((p.at - start) / span) * box.width,
    y: box.y + box.height - (counts[i]! / top) * box.height,
    online: counts[i]!,
  }));
  const peak = counts.indexOf(Math.max(...counts));
  return { points, peak, start, fullDay: span >= windowMs * (1 - FULL_WINDOW_SLACK) };
}

/** "10:55 UTC": banners are shown to readers anywhere, so the one zone all can convert from. */
export function clockTime(at: number): string {
  return `${new Date(at).toISOString().slice(11, 16)} UTC`;
}

/** The line through `points` and the soft area under it, with markers on `markers`. */
function drawLine(surface: Surface, layout: SparklineLayout, points: readonly { x: number; y: number }[], markers: readonly { x: number; y: number }[], color: Color): void {
  const { chart: box } = layout;
  const floor = box.y + box.height;
  const line = new Path();
  for (const p of points) line.lineTo(p.x, p.y);
  const area = new Path().moveTo(points[0]!.x, floor);
  for (const p of points) area.lineTo(p.x, p.y);
  area.lineTo(points.at(-1)!.x, floor).close();
  surface.fill(area, linearGradient(0, box.y, 0, floor, [
    { offset: 0, color: { ...color, a: 90 } },
    { offset: 1, color: { ...color, a: 0 } },
  ]));
  surface.stroke(line, { width: layout.line, join: "round", cap: "round" }, solid(color));
  for (const p of markers) surface.fill(new Path().circle(p.x, p.y, layout.marker), solid(color));
}

/**
 * Fewer than two samples: a flat line across the chart at the known count
 * (half way up: one value has no scale), ending in a marker, and a note
 * saying since when history is being collected; with no count known, a
 * line on the floor in the well colour.
 */
function drawFlat(surface: Surface, layout: SparklineLayout, known: number | null, since: number | null, color: Color, palette: Palette): void {
  const { chart: box } = layout;
  const note = since !== null ? `collecting history since ${clockTime(since)}` : "no history yet";
  textInSlot(surface, layout.note, note, { face: "sans" }, palette.muted);
  if (known === null) {
    // An empty track along the bottom, washed with the accent where the line would be in it (online).
    const y = box.y + box.height - layout.line / 2;
    const baseline = new Path().moveTo(box.x, y).lineTo(box.x + box.width, y);
    surface.stroke(baseline, { width: layout.line, cap: "round" }, solid(palette.well));
    if (color === palette.accent) surface.stroke(baseline, { width: layout.line, cap: "round" }, solid(accentWash(palette)));
    return;
  }
  const y = box.y + box.height * 0.6;
  const end = { x: box.x + box.width, y };
  drawLine(surface, layout, [{ x: box.x, y }, end], [end], color);
}

const SANS = { face: "sans" } as const;

/** The range as a caption says it: "24 h", "7 d", "30 d". */
const RANGE_CAPTIONS: Readonly<Record<SparklineRange, string>> = { "24h": "24 h", "7d": "7 d", "30d": "30 d" };

/** "5 Jan": where a history of several days starts (the time of day says little there). */
function dayOf(at: number): string {
  return new Date(at).toLocaleDateString("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });
}

/**
 * A strip's one-line peak, naming its range ("peak 7 d: 14"), after `prefix`:
 * the exact count, or the compact one ("1.2k") when that does not fit.
 */
function stripPeak(surface: Surface, slot: TextSlot, prefix: string, range: SparklineRange, peak: number | null): string {
  const caption = (count: (n: number) => string) => `${prefix}peak ${RANGE_CAPTIONS[range]}: ${peak === null ? UNKNOWN : count(peak)}`;
  return fitSlot(surface, slot, caption(exactCount), SANS).truncated ? caption(compactCount) : caption(exactCount);
}

/** What the peak covers: the range, the history there is, or (no chart) only the current count. */
function peakCaption(chart: Chart | null, range: SparklineRange): string {
  if (!chart) return "peak";
  if (chart.fullDay) return `peak ${RANGE_CAPTIONS[range]}`;
  return `peak since ${range === "24h" ? clockTime(chart.start) : dayOf(chart.start)}`;
}

/** A count under its caption: a dash where there is none, the word where the server does not say it (`unknown`). */
function drawStat(surface: Surface, stat: Stat, caption: string, count: number | null, palette: Palette, unknown = false): void {
  textInSlot(surface, stat.label, caption, SANS, palette.muted);
  if (unknown) textInSlot(surface, { ...stat.value, size: { max: stat.value.size.min, min: stat.label.size.min } }, "unknown", SANS, palette.muted);
  else if (count === null) textInSlot(surface, stat.value, UNKNOWN, SANS_BOLD, palette.text);
  else drawSlot(surface, stat.value, fitCount(surface, stat.value, count, SANS_BOLD), palette.text);
}

/**
 * The status word, then the details `row` names after it: the address, then
 * the version, which gives way when both do not fit. Details the row does
 * not name go to their own slots.
 */
function drawStatusRow(surface: Surface, layout: SparklineLayout, data: ServerBannerData, palette: Palette): void {
  const { status } = layout;
  const gap = layout.dot * 3;
  const end = status.x + status.width;
  const after = (x: number, reserve = 0): TextSlot => ({ ...status, x, width: end - x - reserve });
  let x = status.x;
  if (shows(data, "status")) x += drawServerStatus(surface, status, data.status, palette, layout.dot) + gap;
  const address = shows(data, "address") && data.address ? data.address : null;
  let version = shows(data, "version") && data.version ? stripFormatting(data.version) : null;
  const versionInRow = version !== null && layout.row.includes("version");
  if (address !== null && layout.row.includes("address")) {
    const place = (reserve: number, whole: boolean): AddressPlace => ({ ...layout.address, box: { ...layout.address.box, x, width: end - x - reserve }, whole });
    const versionRoom = versionInRow ? fitSlot(surface, after(x), version!, SANS).width + gap : 0;
    const bothFit = versionRoom > 0 && fitAddressChip(surface, place(versionRoom, true), address) !== null;
    if (versionInRow && !bothFit) version = null;
    const chip = fitAddressChip(surface, place(bothFit ? versionRoom : 0, layout.address.whole), address);
    if (chip) {
      drawAddressChip(surface, chip, palette);
      x += chip.box.width + gap;
    }
  } else if (address !== null) {
    const chip = fitAddressChip(surface, layout.address, address);
    if (chip) drawAddressChip(surface, chip, palette);
  }
  if (version === null) return;
  if (versionInRow) textInSlot(surface, after(x), version, SANS, palette.muted);
  else if (layout.version) textInSlot(surface, layout.version, version, SANS, palette.muted);
}

export const sparkline: ServerTemplate<SparklineLayout> = {
  key: "sparkline",
  kind: "server",
  layouts,
  draw(surface, layout, data, palette) {
    drawPanel(surface, palette, layout.radius);
    textInSlot(surface, layout.name, stripFormatting(data.name), SANS_BOLD, palette.text);
    if (layout.motd) formattedBlock(surface, layout.motd, bannerMotdLines(data), "sans", { defaultColor: palette.motd, backdrops: backdrops(palette) });
    drawStatusRow(surface, layout, data, palette);

    const color = data.status === "online" ? palette.accent : palette.muted;
    const range = data.historyRange ?? "24h";
    const chart = chartOf(data.history, layout.chart, SPARKLINE_RANGES[range]);
    const newest = [...data.history].reverse().find((p) => Number.isFinite(p.at) && Number.isFinite(p.online));
    // Unknown now, the last sample is no count of now.
    const unknown = playersUnknown(data);
    const current = data.players?.online ?? (newest && !unknown ? Math.max(0, Math.floor(newest.online)) : null);
    if (chart) drawLine(surface, layout, chart.points, [chart.points[chart.peak]!, chart.points.at(-1)!], color);
    else drawFlat(surface, layout, current, newest?.at ?? null, color, palette);

    if (!shows(data, "players")) return;
    // The current count counts towards the peak: the peak is never below it.
    const highest = chart ? chart.points[chart.peak]!.online : null;
    const peak = current === null ? highest : Math.max(current, highest ?? current);
    // Strips: the peak joins the caption of the current value, or is one text of its own.
    drawStat(surface, layout.now, layout.peak ? "now" : stripPeak(surface, layout.now.label, "now · ", range, peak), current, palette, unknown);
    if (layout.peak?.value) drawStat(surface, { label: layout.peak.label, value: layout.peak.value }, peakCaption(chart, range), peak, palette);
    else if (layout.peak) textInSlot(surface, layout.peak.label, stripPeak(surface, layout.peak.label, "", range, peak), SANS, palette.muted);
  },
};
