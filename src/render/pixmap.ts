// The drawing surface: 8-bit RGBA, premultiplied by alpha so that compositing
// is one multiply-add per channel. Encoders want straight alpha, so the
// conversions live here too.

import { div255, type Color } from "./color.ts";
import { ALPHA_SHIFT } from "./paint/blend.ts";

/** Pixmaps larger than this on a side are refused (a banner is at most a few thousand pixels wide). */
export const MAX_PIXMAP_SIDE = 4096;

const packScratch = new Uint8Array(4);
const packView = new Int32Array(packScratch.buffer);

/** Four premultiplied bytes as one Uint32 in the platform's byte order, for whole-pixel writes. */
export function packPixel(r: number, g: number, b: number, a: number): number {
  packScratch[0] = r;
  packScratch[1] = g;
  packScratch[2] = b;
  packScratch[3] = a;
  return packView[0]!;
}

function checkSide(side: number): void {
  if (!Number.isInteger(side) || side < 1 || side > MAX_PIXMAP_SIDE) {
    throw new RangeError(`pixmap side must be an integer in 1..${MAX_PIXMAP_SIDE}, got ${side}`);
  }
}

export class Pixmap {
  /** Premultiplied RGBA, row-major, 4 bytes per pixel, no row padding. */
  readonly data: Uint8Array;
  /** The same bytes one pixel per element, for fills and copies. */
  readonly pixels: Int32Array;

  /** A transparent pixmap; throws RangeError for sizes that are not integers in 1..MAX_PIXMAP_SIDE. */
  constructor(readonly width: number, readonly height: number) {
    checkSide(width);
    checkSide(height);
    this.data = new Uint8Array(width * height * 4);
    this.pixels = new Int32Array(this.data.buffer);
  }

  /** Copies straight-alpha RGBA bytes (as decoders give them) into a new pixmap. */
  static fromStraightRgba(width: number, height: number, rgba: ArrayLike<number>): Pixmap {
    const pixmap = new Pixmap(width, height);
    if (rgba.length < width * height * 4) throw new RangeError("pixel data shorter than width * height * 4");
    const out = pixmap.data;
    for (let i = 0; i < out.length; i += 4) {
      const a = rgba[i + 3]!;
      out[i] = div255(rgba[i]! * a);
      out[i + 1] = div255(rgba[i + 1]! * a);
      out[i + 2] = div255(rgba[i + 2]! * a);
      out[i + 3] = a;
    }
    return pixmap;
  }

  /** Replaces every pixel with `color` (no blending). */
  fill(color: Color): void {
    this.pixels.fill(packPixel(div255(color.r * color.a), div255(color.g * color.a), div255(color.b * color.a), color.a));
  }

  /** Straight-alpha colour of one pixel (for tests and sampling). */
  pixel(x: number, y: number): Color {
    const i = (y * this.width + x) * 4;
    const d = this.data;
    const a = d[i + 3]!;
    if (a === 0) return { r: 0, g: 0, b: 0, a: 0 };
    return { r: unpremultiply(d[i]!, a), g: unpremultiply(d[i + 1]!, a), b: unpremultiply(d[i + 2]!, a), a };
  }

  /** Straight-alpha RGBA bytes, as PNG and WebP want them. */
  toStraightRgba(): Uint8Array {
    const out = new Uint8Array(this.data.length);
    writeStraight(this, out);
    return out;
  }
}

/**
 * Writes the pixmap's straight-alpha RGBA into `out` (at least width*height*4
 * bytes, 4-byte aligned); returns whether every pixel is opaque. Opaque and
 * transparent pixels (the bulk of most images; premultiplied transparent is
 * all zeros already) are the same in both forms: one block copy, then only
 * the others are rewritten, found four pixels at a time.
 */
export function writeStraight(pixmap: Pixmap, out: Uint8Array): boolean {
  const src = pixmap.data, words = pixmap.pixels, n = words.length;
  new Int32Array(out.buffer, out.byteOffset, n).set(words);
  let opaque = true;
  const whole = n & ~3;
  for (let p = 0; p < n; p += 4) {
    // Four opaque pixels at once (the last few, if any, one by one).
    if (p < whole && (words[p]! & words[p + 1]! & words[p + 2]! & words[p + 3]! & OPAQUE) === OPAQUE) continue;
    for (let q = p; q < p + 4 && q < n; q++) {
      const a = (words[q]! >>> ALPHA_SHIFT) & 255;
      if (a === 255) continue;
      opaque = false;
      if (a === 0) continue;
      const i = q << 2, r = RECIPROCAL[a]!;
      out[i] = (src[i]! * r + 32768) >>> 16;
      out[i + 1] = (src[i + 1]! * r + 32768) >>> 16;
      out[i + 2] = (src[i + 2]! * r + 32768) >>> 16;
    }
  }
  return opaque;
}

/** The alpha byte of a pixel word, all ones. */
const OPAQUE = (255 << ALPHA_SHIFT) | 0;

/** 255/a in 16.16 fixed point, so un-premultiplying is a multiply and a shift. */
const RECIPROCAL = new Float64Array(256).map((_, a) => (a === 0 ? 0 : Math.round((255 * 65536) / a)));

function unpremultiply(c: number, a: number): number {
  return Math.min(255, (c * RECIPROCAL[a]! + 32768) >>> 16);
}
