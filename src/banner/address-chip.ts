// The join address as a chip, the same in every server template: a rounded
// well, a copy mark, and the address in the text colour, so it reads as
// something to copy rather than as a line of the MOTD. Everything but the
// text's size follows the chip's height (the layout's box), so a chip looks
// the same in every template at every size. Templates give the room it may
// use; the chip is as wide as its text, which takes the largest size of its
// range that fits, else is cut with an ellipsis, or the chip is left out
// where `whole` asks for the address uncut (strips: a cut address is no use
// to type).

import { Path, shadowColor, solid, type Color } from "../render/index.ts";
import { fitText, type FaceName, type FittedText, type SizeRange } from "./fit-text.ts";
import { shadowOffset, type Box, type Surface } from "./surface.ts";
import type { Palette } from "./theme.ts";

/** Where a layout puts the address: the room (its height is the chip's) and how the chip sits in it. */
export interface AddressPlace {
  box: Box;
  size: SizeRange;
  /** The edge of the box the chip stands against. */
  align: "left" | "right";
  /** Draw nothing rather than cut the address with an ellipsis. */
  whole: boolean;
}

export interface AddressChipOptions {
  /** Pennant Pixel in classic; DejaVu Sans elsewhere. */
  face?: FaceName;
  /** The game's drop shadow under the text (classic on dark panels). */
  shadow?: boolean;
}

/** A chip fitted to its place, ready to draw (its box may still be moved). */
export interface AddressChip {
  /** The chip itself: as wide as its text needs, at the aligned edge of the place. */
  box: Box;
  fitted: FittedText;
  face: FaceName;
  shadow: boolean;
}

/** Cap height in em: DejaVu Sans's capitals, Pennant Pixel's seven rows of eight. */
const CAP_HEIGHT: Record<FaceName, number> = { sans: 0.73, pixel: 7 / 8 };

// Proportions of the chip, in its heights.
const PADDING = 0.3;
const MARK = 0.45;
const MARK_GAP = 0.25;
const RADIUS = 0.25;

/** CSS width of everything but the text: both paddings, the mark and its gap. */
const chrome = (height: number) => height * (2 * PADDING + MARK + MARK_GAP);

/** The chip of `address` in `place`; null when none is drawn (no address, no room, or `whole` and it does not fit). */
export function fitAddressChip(
  surface: Surface, place: AddressPlace, address: string | null | undefined, options: AddressChipOptions = {},
): AddressChip | null {
  if (!address) return null;
  const { box } = place;
  const face = options.face ?? "sans";
  const room = box.width - chrome(box.height);
  if (room <= 0) return null;
  const fitted = fitText(address, { face }, room, place.size, surface.scale, surface.caches.render);
  if (fitted.width === 0 || (place.whole && fitted.truncated)) return null;
  const width = fitted.width + chrome(box.height);
  const x = place.align === "right" ? box.x + box.width - width : box.x;
  return { box: { ...box, x, width }, fitted, face, shadow: options.shadow ?? false };
}

/**
 * The usual "copy" sign: a square outlined in `color` before the corner of
 * another, of which only what the front one does not hide shows (with a gap
 * of one line: the chip's well is translucent, so it is left out, not
 * painted over). Laid out in whole device pixels, so it stays sharp, its
 * two squares apart, down to 7 px.
 */
function drawCopyMark(surface: Surface, x: number, centerY: number, side: number, color: Color): void {
  const s = surface.scale;
  const full = Math.round(side * s), l = Math.max(1, Math.round(full / 9)), p = Math.round(full * 0.7), offset = full - p;
  const left = Math.round(x * s), top = Math.round((centerY - side / 2) * s);
  const rects: Array<[number, number, number, number]> = [
    // The back square: its top and left sides, and the ends of the others up to a line before the front one.
    [left, top, p, l], [left, top + l, l, p - l],
    [left + p - l, top + l, l, offset - 2 * l], [left + l, top + p - l, offset - 2 * l, l],
    // The front square, whole.
    [left + offset, top + offset, p, l], [left + offset, top + full - l, p, l],
    [left + offset, top + offset + l, l, p - 2 * l], [left + full - l, top + offset + l, l, p - 2 * l],
  ];
  const path = new Path();
  for (const [rx, ry, w, h] of rects) if (w > 0 && h > 0) path.rect(rx / s, ry / s, w / s, h / s);
  surface.fill(path, solid(color));
}

/**
 * Draws a fitted chip, its copy mark in `mark` (the accent: the thing to act
 * on; a template that does not offer `accent` passes a colour of its own).
 */
export function drawAddressChip(surface: Surface, chip: AddressChip, palette: Palette, mark: Color = palette.accent): void {
  const { box, fitted } = chip;
  const h = box.height, centerY = box.y + h / 2;
  surface.fill(new Path().roundRect(box.x, box.y, box.width, h, h * RADIUS), solid(palette.well));
  drawCopyMark(surface, box.x + h * PADDING, centerY, h * MARK, mark);
  // A whole device pixel for the baseline: the pixel face stays sharp.
  const baseline = Math.round((centerY + (fitted.size * CAP_HEIGHT[chip.face]) / 2) * surface.scale) / surface.scale;
  const left = box.x + box.width - h * PADDING - fitted.width;
  if (chip.shadow) {
    const offset = shadowOffset(fitted.size, surface.scale) / surface.scale;
    surface.text(fitted, left + offset, baseline + offset, shadowColor(palette.text));
  }
  surface.text(fitted, left, baseline, palette.text);
}
