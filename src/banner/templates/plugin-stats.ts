// plugin-stats: a plugin's record. Its name, version and status (active:
// seen within 24 hours) at the left or top, and up to three counters: in
// columns on the strips and the header, as rows of a list in the box. All
// numbers in one style (compact, or every digit with numbers=full) and one
// size; captions shrink, then wrap onto a second line, before anything is cut.

import { Path, solid } from "../../render/index.ts";
import { compactNumber } from "../../compact-number.ts";
import type { SizeRange } from "../fit-text.ts";
import type { LayoutKey } from "../layout-keys.ts";
import { drawDivider, drawPanel, drawPluginIcon, drawStatusWord } from "../parts.ts";
import { drawSlot, fitSlot, textInSlot, type TextSlot } from "../slots.ts";
import { MAX_SHOWN_COUNTERS, shows, type NumberStyle, type PluginBannerData } from "../model.ts";
import { THIN_SPACE } from "../numbers.ts";
import type { Box, Surface } from "../surface.ts";
import type { Palette } from "../theme.ts";
import { stripFormatting } from "../../minecraft/format.ts";
import { UNKNOWN } from "../fitted-counts.ts";
import type { PluginTemplate } from "./template.ts";

/** Where the counters go and how big they are drawn. */
export interface CounterArea {
  box: Box;
  /**
   * columns: side by side, the number over its caption, each a third of the
   * box wide and the group at its right end; rows: a list, the caption at the
   * left and the number at the right of each third of the box's height.
   */
  arrangement: "columns" | "rows";
  value: SizeRange;
  label: SizeRange;
  /** Columns: baselines from the box's top with one caption line; a second line lifts both by half a pitch. */
  valueBaseline: number;
  labelBaseline: number;
  /** Distance between two caption lines. */
  labelPitch: number;
}

export interface PluginStatsLayout {
  radius: number;
  icon: Box;
  name: TextSlot;
  /** Version, then the status after it on the same row. */
  version: TextSlot;
  status: TextSlot;
  dot: number;
  counters: CounterArea;
  divider: { x: number; y: number; width: number } | null;
}

/** Columns are a third of the counters' box wide, rows a third of its height. */
const SLOTS = MAX_SHOWN_COUNTERS;

const layouts: Record<LayoutKey, PluginStatsLayout> = {
  "468x60": {
    radius: 6,
    icon: { x: 12, y: 12, width: 36, height: 36 },
    name: { x: 58, width: 162, baseline: 27, size: { max: 15, min: 12 } },
    version: { x: 58, width: 80, baseline: 45, size: { max: 11, min: 10 } },
    status: { x: 58, width: 162, baseline: 45, size: { max: 11, min: 10 } },
    dot: 3.5,
    counters: {
      box: { x: 228, y: 0, width: 230, height: 60 }, arrangement: "columns",
      value: { max: 18, min: 11 }, label: { max: 9, min: 9 }, valueBaseline: 30, labelBaseline: 44, labelPitch: 10,
    },
    divider: null,
  },
  "728x90": {
    radius: 8,
    icon: { x: 19, y: 19, width: 52, height: 52 },
    name: { x: 85, width: 290, baseline: 41, size: { max: 22, min: 15 } },
    version: { x: 85, width: 110, baseline: 65, size: { max: 13, min: 11 } },
    status: { x: 85, width: 290, baseline: 65, size: { max: 13, min: 11 } },
    dot: 4,
    counters: {
      box: { x: 386, y: 0, width: 330, height: 90 }, arrangement: "columns",
      value: { max: 26, min: 14 }, label: { max: 11, min: 9 }, valueBaseline: 45, labelBaseline: 64, labelPitch: 12,
    },
    divider: null,
  },
  "300x250": {
    radius: 10,
    icon: { x: 22, y: 22, width: 48, height: 48 },
    name: { x: 82, width: 196, baseline: 43, size: { max: 20, min: 13 } },
    version: { x: 82, width: 90, baseline: 64, size: { max: 13, min: 11 } },
    status: { x: 82, width: 196, baseline: 64, size: { max: 13, min: 11 } },
    dot: 4,
    counters: {
      box: { x: 22, y: 96, width: 256, height: 138 }, arrangement: "rows",
      value: { max: 24, min: 14 }, label: { max: 12, min: 10 }, valueBaseline: 0, labelBaseline: 0, labelPitch: 13,
    },
    divider: { x: 22, y: 90, width: 256 },
  },
  "600x150": {
    radius: 12,
    icon: { x: 28, y: 43, width: 64, height: 64 },
    name: { x: 108, width: 180, baseline: 71, size: { max: 26, min: 15 } },
    version: { x: 108, width: 90, baseline: 99, size: { max: 14, min: 12 } },
    status: { x: 108, width: 180, baseline: 99, size: { max: 14, min: 12 } },
    dot: 4.5,
    counters: {
      box: { x: 294, y: 0, width: 290, height: 150 }, arrangement: "columns",
      value: { max: 30, min: 13 }, label: { max: 12, min: 10 }, valueBaseline: 76, labelBaseline: 98, labelPitch: 14,
    },
    divider: null,
  },
};

