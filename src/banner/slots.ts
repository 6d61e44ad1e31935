// A text slot of a layout: the box a text may use (left edge, width,
// baseline) and its size range. Fitting and drawing through a slot is what
// keeps every text inside its box.

import type { Color, StyledRun } from "../render/index.ts";
import {
  fitBlock, fitFormatted, fitText, type FaceName, type FittedBlock, type FittedFormatted, type FittedText, type SizeRange,
  type TextBlock, type TextFont,
} from "./fit.ts";
import type { Align, FormattedStyle, Surface } from "./surface.ts";

export interface TextSlot {
  /** Left edge of the box. */
  x: number;
  width: number;
  baseline: number;
  size: SizeRange;
  /** Where the text sits in its box; default left. */
  align?: Align;
}

/** The pen position for `align` in the box. */
function anchor(slot: TextSlot): number {
  const align = slot.align ?? "left";
  return align === "left" ? slot.x : align === "right" ? slot.x + slot.width : slot.x + slot.width / 2;
}

export function fitSlot(surface: Surface, slot: TextSlot, text: string, font: TextFont): FittedText {
  return fitText(text, font, slot.width, slot.size, surface.scale);
}

export function drawSlot(surface: Surface, slot: TextSlot, fitted: FittedText, color: Color): void {
  surface.text(fitted, anchor(slot), slot.baseline, color, slot.align);
}

/** Fits and draws plain text in its slot; returns what was drawn (for placing neighbours). */
export function textInSlot(surface: Surface, slot: TextSlot, text: string, font: TextFont, color: Color): FittedText {
  const fitted = fitSlot(surface, slot, text, font);
  drawSlot(surface, slot, fitted, color);
  return fitted;
}

/** Fits and draws one formatted line in its slot. */
export function formattedInSlot(
  surface: Surface, slot: TextSlot, runs: readonly StyledRun[], face: FaceName, style: FormattedStyle,
): FittedFormatted {
  const fitted = fitFormatted(runs, face, slot.width, slot.size, surface.scale);
  surface.formatted(fitted, anchor(slot), slot.baseline, style, slot.align);
  return fitted;
}

/** Fits and draws MOTD lines as a block of rows; returns the rows drawn. */
export function formattedBlock(
  surface: Surface, block: TextBlock, lines: ReadonlyArray<readonly StyledRun[]>, face: FaceName, style: FormattedStyle,
): FittedBlock {
  const fitted = fitBlock(lines, face, block, surface.scale);
  fitted.rows.forEach((row, i) => surface.formatted(row, block.x, block.baseline + i * fitted.size * block.lineHeight, style));
  return fitted;
}
