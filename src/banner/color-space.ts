// sRGB to OKLCH and back (Björn Ottosson's OKLab, 2020, in polar form).
// OKLab's lightness is perceptual, so moving only L changes how light a
// colour looks and keeps its hue: what readable MOTD colours need (contrast.ts).

import type { Color } from "../render/index.ts";

/** Lightness 0..1, chroma (0 for greys, about 0.37 at most in sRGB), hue in degrees 0..360. */
export interface Oklch {
  l: number;
  c: number;
  h: number;
}

/** An sRGB channel (0..255) as linear light (0..1). */
export function toLinear(value: number): number {
  const c = value / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

function fromLinear(value: number): number {
  const c = value <= 0.0031308 ? 12.92 * value : 1.055 * value ** (1 / 2.4) - 0.055;
  return c * 255;
}

export function toOklch(color: Color): Oklch {
  const r = toLinear(color.r), g = toLinear(color.g), b = toLinear(color.b);
  const l = Math.cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b);
  const m = Math.cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b);
  const s = Math.cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b);
  const L = 0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s;
  const A = 1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s;
  const B = 0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s;
  const h = (Math.atan2(B, A) * 180) / Math.PI;
  return { l: L, c: Math.hypot(A, B), h: h < 0 ? h + 360 : h };
}

/** Linear sRGB of an OKLCH colour; channels outside 0..1 mean it is outside sRGB. */
function linearOf({ l: L, c, h }: Oklch): [number, number, number] {
  const A = c * Math.cos((h * Math.PI) / 180), B = c * Math.sin((h * Math.PI) / 180);
  const l = (L + 0.3963377774 * A + 0.2158037573 * B) ** 3;
  const m = (L - 0.1055613458 * A - 0.0638541728 * B) ** 3;
  const s = (L - 0.0894841775 * A - 1.291485548 * B) ** 3;
  return [
    4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
    -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
    -0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s,
  ];
}

const GAMUT_EPSILON = 1e-6;
const inGamut = (rgb: readonly number[]) => rgb.every((v) => v >= -GAMUT_EPSILON && v <= 1 + GAMUT_EPSILON);

/**
 * The sRGB colour (8-bit, alpha `alpha`) nearest `lch` with its lightness
 * and hue: where sRGB cannot show that chroma at that lightness, the chroma
 * is lowered until it can (a dark yellow is an olive, less vivid).
 */
export function fromOklch(lch: Oklch, alpha = 255): Color {
  const l = Math.min(1, Math.max(0, lch.l));
  let rgb = linearOf({ ...lch, l });
  if (!inGamut(rgb)) {
    // Greys (chroma 0) are always in gamut: search the largest chroma that is (to 2^-14 of the chroma, below one 8-bit level).
    let inside = 0, outside = lch.c;
    for (let i = 0; i < 14; i++) {
      const c = (inside + outside) / 2;
      if (inGamut(linearOf({ l, c, h: lch.h }))) inside = c;
      else outside = c;
    }
    rgb = linearOf({ l, c: inside, h: lch.h });
  }
  const channel = (v: number) => Math.round(Math.min(255, Math.max(0, fromLinear(Math.min(1, Math.max(0, v))))));
  return { r: channel(rgb[0]), g: channel(rgb[1]), b: channel(rgb[2]), a: alpha };
}
