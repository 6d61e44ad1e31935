// WCAG 2 contrast: relative luminance of sRGB colours and the ratio between
// two of them (1..21). Text needs 4.5:1 (AA), large text and shapes 3:1.
// readableOn moves a colour that falls short just far enough to pass.

import type { Color } from "../render/index.ts";
import { fromOklch, toLinear, toOklch } from "./color-space.ts";

export const TEXT_CONTRAST = 4.5;

function relativeLuminance(color: Color): number {
  return 0.2126 * toLinear(color.r) + 0.7152 * toLinear(color.g) + 0.0722 * toLinear(color.b);
}

export function contrastRatio(a: Color, b: Color): number {
  const la = relativeLuminance(a), lb = relativeLuminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** The contrast of `color` against the least contrasting of `backdrops` (a gradient's two ends). */
export function worstContrast(color: Color, backdrops: readonly Color[]): number {
  return Math.min(...backdrops.map((backdrop) => contrastRatio(color, backdrop)));
}

const BLACK: Color = { r: 0, g: 0, b: 0, a: 255 };
const WHITE: Color = { r: 255, g: 255, b: 255, a: 255 };

/** Steps of the lightness search: 2^-16 of the range, finer than one 8-bit level (about 2^-9 of it). */
const SEARCH_STEPS = 16;

/**
 * `color` as text on `backdrops`: unchanged when it holds `minimum` against
 * each of them; else the same hue (and as much of its chroma as sRGB allows)
 * made darker or lighter in OKLCH, towards black or white (whichever
 * contrasts more with the backdrops), by the least that reaches `minimum`.
 * When even black or white falls short, the lightness bound.
 */
export function readableOn(color: Color, backdrops: readonly Color[], minimum = TEXT_CONTRAST): Color {
  if (worstContrast(color, backdrops) >= minimum) return color;
  const lch = toOklch(color);
  const at = (l: number) => fromOklch({ ...lch, l }, color.a);
  const bound = worstContrast(BLACK, backdrops) >= worstContrast(WHITE, backdrops) ? 0 : 1;
  if (worstContrast(at(bound), backdrops) < minimum) return at(bound);
  // Passing lightnesses form one interval ending at the bound: bisect for its other end.
  let failing = lch.l, passing = bound;
  for (let i = 0; i < SEARCH_STEPS; i++) {
    const middle = (failing + passing) / 2;
    if (worstContrast(at(middle), backdrops) >= minimum) passing = middle;
    else failing = middle;
  }
  return at(passing);
}

/** `top` over an opaque `bottom` (straight alpha), as the eye sees it. */
export function over(top: Color, bottom: Color): Color {
  const a = top.a / 255;
  const mix = (t: number, b: number) => Math.round(t * a + b * (1 - a));
  return { r: mix(top.r, bottom.r), g: mix(top.g, bottom.g), b: mix(top.b, bottom.b), a: 255 };
}
