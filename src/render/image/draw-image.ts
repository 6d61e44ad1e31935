// Drawing a decoded image scaled into a rectangle. Pixel art (64x64 server
// favicons) scaled by a whole factor keeps its hard pixels (nearest
// neighbour); anything else is bilinear, after halving the source with a 2x2
// box until the shrink factor is at most 2, so down-scales do not alias.

import { div255 } from "../color.ts";
import { Pixmap } from "../pixmap.ts";
import type { Mask } from "../raster/mask.ts";

export type ImageFilter = "auto" | "nearest" | "bilinear";

export interface ImageOptions {
  /** 0..1, multiplies the image's alpha. */
  opacity?: number;
  /** Only pixels inside this coverage mask are painted, weighted by it. */
  clip?: Mask | null;
  /** "auto" (default): nearest for whole-number up-scales (and 1:1), bilinear otherwise. */
  filter?: ImageFilter;
}

export interface DestinationRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Averages 2x2 blocks (premultiplied, so colours of transparent pixels do not bleed). */
export function halve(source: Pixmap): Pixmap {
  const width = Math.max(1, source.width >> 1), height = Math.max(1, source.height >> 1);
  const out = new Pixmap(width, height);
  const s = source.data, d = out.data, sw = source.width;
  for (let y = 0; y < height; y++) {
    const r0 = Math.min(2 * y, source.height - 1) * sw, r1 = Math.min(2 * y + 1, source.height - 1) * sw;
    for (let x = 0; x < width; x++) {
      const c0 = Math.min(2 * x, sw - 1), c1 = Math.min(2 * x + 1, sw - 1);
      const a = (r0 + c0) * 4, b = (r0 + c1) * 4, c = (r1 + c0) * 4, e = (r1 + c1) * 4;
      const o = (y * width + x) * 4;
      for (let k = 0; k < 4; k++) d[o + k] = (s[a + k]! + s[b + k]! + s[c + k]! + s[e + k]! + 2) >> 2;
    }
  }
  return out;
}

function isWholeUpscale(source: number, target: number): boolean {
  return target >= source && Number.isInteger(target / source);
}

// One row of source pixels (premultiplied) for the destination row, before blending.
let row = new Uint8Array(256 * 4);

function sampleNearest(src: Pixmap, v: number, x0: number, count: number, dx: number, sx: number): void {
  const sy = Math.min(src.height - 1, Math.max(0, Math.floor(v)));
  const s = src.data, base = sy * src.width;
  for (let i = 0; i < count; i++) {
    const u = Math.min(src.width - 1, Math.max(0, Math.floor((x0 + i + 0.5 - dx) * sx)));
    const si = (base + u) << 2, o = i << 2;
    row[o] = s[si]!;
    row[o + 1] = s[si + 1]!;
    row[o + 2] = s[si + 2]!;
    row[o + 3] = s[si + 3]!;
  }
}

function sampleBilinear(src: Pixmap, v: number, x0: number, count: number, dx: number, sx: number): void {
  const s = src.data, w = src.width, h = src.height;
  // Pixel centres sit at integer + 0.5; clamp to the edge outside.
  const fy = Math.min(h - 1, Math.max(0, v - 0.5));
  const y0 = Math.floor(fy), y1 = Math.min(h - 1, y0 + 1), wy = fy - y0;
  for (let i = 0; i < count; i++) {
    const fx = Math.min(w - 1, Math.max(0, (x0 + i + 0.5 - dx) * sx - 0.5));
    const xa = Math.floor(fx), xb = Math.min(w - 1, xa + 1), wx = fx - xa;
    const p00 = (y0 * w + xa) << 2, p01 = (y0 * w + xb) << 2, p10 = (y1 * w + xa) << 2, p11 = (y1 * w + xb) << 2;
    const o = i << 2;
    for (let k = 0; k < 4; k++) {
      const top = s[p00 + k]! + (s[p01 + k]! - s[p00 + k]!) * wx;
      const bottom = s[p10 + k]! + (s[p11 + k]! - s[p10 + k]!) * wx;
      row[o + k] = (top + (bottom - top) * wy + 0.5) | 0;
    }
  }
}

/**
 * Draws `image` (premultiplied pixmap) scaled into `dest` (device pixels),
 * source-over. Destination pixels whose centres fall inside `dest` are painted.
 */
export function drawImage(pixmap: Pixmap, image: Pixmap, dest: DestinationRect, options: ImageOptions = {}): void {
  const opacity = options.opacity ?? 1;
  const alpha = Math.round(255 * (opacity >= 1 ? 1 : opacity > 0 ? opacity : 0));
  if (alpha === 0 || !(dest.width > 0 && dest.height > 0)) return;
  const clip = options.clip ?? null;
  let x0 = Math.max(0, Math.round(dest.x)), y0 = Math.max(0, Math.round(dest.y));
  let x1 = Math.min(pixmap.width, Math.round(dest.x + dest.width)), y1 = Math.min(pixmap.height, Math.round(dest.y + dest.height));
  if (clip) {
    x0 = Math.max(x0, clip.x);
    y0 = Math.max(y0, clip.y);
    x1 = Math.min(x1, clip.x + clip.width);
    y1 = Math.min(y1, clip.y + clip.height);
  }
  if (x1 <= x0 || y1 <= y0) return;

  const filter = options.filter ?? "auto";
  const nearest = filter === "nearest" ||
    (filter === "auto" && isWholeUpscale(image.width, dest.width) && isWholeUpscale(image.height, dest.height));
  let source = image;
  if (!nearest) {
    while ((source.width > 2 * dest.width && source.width > 1) || (source.height > 2 * dest.height && source.height > 1)) {
      source = halve(source);
    }
  }
  const sx = source.width / dest.width, sy = source.height / dest.height;
  const count = x1 - x0;
  if (row.length < count * 4) row = new Uint8Array(count * 4);
  const { data, width } = pixmap;

  for (let y = y0; y < y1; y++) {
    const v = (y + 0.5 - dest.y) * sy;
    if (nearest) sampleNearest(source, v, x0, count, dest.x, sx);
    else sampleBilinear(source, v, x0, count, dest.x, sx);
    const clipRow = clip ? (y - clip.y) * clip.width - clip.x : 0;
    for (let i = 0; i < count; i++) {
      const c = clip ? div255(clip.data[clipRow + x0 + i]! * alpha) : alpha;
      const o = i << 2;
      const sa = row[o + 3]!;
      if (sa === 0 || c === 0) continue;
      const p = ((y * width) + x0 + i) << 2;
      if (sa === 255 && c === 255) {
        data[p] = row[o]!;
        data[p + 1] = row[o + 1]!;
        data[p + 2] = row[o + 2]!;
        data[p + 3] = 255;
        continue;
      }
      const inv = 255 - div255(sa * c);
      data[p] = div255(row[o]! * c + data[p]! * inv);
      data[p + 1] = div255(row[o + 1]! * c + data[p + 1]! * inv);
      data[p + 2] = div255(row[o + 2]! * c + data[p + 2]! * inv);
      data[p + 3] = div255(sa * c + data[p + 3]! * inv);
    }
  }
}
