// Paints compiled for one fill: a function that writes the premultiplied
// source colour of a horizontal run of device pixels into a byte buffer.
// Gradients are a 256-entry lookup table (256 steps keep a full-range
// two-stop ramp within half a level) indexed by t, and t is an affine
// function of the device position, so it advances by a constant per pixel.

import { div255 } from "../color.ts";
import { invert, then, type Transform } from "../transform.ts";
import type { GradientStop, Paint } from "./paint.ts";

/** Writes `count` premultiplied RGBA pixels for device row y starting at x into `out` (bytes). */
export type SpanShader = (x: number, y: number, count: number, out: Uint8Array) => void;

export interface CompiledPaint {
  shade: SpanShader;
  /** Alpha of every pixel is 255: lets the compositor store fully covered pixels outright. */
  opaque: boolean;
  /** Every pixel is the same: callers may shade one pixel and reuse it. */
  uniform: boolean;
}

const LUT_SIZE = 256;

/** Premultiplied colours at t = i/255, interpolated between premultiplied stops. */
function gradientTable(stops: readonly GradientStop[]): Uint8Array {
  const sorted = [...stops].sort((p, q) => p.offset - q.offset);
  const table = new Uint8Array(LUT_SIZE * 4);
  if (sorted.length === 0) return table;
  const premultiplied = sorted.map(({ offset, color: { r, g, b, a } }) => ({
    offset: Math.min(1, Math.max(0, offset)),
    rgba: [(r * a) / 255, (g * a) / 255, (b * a) / 255, a],
  }));
  let k = 0;
  for (let i = 0; i < LUT_SIZE; i++) {
    const t = i / (LUT_SIZE - 1);
    while (k < premultiplied.length - 1 && premultiplied[k + 1]!.offset <= t) k++;
    const from = premultiplied[k]!;
    const to = premultiplied[Math.min(k + 1, premultiplied.length - 1)]!;
    const span = to.offset - from.offset;
    // Before the first stop and after the last, the end colours extend (pad).
    const f = span > 0 ? Math.min(1, Math.max(0, (t - from.offset) / span)) : t < from.offset ? 0 : 1;
    const mix = t < from.offset ? from.rgba : from.rgba.map((v, c) => v + (to.rgba[c]! - v) * f);
    for (let c = 0; c < 4; c++) table[i * 4 + c] = Math.round(mix[c]!);
  }
  return table;
}

function solidShader(r: number, g: number, b: number, a: number): SpanShader {
  return (_x, _y, count, out) => {
    for (let i = 0, end = count * 4; i < end; i += 4) {
      out[i] = r;
      out[i + 1] = g;
      out[i + 2] = b;
      out[i + 3] = a;
    }
  };
}

function copyEntry(table: Uint8Array, t: number, out: Uint8Array, o: number): void {
  const index = (t <= 0 ? 0 : t >= 1 ? 255 : (t * 255 + 0.5) | 0) << 2;
  out[o] = table[index]!;
  out[o + 1] = table[index + 1]!;
  out[o + 2] = table[index + 2]!;
  out[o + 3] = table[index + 3]!;
}

/** Compiles `paint` as seen through `transform` (user space -> device pixels). */
export function compilePaint(paint: Paint, transform: Transform): CompiledPaint {
  if (paint.type === "solid") {
    const { r, g, b, a } = paint.color;
    return { shade: solidShader(div255(r * a), div255(g * a), div255(b * a), a), opaque: a === 255, uniform: true };
  }
  const table = gradientTable(paint.stops);
  let opaque = true;
  for (let i = 3; i < table.length; i += 4) if (table[i] !== 255) opaque = false;
  // Device pixel centre -> user space; a degenerate transform paints the first stop.
  const inverse = invert(transform);
  if (!inverse) return { shade: solidShader(table[0]!, table[1]!, table[2]!, table[3]!), opaque, uniform: true };

  if (paint.type === "linear") {
    const dx = paint.x1 - paint.x0;
    const dy = paint.y1 - paint.y0;
    const lengthSquared = dx * dx + dy * dy || 1;
    // t(device) = ((u - x0) dx + (v - y0) dy) / |d|^2 with (u, v) = inverse(device): affine in device x and y.
    const toT = then(inverse, { a: dx / lengthSquared, b: 0, c: dy / lengthSquared, d: 0, e: -(paint.x0 * dx + paint.y0 * dy) / lengthSquared, f: 0 });
    return {
      opaque,
      uniform: false,
      shade: (x, y, count, out) => {
        let t = toT.a * (x + 0.5) + toT.c * (y + 0.5) + toT.e;
        for (let i = 0, o = 0; i < count; i++, o += 4, t += toT.a) copyEntry(table, t, out, o);
      },
    };
  }
  const radius = paint.r > 0 ? paint.r : 1e-9;
  // (u - cx, v - cy) / r as an affine function of the device position.
  const toUnit = then(inverse, { a: 1 / radius, b: 0, c: 0, d: 1 / radius, e: -paint.cx / radius, f: -paint.cy / radius });
  return {
    opaque,
    uniform: false,
    shade: (x, y, count, out) => {
      let u = toUnit.a * (x + 0.5) + toUnit.c * (y + 0.5) + toUnit.e;
      let v = toUnit.b * (x + 0.5) + toUnit.d * (y + 0.5) + toUnit.f;
      for (let i = 0, o = 0; i < count; i++, o += 4, u += toUnit.a, v += toUnit.b) copyEntry(table, Math.sqrt(u * u + v * v), out, o);
    },
  };
}
