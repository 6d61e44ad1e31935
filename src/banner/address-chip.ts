// The join address as a chip: a small rounded well with a copy mark and the
// address in the text colour, so it reads as something to copy rather than
// as a line of the MOTD. Templates give the room it may use; the chip takes
// the largest size that fits, or none when `whole` asks for the address
// uncut (the strips, where it is drawn only where it fits). Its copy mark is
// in the accent colour.

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
  face?: FaceName;
  /** The game's drop shadow under the text (classic on dark panels). */
  shadow?: boolean;
}

/** Cap height in em: DejaVu Sans's capitals, Pennant Pixel's seven rows of eight. */
const CAP_HEIGHT: Record<FaceName, number> = { sans: 0.73, pixel: 7 / 8 };

interface Chip {
  fitted: FittedText;
  padding: number;
  /** The copy mark's side; the text starts this and a gap after the padding. */
  mark: number;
  width: number;
}

function fitChip(surface: Surface, place: AddressPlace, address: string, face: FaceName): Chip | null {
  const { box } = place;
  const padding = Math.round(box.height * 0.3), mark = Math.round(box.height * 0.45), gap = Math.round(box.height * 0.25);
  const fitted = fitText(address, { face }, box.width - 2 * padding - mark - gap, place.size, surface.scale, surface.caches.render);
  if (fitted.width === 0 || (place.whole && fitted.truncated)) return null;
  return { fitted, padding, mark, width: fitted.width + 2 * padding + mark + gap };
}

/** The CSS width the chip of `address` takes in `place`; 0 when none is drawn there. */
export function addressChipWidth(surface: Surface, place: AddressPlace, address: string | null | undefined, options: AddressChipOptions = {}): number {
  return address ? fitChip(surface, place, address, options.face ?? "sans")?.width ?? 0 : 0;
}

/** Two overlapping squares, the usual "copy" sign, outlined in `color` on whole device pixels (sharp at any scale). */
function drawCopyMark(surface: Surface, x: number, centerY: number, side: number, color: Color): void {
  const s = surface.scale, snap = (v: number) => Math.round(v * s) / s;
  const part = snap(side * 0.72), line = Math.max(1, Math.round((side / 9) * s)) / s;
  const left = snap(x), top = snap(centerY - side / 2), right = snap(x + side), bottom = snap(centerY + side / 2);
  const outline = new Path();
  for (const [ox, oy] of [[left, top], [right - part, bottom - part]] as const) {
    outline.rect(ox, oy, part, line).rect(ox, oy + part - line, part, line).rect(ox, oy, line, part).rect(ox + part - line, oy, line, part);
  }
  surface.fill(outline, solid(color));
}

/**
 * Draws `address` as a chip in `place`; returns the CSS width used (0:
 * nothing drawn: no address, or `whole` and it does not fit).
 */
export function drawAddressChip(
  surface: Surface, place: AddressPlace, address: string | null | undefined, palette: Palette, options: AddressChipOptions = {},
): number {
  const face = options.face ?? "sans";
  const chip = address ? fitChip(surface, place, address, face) : null;
  if (!chip) return 0;
  const { box } = place;
  const x = place.align === "right" ? box.x + box.width - chip.width : box.x;
  const centerY = box.y + box.height / 2;
  surface.fill(new Path().roundRect(x, box.y, chip.width, box.height, Math.min(4, box.height / 4)), solid(palette.well));
  // The accent marks it as the thing to act on.
  drawCopyMark(surface, x + chip.padding, centerY, chip.mark, palette.accent);
  // A whole device pixel for the baseline: the pixel face stays sharp.
  const baseline = Math.round((centerY + (chip.fitted.size * CAP_HEIGHT[face]) / 2) * surface.scale) / surface.scale;
  const left = x + chip.width - chip.padding - chip.fitted.width;
  if (options.shadow) {
    const offset = shadowOffset(chip.fitted.size, surface.scale) / surface.scale;
    surface.text(chip.fitted, left + offset, baseline + offset, shadowColor(palette.text));
  }
  surface.text(chip.fitted, left, baseline, palette.text);
  return chip.width;
}
