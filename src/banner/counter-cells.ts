// Counters as the stats templates draw them (plugin-stats, resource): each a
// value over a caption, in columns on the strips and the header or as the
// rows of a list in the box. Every number of a banner in one style and one
// size; captions shrink, then wrap onto a second line, before anything is cut.

import { Path, solid, type Color } from "../render/index.ts";
import { compactNumber } from "../compact-number.ts";
import type { SizeRange } from "./fit-text.ts";
import { UNKNOWN } from "./fitted-counts.ts";
import type { NumberStyle } from "./model.ts";
import { THIN_SPACE } from "./numbers.ts";
import { drawSlot, fitSlot, textInSlot, type TextSlot, SANS_BOLD } from "./slots.ts";
import type { Box, Surface } from "./surface.ts";
import type { Palette } from "./theme.ts";

/** Where the counters go and how big they are drawn. */
export interface CounterArea {
  box: Box;
  /**
   * columns: side by side, the number over its caption, each a third of the
   * box wide and the group at its right end; rows: a list, the caption at the
   * left and the number at the right of each row of the box's height.
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

/** One counter: its value as each number style writes it (text that is no number: the same in both), and its caption. */
export interface CounterCell {
  value: Readonly<Record<NumberStyle, string>>;
  caption: string;
  /** Drawn before the value in the accent: a star before a rating, an arrow into a tray before downloads. */
  mark?: "star" | "download";
  /**
   * Text that is no figure (a version): fitted on its own, never larger than
   * the figures, so a long one is cut rather than shrinking every number.
   */
  text?: true;
}

/** Every digit, groups of three split by a thin space, at most two decimals (a rating of 4.75). */
const FULL = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });

/** A counter as drawn: "—" for a counter the source lacks; compact from 1000 on (as badges), else every digit. */
export function counterText(value: number | null, style: NumberStyle): string {
  if (value === null) return UNKNOWN;
  if (style === "compact" && Math.abs(value) >= 1000) return compactNumber(value);
  return FULL.format(value + 0).replaceAll(",", THIN_SPACE);
}

/** A number as a cell: written in either style, under `caption`. */
export function numberCell(value: number | null, caption: string): CounterCell {
  return { value: { compact: counterText(value, "compact"), full: counterText(value, "full") }, caption };
}

/** The same text in either number style. */
export const anyStyle = (text: string): Record<NumberStyle, string> => ({ compact: text, full: text });

const CAPTION = { face: "sans" } as const;

/** A mark's width beside a value of `size`, and the gap after it, in em. */
const STAR_EM = 0.78;
const STAR_GAP_EM = 0.22;

/**
 * The values' sizes: the figures' one size, the largest at which every
 * figure fits its slot (a marked one less its mark), and each text cell's
 * own, no larger. Full numbers that do not fit even at the smallest are all
 * written compact instead, so a banner never mixes the two styles.
 */
function valuesOf(surface: Surface, slots: readonly TextSlot[], cells: readonly CounterCell[], style: NumberStyle): { texts: string[]; sizes: number[] } {
  const attempt = (s: NumberStyle) => {
    const texts = cells.map((cell) => cell.value[s]);
    const fitted = texts.map((text, i) => fitSlot(surface, withoutMark(slots[i]!, cells[i]!), text, SANS_BOLD));
    const figures = fitted.filter((_, i) => !cells[i]!.text);
    const size = figures.length > 0 ? Math.min(...figures.map((f) => f.size)) : Infinity;
    const sizes = fitted.map((f, i) => (cells[i]!.text ? Math.min(f.size, size) : size));
    return { texts, sizes, cut: figures.some((f) => f.truncated) };
  };
  const wanted = attempt(style);
  return wanted.cut && style === "full" ? attempt("compact") : wanted;
}

/** The slot a marked value's text has: its mark takes room at the largest size. */
function withoutMark(slot: TextSlot, cell: CounterCell): TextSlot {
  return cell.mark ? { ...slot, width: slot.width - slot.size.max * (STAR_EM + STAR_GAP_EM) } : slot;
}

/** A five-pointed star `size` wide, centred on the capitals of a value on `baseline`, from `x`. */
function drawStar(surface: Surface, x: number, baseline: number, size: number, color: Color): void {
  const r = size / 2, cx = x + r, cy = baseline - size * 0.36 - size * 0.02;
  const star = new Path();
  for (let i = 0; i < 10; i++) {
    const radius = i % 2 === 0 ? r : r * 0.42, angle = -Math.PI / 2 + (i * Math.PI) / 5;
    const px = cx + radius * Math.cos(angle), py = cy + radius * Math.sin(angle);
    if (i === 0) star.moveTo(px, py);
    else star.lineTo(px, py);
  }
  surface.fill(star.close(), solid(color));
}

/** An arrow down into a tray, `size` wide, standing on `baseline` as the capitals beside it do, from `x`. */
function drawDownload(surface: Surface, x: number, baseline: number, size: number, color: Color): void {
  const top = baseline - size * 0.92, stem = size * 0.16, mid = x + size / 2, tip = baseline - size * 0.3;
  const arrow = new Path()
    .moveTo(mid - stem / 2, top).lineTo(mid + stem / 2, top).lineTo(mid + stem / 2, tip - size * 0.3)
    .lineTo(x + size * 0.82, tip - size * 0.3).lineTo(mid, tip).lineTo(x + size * 0.18, tip - size * 0.3)
    .lineTo(mid - stem / 2, tip - size * 0.3).close();
  surface.fill(arrow, solid(color));
  surface.fill(new Path().roundRect(x + size * 0.06, baseline - size * 0.16, size * 0.88, size * 0.16, size * 0.04), solid(color));
}

