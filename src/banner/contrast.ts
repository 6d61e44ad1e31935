// WCAG 2 contrast: relative luminance of sRGB colours and the ratio between
// two of them (1..21). Text needs 4.5:1 (AA), large text and shapes 3:1.

import type { Color } from "../render/index.ts";

export const TEXT_CONTRAST = 4.5;

function channel(value: number): number {
  const c = value / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

export function relativeLuminance(color: Color): number {
  return 0.2126 * channel(color.r) + 0.7152 * channel(color.g) + 0.0722 * channel(color.b);
}

export function contrastRatio(a: Color, b: Color): number {
  const la = relativeLuminance(a), lb = relativeLuminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** `top` over an opaque `bottom` (straight alpha), as the eye sees it. */
export function over(top: Color, bottom: Color): Color {
  const a = top.a / 255;
  const mix = (t: number, b: number) => Math.round(t * a + b * (1 - a));
  return { r: mix(top.r, bottom.r), g: mix(top.g, bottom.g), b: mix(top.b, bottom.b), a: 255 };
}
