// Coverage masks: a path rasterized to 0..255 coverage over its device-space
// bounding box (clipped), so small shapes cost only their own pixels.

import { IDENTITY, type Transform } from "../transform.ts";
import type { Path } from "../path.ts";
import { CoverageAccumulator, type FillRule } from "./accumulate.ts";
import { flattenPath, type Contour } from "./flatten.ts";

/**
 * Coverage 0..255, row-major, `width * height` bytes, whose top-left pixel
 * sits at device pixel (x, y). An empty mask has width or height 0.
 */
export interface Mask {
  x: number;
  y: number;
  width: number;
  height: number;
  data: Uint8Array;
}

/** An integer device-space rectangle. */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The overlap of two rectangles; width or height 0 when they do not meet. */
export function intersect(a: Rect, b: Rect): Rect {
  const x = Math.max(a.x, b.x), y = Math.max(a.y, b.y);
  return {
    x,
    y,
    width: Math.max(0, Math.min(a.x + a.width, b.x + b.width) - x),
    height: Math.max(0, Math.min(a.y + a.height, b.y + b.height) - y),
  };
}

/** The pixels a draw may touch: the surface (width x height at the origin), narrowed to the clip mask's rectangle. */
export function visibleArea(width: number, height: number, clip: Rect | null): Rect {
  const surface = { x: 0, y: 0, width, height };
  return clip ? intersect(surface, clip) : surface;
}

/** Masks never grow past this region, whatever coordinates a path holds. */
export const MASK_LIMIT: Rect = { x: -2048, y: -2048, width: 4096, height: 4096 };

// Rows are accumulated in bands of BAND rows, so the float buffer stays small
// (and in cache) however tall the mask; one accumulator serves every call
// (single threaded) and is left zeroed by `resolve`.
const BAND = 32;
const accumulator = new CoverageAccumulator();

export function emptyMask(): Mask {
  return { x: 0, y: 0, width: 0, height: 0, data: new Uint8Array(0) };
}

/**
 * `mask` cut to the rectangle of its non-zero coverage: the same drawing from
 * fewer pixels (a blurred glyph's margin, wider than the blur's reach, is
 * half its area). The mask itself when already tight; empty when all zero.
 */
export function trimMask(mask: Mask): Mask {
  const { width, height, data } = mask;
  let x0 = width, x1 = -1, y0 = height, y1 = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0, i = y * width; x < width; x++, i++) {
      if (data[i] === 0) continue;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      y1 = y;
    }
  }
  if (x1 < 0) return emptyMask();
  if (x0 === 0 && y0 === 0 && x1 === width - 1 && y1 === height - 1) return mask;
  const w = x1 - x0 + 1, h = y1 - y0 + 1;
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) out.set(data.subarray((y + y0) * width + x0, (y + y0) * width + x0 + w), y * w);
  return { x: mask.x + x0, y: mask.y + y0, width: w, height: h, data: out };
}

/** Integer bounds of the contours' points intersected with `clip`; null when empty. */
function coveredRect(contours: readonly Contour[], clip: Rect): Rect | null {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const { points } of contours) {
    for (let i = 0; i < points.length; i += 2) {
      const x = points[i]!, y = points[i + 1]!;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
  }
  // NaN or infinite coordinates make the comparisons below false: nothing is drawn.
  const x0 = Math.max(Math.floor(minX), clip.x);
  const y0 = Math.max(Math.floor(minY), clip.y);
  const x1 = Math.min(Math.ceil(maxX), clip.x + clip.width);
  const y1 = Math.min(Math.ceil(maxY), clip.y + clip.height);
  if (!(x1 > x0 && y1 > y0)) return null;
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/**
 * Rasterizes flattened contours (each implicitly closed) within `clip`. With
 * `storage` (large enough), the coverage is written there instead of a new
 * array: every byte is written, so it need not be clean.
 */
export function rasterizeContours(contours: readonly Contour[], fillRule: FillRule, clip: Rect, storage?: Uint8Array): Mask {
  const rect = coveredRect(contours, clip);
  if (!rect) return emptyMask();
  const { x: ox, y: oy, width, height } = rect;
  const data = storage && storage.length >= width * height ? storage.subarray(0, width * height) : new Uint8Array(width * height);
  for (let band = 0; band < height; band += BAND) {
    const rows = Math.min(BAND, height - band);
    const top = oy + band;
    accumulator.reset(width, rows);
    for (const { points } of contours) {
      const n = points.length;
      if (n < 4) continue;
      let px = points[n - 2]! - ox;
      let py = points[n - 1]! - top;
      for (let i = 0; i < n; i += 2) {
        const x = points[i]! - ox;
        const y = points[i + 1]! - top;
        accumulator.clippedLine(px, py, x, y);
        px = x;
        py = y;
      }
    }
    accumulator.resolve(fillRule, data.subarray(band * width), width);
  }
  return { x: ox, y: oy, width, height, data };
}

/**
 * Rasterizes `path` (sub-paths implicitly closed) to an anti-aliased coverage
 * mask in device pixels: exact area coverage, no supersampling. `transform`
 * maps path to device coordinates; `clip` bounds the mask (default
 * MASK_LIMIT). The mask's own x/y give its device position; an empty path
 * yields width 0.
 */
export function rasterizeToMask(
  path: Path, transform: Transform = IDENTITY, fillRule: FillRule = "nonzero", clip: Rect = MASK_LIMIT,
): Mask {
  return rasterizeContours(flattenPath(path, transform), fillRule, clip);
}
