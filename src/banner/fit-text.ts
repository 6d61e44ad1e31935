// Text fitting: a line gets the largest size in its range that fits its
// width; at the smallest size it is cut with an ellipsis. Measured in device
// pixels (the size times the drawing scale), so what is checked is exactly
// what is drawn.

import {
  ellipsize, layoutFormatted, layoutText, NO_CACHES, pixelFamily, sansFamily, type FontFamily, type FontStyle, type FormattedLine,
  type RenderContext, type TextLine,
} from "../render/index.ts";
import type { StyledRun } from "../minecraft/format.ts";
import { wrapRuns } from "./wrap.ts";

export type FaceName = "sans" | "pixel";

export interface TextFont {
  face: FaceName;
  bold?: boolean;
  /** Extra CSS pixels between characters. */
  letterSpacing?: number;
}

/** CSS pixel sizes a text may take, largest first; `step` defaults to half a pixel. */
export interface SizeRange {
  max: number;
  min: number;
  /** Pixel faces stay sharp only at multiples of their 8 px em: layouts give 8 (or 4 when drawn at 2x). */
  step?: number;
}

export interface FittedText {
  /** Laid out in device pixels. */
  line: TextLine;
  /** The CSS size chosen. */
  size: number;
  /** CSS pixels. */
  width: number;
  /** Cut with an ellipsis: it did not fit even at the smallest size. */
  truncated: boolean;
}

export interface FittedFormatted {
  line: FormattedLine;
  size: number;
  width: number;
}

export function familyOf(face: FaceName): FontFamily {
  return face === "pixel" ? pixelFamily() : sansFamily();
}

function deviceStyle(font: TextFont, size: number, scale: number): FontStyle {
  return { family: familyOf(font.face), size: size * scale, bold: font.bold, letterSpacing: (font.letterSpacing ?? 0) * scale };
}

/** Candidate sizes, largest first. */
function sizesOf(range: SizeRange): number[] {
  const step = range.step ?? 0.5;
  const sizes: number[] = [];
  for (let size = range.max; size >= range.min - 1e-9; size -= step) sizes.push(size);
  return sizes.length > 0 ? sizes : [range.min];
}

/**
 * The largest size whose width (from `measure`, device pixels) fits; the
 * smallest when none does. Starts at the size a linear estimate predicts,
 * so a long text costs a few layouts rather than one per step.
 */
function largestFitting(range: SizeRange, room: number, measure: (size: number) => number): { size: number; fits: boolean } {
  const sizes = sizesOf(range);
  const widest = measure(sizes[0]!);
  if (widest <= room) return { size: sizes[0]!, fits: true };
  const estimate = (sizes[0]! * room) / widest;
  let index = sizes.findIndex((size) => size <= estimate + 1e-9);
  if (index < 0) return { size: sizes.at(-1)!, fits: false };
  for (; index < sizes.length; index++) if (measure(sizes[index]!) <= room) return { size: sizes[index]!, fits: true };
  return { size: sizes.at(-1)!, fits: false };
}

/** `text` in `font` within `maxWidth` CSS pixels at `scale` device pixels per CSS pixel; `render` keeps what shaping finds. */
export function fitText(
  text: string, font: TextFont, maxWidth: number, range: SizeRange, scale: number, render: RenderContext = NO_CACHES,
): FittedText {
  const room = Math.max(0, maxWidth) * scale;
  const { size, fits } = largestFitting(range, room, (s) => layoutText(text, deviceStyle(font, s, scale), render).width);
  const style = deviceStyle(font, size, scale);
  const line = layoutText(fits ? text : ellipsize(text, style, room, render), style, render);
  return { line, size, width: line.width / scale, truncated: !fits };
}

/** Formatted runs (one line) fitted the same way; layoutFormatted cuts them with an ellipsis at the smallest size. */
export function fitFormatted(
  runs: readonly StyledRun[], face: FaceName, maxWidth: number, range: SizeRange, scale: number, render: RenderContext = NO_CACHES,
): FittedFormatted {
  const room = Math.max(0, maxWidth) * scale;
  const family = familyOf(face);
  const { size } = largestFitting(range, room, (s) => layoutFormatted(runs, family, s * scale, Infinity, render).width);
  const line = layoutFormatted(runs, family, size * scale, room, render);
  return { line, size, width: line.width / scale };
}

/** A column of formatted lines: a MOTD drawn over one or more rows. */
export interface TextBlock {
  x: number;
  width: number;
  /** Baseline of the first row. */
  baseline: number;
  /** Row pitch in em: rows sit `size * lineHeight` apart. */
  lineHeight: number;
  size: SizeRange;
  /** Rows each source line may wrap onto (1: no wrapping). */
  wrap: number;
}

export interface FittedBlock {
  size: number;
  rows: FittedFormatted[];
}

/**
 * Source lines (empty ones dropped) wrapped and fitted together: the largest
 * size at which every line fits its rows; at the smallest size rows are cut
 * with an ellipsis. All rows share one size, as the game draws its MOTD.
 */
export function fitBlock(
  lines: ReadonlyArray<readonly StyledRun[]>, face: FaceName, block: TextBlock, scale: number, render: RenderContext = NO_CACHES,
): FittedBlock {
  const room = Math.max(0, block.width) * scale;
  const family = familyOf(face);
  const present = lines.filter((runs) => runs.some((run) => run.text !== ""));
  const rowsAt = (size: number) => {
    const measure = (runs: readonly StyledRun[]) => layoutFormatted(runs, family, size * scale, Infinity, render).width;
    return present.flatMap((runs) => (block.wrap > 1 ? wrapRuns(runs, room, block.wrap, measure) : [runs]));
  };
  const sizes = sizesOf(block.size);
  let chosen = sizes.at(-1)!;
  for (const size of sizes) {
    const rows = rowsAt(size);
    if (rows.every((runs) => layoutFormatted(runs, family, size * scale, Infinity, render).width <= room)) {
      chosen = size;
      break;
    }
  }
  const rows = rowsAt(chosen).map((runs) => {
    const line = layoutFormatted(runs, family, chosen * scale, room, render);
    return { line, size: chosen, width: line.width / scale };
  });
  return { size: chosen, rows };
}
