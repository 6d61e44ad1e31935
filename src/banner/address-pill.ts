// The join address as something to copy: a rounded chip with a small
// "play" mark before the address, in the theme's well colour. Templates give
// it a text slot (left edge, the most width it may take, baseline, size
// range); the chip is as wide as its text needs, up to that width.

import { Path, solid, type Color } from "../render/index.ts";
import type { FittedText, TextFont } from "./fit-text.ts";
import { fitSlot, type TextSlot } from "./slots.ts";
import type { Box, Surface } from "./surface.ts";
import type { Palette } from "./theme.ts";

/** Slightly spaced regular sans: reads as a value to type, not as prose. */
const ADDRESS_FONT: TextFont = { face: "sans", letterSpacing: 0.2 };

// Proportions of the chip, in ems of the slot's largest text size.
const HEIGHT = 1.8;
const PADDING = 0.65;
const MARK = 0.62;
const MARK_GAP = 0.5;
/** Middle of the capitals above the baseline (DejaVu Sans: cap height 0.73 em). */
const CAP_MIDDLE = 0.365;

export interface FittedAddress {
  fitted: FittedText;
  /** CSS width of the whole chip; 0 when not even the mark fits. */
  width: number;
}

/** Room the chip takes besides its text: both paddings, the mark and its gap. */
function chrome(slot: TextSlot): number {
  const em = slot.size.max;
  return em * (2 * PADDING + MARK + MARK_GAP);
}

/**
 * The chip's box for a slot (its vertical extent depends only on the slot):
 * centred on the middle of the capitals of text on the slot's baseline.
 */
export function addressBox(slot: TextSlot, width: number): Box {
  const em = slot.size.max;
  const height = em * HEIGHT;
  const left = slot.align === "right" ? slot.x + slot.width - width : slot.align === "center" ? slot.x + (slot.width - width) / 2 : slot.x;
  return { x: left, y: slot.baseline - em * CAP_MIDDLE - height / 2, width, height };
}

/** The address fitted to a chip of at most `slot.width` (shrinking, then cut with an ellipsis, as any slot). */
export function fitAddress(surface: Surface, slot: TextSlot, address: string): FittedAddress {
  const room = slot.width - chrome(slot);
  if (room <= 0) return { fitted: fitSlot(surface, { ...slot, width: 0 }, "", ADDRESS_FONT), width: 0 };
  const fitted = fitSlot(surface, { ...slot, width: room }, address, ADDRESS_FONT);
  return { fitted, width: fitted.width === 0 ? 0 : fitted.width + chrome(slot) };
}

/**
 * Draws `address` as a chip in `slot` (aligned as the slot says), the mark in
 * `cue` (default: the palette's accent); returns the chip's box (width 0:
 * nothing drawn).
 */
export function drawAddress(surface: Surface, slot: TextSlot, address: string, palette: Palette, cue: Color = palette.accent): Box {
  const { fitted, width } = fitAddress(surface, slot, address);
  const box = addressBox(slot, width);
  if (width === 0) return box;
  const em = slot.size.max, middle = box.y + box.height / 2;
  surface.fill(new Path().roundRect(box.x, box.y, box.width, box.height, box.height / 2), solid(palette.well));
  // A small right-pointing triangle: the "play" mark, read as "join here".
  const markLeft = box.x + em * PADDING, half = (em * MARK) / 2;
  const mark = new Path().moveTo(markLeft, middle - half).lineTo(markLeft + em * MARK * 0.87, middle).lineTo(markLeft, middle + half).close();
  surface.fill(mark, solid(cue));
  surface.text(fitted, markLeft + em * (MARK + MARK_GAP), middle + fitted.size * CAP_MIDDLE, palette.text);
  return box;
}