const MARKS = { star: drawStar, download: drawDownload } as const;

/** Draws a cell's value in `slot` at `size`, its mark before it; the group keeps the slot's alignment. */
function drawValue(surface: Surface, slot: TextSlot, cell: CounterCell, text: string, size: number, palette: Palette): void {
  const sized = { ...slot, size: { max: size, min: slot.size.min } };
  if (!cell.mark) {
    textInSlot(surface, sized, text, SANS_BOLD, palette.text);
    return;
  }
  const fitted = fitSlot(surface, withoutMark(sized, cell), text, SANS_BOLD);
  const star = fitted.size * STAR_EM, gap = fitted.size * STAR_GAP_EM, group = star + gap + fitted.width;
  const align = slot.align ?? "left";
  const left = align === "left" ? slot.x : align === "right" ? slot.x + slot.width - group : slot.x + (slot.width - group) / 2;
  MARKS[cell.mark](surface, left, slot.baseline, star, palette.accent);
  surface.text(fitted, left + star + gap, slot.baseline, palette.text);
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

/** Columns a third of the box wide or rows a third of its height, unless the area says more. */
function columnsOf(cells: readonly CounterCell[], slots: number): number {
  return Math.max(slots, cells.length);
}

function drawColumns(surface: Surface, area: CounterArea, cells: readonly CounterCell[], style: NumberStyle, palette: Palette, slots: number): void {
  const { box } = area;
  const count = columnsOf(cells, slots);
  const width = box.width / count;
  // The group sits at the right end: one or two counters stay next to the edge, not adrift in the middle.
  const boxes = cells.map((_, i) => ({ x: box.x + (count - cells.length + i) * width, width }));
  // Room kept beside the hairlines: wider for the numbers, whose bold digits would touch them.
  const slot = (cell: { x: number; width: number }, baseline: number, size: SizeRange, pad = 4): TextSlot =>
    ({ x: cell.x + pad, width: cell.width - 2 * pad, baseline, size, align: "center" });
  const captions = cells.map((cell, i) => captionLines(surface, slot(boxes[i]!, 0, area.label), cell.caption, 2));
  // Every cell's number on one line: lifted by half a pitch when some caption takes two.
  const lift = captions.some((lines) => lines.length > 1) ? area.labelPitch / 2 : 0;
  const valueSlots = boxes.map((cell) => slot(cell, box.y + area.valueBaseline - lift, area.value, 8));
  const values = valuesOf(surface, valueSlots, cells, style);
  cells.forEach((cell, i) => {
    drawValue(surface, valueSlots[i]!, cell, values.texts[i]!, values.sizes[i]!, palette);
    drawCaption(surface, slot(boxes[i]!, box.y + area.labelBaseline - lift, area.label), captions[i]!, area.labelPitch, palette.muted);
    if (i > 0) {
      const inner = box.height * 0.26;
      surface.fill(new Path().rect(boxes[i]!.x, box.y + inner, 1, box.height - 2 * inner), solid(palette.border));
    }
  });
}

function drawRows(surface: Surface, area: CounterArea, cells: readonly CounterCell[], style: NumberStyle, palette: Palette, slots: number): void {
  const { box } = area;
  const count = columnsOf(cells, slots);
  const height = box.height / count;
  // Fewer counters sit in the middle of the box, not at its top over empty rows.
  const top = box.y + ((count - cells.length) * height) / 2;
  const gap = 12;
  // The numbers first: the captions take the room they leave.
  const valueSlots = cells.map((_, i) => ({
    x: box.x + box.width / 3, width: (box.width * 2) / 3, baseline: top + i * height + height / 2 + area.value.max * 0.36,
    size: area.value, align: "right" as const,
  }));
  const values = valuesOf(surface, valueSlots, cells, style);
  cells.forEach((cell, i) => {
    const valueSlot = { ...valueSlots[i]!, size: { max: values.sizes[i]!, min: area.value.min } };
    const value = fitSlot(surface, withoutMark(valueSlot, cell), values.texts[i]!, SANS_BOLD);
    const used = value.width + (cell.mark ? value.size * (STAR_EM + STAR_GAP_EM) : 0);
    if (cell.mark) drawValue(surface, valueSlot, cell, values.texts[i]!, values.sizes[i]!, palette);
    else drawSlot(surface, valueSlot, value, palette.text);
    const middle = top + i * height + height / 2;
    const room = { x: box.x, width: box.width - used - gap, baseline: 0, size: area.label };
    const lines = captionLines(surface, room, cell.caption, 2);
    // Capitals centred on the row's middle, one line or two.
    const first = middle + area.label.max * 0.36 - ((lines.length - 1) * area.labelPitch) / 2;
    drawCaption(surface, { ...room, baseline: first }, lines, area.labelPitch, palette.muted);
    if (i > 0) surface.fill(new Path().rect(box.x, top + i * height, box.width, 1), solid(palette.border));
  });
}

/**
 * Draws `cells` in `area` (at most `slots` share it: columns or rows of
 * that many, more when given more); `note` is said in their place when there
 * are none, so an empty record is not a broken banner.
 */
export function drawCounters(
  surface: Surface, area: CounterArea, cells: readonly CounterCell[], style: NumberStyle, palette: Palette, slots: number, note: string,
): void {
  const { box, label } = area;
  if (cells.length === 0) {
    const slot = { x: box.x, width: box.width, baseline: box.y + box.height / 2 + label.max * 0.36, size: label, align: "center" as const };
    textInSlot(surface, slot, note, CAPTION, palette.muted);
  } else if (area.arrangement === "columns") drawColumns(surface, area, cells, style, palette, slots);
  else drawRows(surface, area, cells, style, palette, slots);
}
