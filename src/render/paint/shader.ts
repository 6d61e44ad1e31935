// Paints compiled for one fill: a function that writes the premultiplied
// source colour of a horizontal run of device pixels, one Uint32 per pixel
// (packPixel byte order), straight into a pixmap or into a scratch row.
// Gradients are a 256-entry lookup table (256 steps keep a full-range
// two-stop ramp within half a level) indexed by t, and t is an affine
// function of the device position, so it advances by a constant per pixel.

import { div255 } from "../color.ts";
import { packPixel } from "../pixmap.ts";
import { compose, invert, type Transform } from "../transform.ts";
import type { GradientStop, Paint } from "./paint.ts";

/** Writes `count` premultiplied pixels for device row y, starting at column x, into out[offset..]. */
export type SpanShader = (x: number, y: number, count: number, out: Int32Array, offset: number) => void;

export interface CompiledPaint {
  shade: SpanShader;
  /** Alpha of every pixel is 255: lets the compositor store fully covered pixels outright. */
  opaque: boolean;
}

const LUT_SIZE = 256;
/** 255 in 16.16 fixed point. */
const LAST_INDEX = 255 * 65536;

/**
 * Tables by their paint's stops. A gradient drawn again with the same stops
 * (a badge segment's colour under its style's overlay) builds its table once;
 * entries go with their stops. Paints are values: stops are not changed after
 * a paint is made.
 */
const tables = new WeakMap<readonly GradientStop[], Int32Array>();

function tableOf(stops: readonly GradientStop[]): Int32Array {
  let table = tables.get(stops);
  if (!table) {
    table = gradientTable(stops);
    tables.set(stops, table);
  }
  return table;
}

/** Premultiplied colours at t = i/255, interpolated between premultiplied stops (padded beyond the ends). */
function gradientTable(stops: readonly GradientStop[]): Int32Array {
  const table = new Int32Array(LUT_SIZE);
  if (stops.length === 0) return table;
  const sorted = stops.length === 1 ? [stops[0]!, stops[0]!] : [...stops].sort((p, q) => p.offset - q.offset);
  let start = 0;
  // Each pair of neighbouring stops fills the entries between their offsets.
  for (let k = 0; k < sorted.length; k++) {
    const from = sorted[k]!, to = sorted[Math.min(k + 1, sorted.length - 1)]!;
    const end = k === sorted.length - 1 ? LUT_SIZE : Math.max(start, Math.min(LUT_SIZE, Math.ceil(clamp01(to.offset) * 255)));
    const f0 = clamp01(from.offset) * 255, span = (clamp01(to.offset) - clamp01(from.offset)) * 255;
    const fa = from.color.a, ta = to.color.a;
    const fr = from.color.r * fa, fg = from.color.g * fa, fb = from.color.b * fa;
    const tr = to.color.r * ta, tg = to.color.g * ta, tb = to.color.b * ta;
    for (let i = start; i < end; i++) {
      const f = span > 0 ? clamp01((i - f0) / span) : i < f0 ? 0 : 1;
      table[i] = packPixel(
        Math.round((fr + (tr - fr) * f) / 255),
        Math.round((fg + (tg - fg) * f) / 255),
        Math.round((fb + (tb - fb) * f) / 255),
        Math.round(fa + (ta - fa) * f),
      );
    }
    start = end;
  }
  return table;
}

function clamp01(v: number): number {
  return v <= 0 ? 0 : v >= 1 ? 1 : v;
}

function solidShader(pixel: number): SpanShader {
  return (_x, _y, count, out, offset) => out.fill(pixel, offset, offset + count);
}

/** Table index of t, padded: 0 before the start, 255 past the end. */
function entry(t: number): number {
  return t <= 0 ? 0 : t >= 1 ? 255 : (t * 255 + 0.5) | 0;
}

function stopsOpaque(stops: readonly GradientStop[]): boolean {
  return stops.length > 0 && stops.every((stop) => stop.color.a === 255);
}

/** Compiles `paint` as seen through `transform` (user space -> device pixels). */
export function compilePaint(paint: Paint, transform: Transform): CompiledPaint {
  if (paint.type === "solid") {
    const { r, g, b, a } = paint.color;
    return { shade: solidShader(packPixel(div255(r * a), div255(g * a), div255(b * a), a)), opaque: a === 255 };
  }
  const table = tableOf(paint.stops);
  const opaque = stopsOpaque(paint.stops);
  // Device pixel centre -> user space; a degenerate transform paints the first stop.
  const inverse = invert(transform);
  if (!inverse) return { shade: solidShader(table[0]!), opaque };

  if (paint.type === "linear") {
    const dx = paint.x1 - paint.x0;
    const dy = paint.y1 - paint.y0;
    const lengthSquared = dx * dx + dy * dy || 1;
    // t(device) = ((u - x0) dx + (v - y0) dy) / |d|^2 with (u, v) = inverse(device): affine in device x and y.
    const toT = compose(inverse, { a: dx / lengthSquared, b: 0, c: dy / lengthSquared, d: 0, e: -(paint.x0 * dx + paint.y0 * dy) / lengthSquared, f: 0 });
    const step = Math.round(toT.a * 255 * 65536);
    return {
      opaque,
      shade: (x, y, count, out, offset) => {
        const t = toT.a * (x + 0.5) + toT.c * (y + 0.5) + toT.e;
        // The table index in 16.16 fixed point, stepped per pixel; compared
        // before shifting, as a shift would wrap values past 2^31.
        let index = Math.round((t * 255 + 0.5) * 65536);
        const end = offset + count;
        // Vertical gradients (badges, most banners) are one colour along a row.
        if (step === 0) {
          const pixel = table[index < 0 ? 0 : index >= LAST_INDEX ? 255 : index >> 16]!;
          for (let i = offset; i < end; i++) out[i] = pixel;
          return;
        }
        for (let i = offset; i < end; i++, index += step) {
          out[i] = table[index < 0 ? 0 : index >= LAST_INDEX ? 255 : index >> 16]!;
        }
      },
    };
  }
  const radius = paint.r > 0 ? paint.r : 1e-9;
  // (u - cx, v - cy) / r as an affine function of the device position.
  const toUnit = compose(inverse, { a: 1 / radius, b: 0, c: 0, d: 1 / radius, e: -paint.cx / radius, f: -paint.cy / radius });
  return {
    opaque,
    shade: (x, y, count, out, offset) => {
      let u = toUnit.a * (x + 0.5) + toUnit.c * (y + 0.5) + toUnit.e;
      let v = toUnit.b * (x + 0.5) + toUnit.d * (y + 0.5) + toUnit.f;
      for (let i = offset, end = offset + count; i < end; i++, u += toUnit.a, v += toUnit.b) out[i] = table[entry(Math.sqrt(u * u + v * v))]!;
    },
  };
}
