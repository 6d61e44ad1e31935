// Drawing a decoded image scaled into a rectangle. Pixel art (64x64 server
// favicons) scaled by a whole factor keeps its hard pixels (nearest
// neighbour); anything else is bilinear, after halving the source with a 2x2
// box until the shrink factor is at most 2, so down-scales do not alias.

import { div255, opacityToAlpha } from "../color.ts";
import { Pixmap } from "../pixmap.ts";
import { intersect, visibleArea, type Mask } from "../raster/mask.ts";
import { ALPHA_SHIFT, blendPixel, lerpPixel } from "../paint/blend.ts";

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

// One row of source pixels (premultiplied words) for the destination row, before blending.
let row32 = new Int32Array(256);

// Per destination column: the source column (nearest), or the two source
// columns and the weight of the right one (0..256, bilinear); the same for
// every row of one draw.
let columnA = new Int32Array(256);
let columnB = new Int32Array(256);
let columnWeight = new Int32Array(256);

function prepareColumns(src: Pixmap, x0: number, count: number, dx: number, sx: number, nearest: boolean): void {
  if (columnA.length < count) {
    columnA = new Int32Array(count);
    columnB = new Int32Array(count);
    columnWeight = new Int32Array(count);
  }
  const w = src.width;
  for (let i = 0; i < count; i++) {
    if (nearest) {
      columnA[i] = Math.min(w - 1, Math.max(0, Math.floor((x0 + i + 0.5 - dx) * sx)));
      continue;
    }
    // Pixel centres sit at integer + 0.5; clamp to the edge outside.
    const fx = Math.min(w - 1, Math.max(0, (x0 + i + 0.5 - dx) * sx - 0.5));
    const xa = Math.floor(fx);
    columnA[i] = xa;
    columnB[i] = Math.min(w - 1, xa + 1);
    columnWeight[i] = Math.round((fx - xa) * 256);
  }
}

function sampleNearest(src: Pixmap, v: number, count: number): void {
  const s = src.pixels, out = row32, columns = columnA;
  const base = Math.min(src.height - 1, Math.max(0, Math.floor(v))) * src.width;
  for (let i = 0; i < count; i++) out[i] = s[base + columns[i]!]!;
}

/** Bilinear samples of source row position v for the prepared columns. */
function sampleBilinear(src: Pixmap, v: number, count: number): void {
  const s = src.pixels, h = src.height;
  // Module-level buffers read through locals: the hot loop then sees fixed arrays.
  const out = row32, colA = columnA, colB = columnB, weights = columnWeight;
  const fy = Math.min(h - 1, Math.max(0, v - 0.5));
  const ya = Math.floor(fy);
  const wy = Math.round((fy - ya) * 256);
  const top = ya * src.width, bottom = Math.min(h - 1, ya + 1) * src.width;
  for (let i = 0; i < count; i++) {
    const a = colA[i]!, b = colB[i]!, wx = weights[i]!;
    out[i] = lerpPixel(lerpPixel(s[top + a]!, s[top + b]!, wx), lerpPixel(s[bottom + a]!, s[bottom + b]!, wx), wy);
  }
}

/**
 * Draws `image` (premultiplied pixmap) scaled into `dest` (device pixels),
 * source-over. Destination pixels whose centres fall inside `dest` are painted.
 */
export function drawImage(pixmap: Pixmap, image: Pixmap, dest: DestinationRect, options: ImageOptions = {}): void {
  const alpha = opacityToAlpha(options.opacity ?? 1);
  if (alpha === 0 || !(dest.width > 0 && dest.height > 0)) return;
  const clip = options.clip ?? null;
  // Pixels whose centres fall inside dest.
  const left = Math.round(dest.x), top = Math.round(dest.y);
  const covered = { x: left, y: top, width: Math.round(dest.x + dest.width) - left, height: Math.round(dest.y + dest.height) - top };
  const area = intersect(covered, visibleArea(pixmap.width, pixmap.height, clip));
  if (area.width <= 0 || area.height <= 0) return;
  const x0 = area.x, y0 = area.y, x1 = area.x + area.width, y1 = area.y + area.height;

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
  if (row32.length < count) row32 = new Int32Array(count);
  const { pixels, width } = pixmap;
  prepareColumns(source, x0, count, dest.x, sx, nearest);

  for (let y = y0; y < y1; y++) {
    const v = (y + 0.5 - dest.y) * sy;
    if (nearest) sampleNearest(source, v, count);
    else sampleBilinear(source, v, count);
    const clipRow = clip ? (y - clip.y) * clip.width - clip.x : 0;
    const src = row32;
    const rowStart = y * width + x0;
    for (let i = 0; i < count; i++) {
      const c = clip ? div255(clip.data[clipRow + x0 + i]! * alpha) : alpha;
      const s = src[i]!;
      if (s === 0 || c === 0) continue;
      pixels[rowStart + i] = c === 255 && ((s >>> ALPHA_SHIFT) & 255) === 255 ? s : blendPixel(s, pixels[rowStart + i]!, c);
    }
  }
}