/** "total_downloads" -> "Total downloads": sentence case, narrower than capitals where room is short. */
export function counterCaption(name: string): string {
  const words = stripFormatting(name).replace(/[_-]+/g, " ").replace(/\s+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** "0.2.1" -> "v0.2.1"; other version names as they are. */
function versionLabel(version: string | null): string {
  if (!version) return "";
  const text = stripFormatting(version).trim();
  return /^\d/.test(text) ? `v${text}` : text;
}

/** Every digit, groups of three split by a thin space, at most two decimals (a rating of 4.75). */
const FULL = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });

/** A counter as drawn: "—" for a chosen counter the record lacks; compact from 1000 on (as badges), else every digit. */
export function counterText(value: number | null, style: NumberStyle): string {
  if (value === null) return UNKNOWN;
  if (style === "compact" && Math.abs(value) >= 1000) return compactNumber(value);
  return FULL.format(value + 0).replaceAll(",", THIN_SPACE);
}

const BOLD = { face: "sans", bold: true } as const;
const CAPTION = { face: "sans" } as const;

/**
 * The numbers' one size: the largest at which every number fits its slot.
 * Full numbers that do not fit even at the smallest are all written compact
 * instead, so a banner never mixes the two styles.
 */
function numbersOf(surface: Surface, slots: readonly TextSlot[], values: ReadonlyArray<number | null>, style: NumberStyle): { texts: string[]; size: number } {
  const attempt = (s: NumberStyle) => {
    const texts = values.map((value) => counterText(value, s));
    const fitted = texts.map((text, i) => fitSlot(surface, slots[i]!, text, BOLD));
    return { texts, size: Math.min(...fitted.map((f) => f.size)), cut: fitted.some((f) => f.truncated) };
  };
  const wanted = attempt(style);
  return wanted.cut && style === "full" ? attempt("compact") : wanted;
}

/**
 * A caption as one line, shrinking within its range; if it still does not
 * fit, as two lines split between words where both fit at the largest size.
 * Cut with an ellipsis only when no split fits.
 */
function captionLines(surface: Surface, slot: TextSlot, text: string, maxLines: number): string[] {
  if (maxLines < 2 || !fitSlot(surface, slot, text, CAPTION).truncated) return [text];
  const words = text.split(" ");
  let best: { lines: string[]; size: number } | null = null;
  for (let i = 1; i < words.length; i++) {
    const lines = [words.slice(0, i).join(" "), words.slice(i).join(" ")];
    const fitted = lines.map((line) => fitSlot(surface, slot, line, CAPTION));
    if (fitted.some((f) => f.truncated)) continue;
    const size = Math.min(...fitted.map((f) => f.size));
    if (!best || size > best.size) best = { lines, size };
  }
  return best?.lines ?? [text];
}

/** Draws caption lines in one size (the largest all fit at), the first on `slot.baseline`. */
function drawCaption(surface: Surface, slot: TextSlot, lines: readonly string[], pitch: number, color: Palette["muted"]): void {
  const size = Math.min(...lines.map((line) => fitSlot(surface, slot, line, CAPTION).size));
  lines.forEach((line, i) => textInSlot(surface, { ...slot, baseline: slot.baseline + i * pitch, size: { max: size, min: slot.size.min } }, line, CAPTION, color));
}

function drawColumns(surface: Surface, area: CounterArea, counters: PluginBannerData["counters"], style: NumberStyle, palette: Palette): void {
  const { box } = area;
  const width = box.width / SLOTS;
  // The group sits at the right end: one or two counters stay next to the edge, not adrift in the middle.
  const cells = counters.map((_, i) => ({ x: box.x + (SLOTS - counters.length + i) * width, width }));
  // Room kept beside the hairlines: wider for the numbers, whose bold digits would touch them.
  const slot = (cell: { x: number; width: number }, baseline: number, size: SizeRange, pad = 4): TextSlot =>
    ({ x: cell.x + pad, width: cell.width - 2 * pad, baseline, size, align: "center" });
  const captions = counters.map(([name], i) => captionLines(surface, slot(cells[i]!, 0, area.label), counterCaption(name), 2));
  // Every cell's number on one line: lifted by half a pitch when some caption takes two.
  const lift = captions.some((lines) => lines.length > 1) ? area.labelPitch / 2 : 0;
  const valueSlots = cells.map((cell) => slot(cell, box.y + area.valueBaseline - lift, area.value, 8));
  const numbers = numbersOf(surface, valueSlots, counters.map(([, value]) => value), style);
  counters.forEach((_, i) => {
    const cell = cells[i]!;
    textInSlot(surface, { ...valueSlots[i]!, size: { max: numbers.size, min: area.value.min } }, numbers.texts[i]!, BOLD, palette.text);
    drawCaption(surface, slot(cell, box.y + area.labelBaseline - lift, area.label), captions[i]!, area.labelPitch, palette.muted);
    if (i > 0) {
      const inner = box.height * 0.26;
      surface.fill(new Path().rect(cell.x, box.y + inner, 1, box.height - 2 * inner), solid(palette.border));
    }
  });
}

