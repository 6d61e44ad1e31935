// A text slot of a layout: the box a text may use (left edge, width,
// baseline) and its size range. Fitting and drawing through a slot is what
// keeps every text inside its box.

import { parseHexColor, type Color, type StyledRun } from "../render/index.ts";
import {
  fitBlock, fitFormatted, fitText, type FaceName, type FittedBlock, type FittedFormatted, type FittedText, type SizeRange,
  type TextBlock, type TextFont,
} from "./fit.ts";
import { needsHalo, type Align, type FormattedStyle, type Surface } from "./surface.ts";

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

/**
 * CSS pixels that formatted text may ink past its advance: the one-pixel
 * outline of low-contrast runs. (The game's shadow, one font pixel, falls
 * within the pixel face's one-pixel spacing after every glyph.)
 */
function inkOverhang(lines: ReadonlyArray<readonly StyledRun[]>, style: FormattedStyle): number {
  return lines.some((runs) => runs.some((run) => needsHalo(run.color ? parseHexColor(run.color)! : style.defaultColor, style))) ? 1 : 0;
}

/** Fits and draws one formatted line in its slot. */
export function formattedInSlot(
  surface: Surface, slot: TextSlot, runs: readonly StyledRun[], face: FaceName, style: FormattedStyle,
): FittedFormatted {
  const inner = { ...slot, width: slot.width - inkOverhang([runs], style) };
  const fitted = fitFormatted(runs, face, inner.width, inner.size, surface.scale);
  surface.formatted(fitted, anchor(inner), inner.baseline, style, inner.align);
  return fitted;
}

/** Fits and draws MOTD lines as a block of rows; returns the rows drawn. */
export function formattedBlock(
  surface: Surface, block: TextBlock, lines: ReadonlyArray<readonly StyledRun[]>, face: FaceName, style: FormattedStyle,
): FittedBlock {
  const fitted = fitBlock(lines, face, { ...block, width: block.width - inkOverhang(lines, style) }, surface.scale);
  fitted.rows.forEach((row, i) => surface.formatted(row, block.x, block.baseline + i * fitted.size * block.lineHeight, style));
  return fitted;
}
