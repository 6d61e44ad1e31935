// A text slot of a layout: the box a text may use (left edge, width,
// baseline) and its size range. Fitting and drawing through a slot is what
// keeps every text inside its box.

import type { StyledRun } from "../minecraft/format.ts";
import type { Color } from "../render/index.ts";
import {
  fitBlock, fitFormatted, fitText, type FaceName, type FittedBlock, type FittedFormatted, type FittedText, type SizeRange,
  type TextBlock, type TextFont,
} from "./fit-text.ts";
import { shadowOffset, type Align, type FormattedStyle, type Surface } from "./surface.ts";

/** The bold sans face: names, counts and figures in every template. */
export const SANS_BOLD = { face: "sans", bold: true } as const;

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
  return fitText(text, font, slot.width, slot.size, surface.scale, surface.caches.render);
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

/**
 * CSS pixels formatted text may ink past its advance: the game's shadow, one
 * font pixel right of the last glyph (the ellipsis and fallback glyphs have no
 * spacing after them to hold it); at the range's largest size, the widest.
 */
function inkOverhang(style: FormattedStyle, range: SizeRange, scale: number): number {
  return style.shadow ? shadowOffset(range.max, scale) / scale : 0;
}

/** Fits and draws one formatted line in its slot. */
export function formattedInSlot(
  surface: Surface, slot: TextSlot, runs: readonly StyledRun[], face: FaceName, style: FormattedStyle,
): FittedFormatted {
  const inner = { ...slot, width: slot.width - inkOverhang(style, slot.size, surface.scale) };
  const fitted = fitFormatted(runs, face, inner.width, inner.size, surface.scale, surface.caches.render);
  surface.formatted(fitted, anchor(inner), inner.baseline, style, inner.align);
  return fitted;
}

/** Fits and draws MOTD lines as a block of rows; returns the rows drawn. */
export function formattedBlock(
  surface: Surface, block: TextBlock, lines: ReadonlyArray<readonly StyledRun[]>, face: FaceName, style: FormattedStyle,
): FittedBlock {
  const inner = { ...block, width: block.width - inkOverhang(style, block.size, surface.scale) };
  const fitted = fitBlock(lines, face, inner, surface.scale, surface.caches.render);
  fitted.rows.forEach((row, i) => surface.formatted(row, block.x, block.baseline + i * fitted.size * block.lineHeight, style));
  return fitted;
}