function drawRows(surface: Surface, area: CounterArea, counters: PluginBannerData["counters"], style: NumberStyle, palette: Palette): void {
  const { box } = area;
  const height = box.height / SLOTS;
  // Fewer counters sit in the middle of the box, not at its top over empty rows.
  const top = box.y + ((SLOTS - counters.length) * height) / 2;
  const gap = 12;
  // The numbers first: the captions take the room they leave.
  const valueSlots = counters.map((_, i) => ({
    x: box.x + box.width / 3, width: (box.width * 2) / 3, baseline: top + i * height + height / 2 + area.value.max * 0.36,
    size: area.value, align: "right" as const,
  }));
  const numbers = numbersOf(surface, valueSlots, counters.map(([, value]) => value), style);
  counters.forEach(([name], i) => {
    const valueSlot = { ...valueSlots[i]!, size: { max: numbers.size, min: area.value.min } };
    const value = fitSlot(surface, valueSlot, numbers.texts[i]!, BOLD);
    drawSlot(surface, valueSlot, value, palette.text);
    const middle = top + i * height + height / 2;
    const room = { x: box.x, width: box.width - value.width - gap, baseline: 0, size: area.label };
    const lines = captionLines(surface, room, counterCaption(name), 2);
    // Capitals centred on the row's middle, one line or two.
    const first = middle + area.label.max * 0.36 - ((lines.length - 1) * area.labelPitch) / 2;
    drawCaption(surface, { ...room, baseline: first }, lines, area.labelPitch, palette.muted);
    if (i > 0) surface.fill(new Path().rect(box.x, top + i * height, box.width, 1), solid(palette.border));
  });
}

export const pluginStats: PluginTemplate<PluginStatsLayout> = {
  key: "plugin-stats",
  kind: "plugin",
  layouts,
  draw(surface, layout, data, palette) {
    drawPanel(surface, palette, layout.radius);
    // Without the icon the text starts where the icon would have.
    const shift = shows(data, "icon") ? 0 : layout.name.x - layout.icon.x;
    const left = (slot: TextSlot): TextSlot => ({ ...slot, x: slot.x - shift, width: slot.width + shift });
    if (shows(data, "icon")) drawPluginIcon(surface, layout.icon, palette.well, palette.accent);
    textInSlot(surface, left(layout.name), stripFormatting(data.name), BOLD, palette.text);
    const versionSlot = left(layout.version);
    const version = shows(data, "version") ? textInSlot(surface, versionSlot, versionLabel(data.version), { face: "sans" }, palette.muted) : null;
    if (shows(data, "status")) {
      const used = version && version.width > 0 ? version.width + layout.dot * 3 : 0;
      const statusSlot = { ...left(layout.status), x: versionSlot.x + used, width: left(layout.status).width - used };
      // Inactive is not an error: a grey dot, not a red one.
      drawStatusWord(surface, statusSlot, data.active ? "Active" : "Inactive",
        data.active ? palette.status.online : palette.muted, data.active ? palette.statusText.online : palette.muted, layout.dot);
    }

    if (layout.divider) drawDivider(surface, layout.divider, palette);
    const counters = data.counters.slice(0, SLOTS);
    const style = data.numbers ?? "compact";
    const { box, label } = layout.counters;
    if (counters.length === 0) {
      // Said, not left blank: a record with no counters yet (or no record) is not a broken banner.
      const note = { x: box.x, width: box.width, baseline: box.y + box.height / 2 + label.max * 0.36, size: label, align: "center" as const };
      textInSlot(surface, note, "No counters pushed yet", CAPTION, palette.muted);
    } else if (layout.counters.arrangement === "columns") drawColumns(surface, layout.counters, counters, style, palette);
    else drawRows(surface, layout.counters, counters, style, palette);
  },
};
