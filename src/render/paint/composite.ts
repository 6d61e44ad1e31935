// Source-over compositing of a coverage mask filled with any paint, with an
// optional clip mask and a global opacity folded into the coverage first.

import { div255 } from "../color.ts";
import type { Pixmap } from "../pixmap.ts";
import type { Mask } from "../raster/mask.ts";
import type { CompiledPaint } from "./shader.ts";

let shadeRow = new Uint8Array(1024 * 4);
let shadeRow32 = new Uint32Array(shadeRow.buffer);
let coverageRow = new Uint8Array(1024);

function ensureRows(width: number): void {
  if (coverageRow.length >= width) return;
  shadeRow = new Uint8Array(width * 4);
  shadeRow32 = new Uint32Array(shadeRow.buffer);
  coverageRow = new Uint8Array(width);
}

/** Coverage of row y over [x0, x1) of `mask`, times the clip's coverage and `alpha` (0..255), into coverageRow[0..). */
function combinedCoverage(mask: Mask, clip: Mask | null, alpha: number, y: number, x0: number, x1: number): void {
  const m = mask.data;
  let i = (y - mask.y) * mask.width + (x0 - mask.x);
  const n = x1 - x0;
  if (!clip) {
    for (let k = 0; k < n; k++) coverageRow[k] = div255(m[i++]! * alpha);
    return;
  }
  // Callers keep [x0, x1) x {y} inside the clip's rectangle.
  const c = clip.data;
  let j = (y - clip.y) * clip.width + (x0 - clip.x);
  for (let k = 0; k < n; k++) coverageRow[k] = div255(div255(m[i++]! * c[j++]!) * alpha);
}

/**
 * Blends `paint` through `mask` (device coordinates) onto `pixmap`, times
 * `opacity` and, when given, the `clip` mask (pixels outside it are untouched).
 */
export function compositeMask(pixmap: Pixmap, mask: Mask, paint: CompiledPaint, opacity: number, clip: Mask | null): void {
  const alpha = Math.round(255 * (opacity >= 1 ? 1 : opacity > 0 ? opacity : 0));
  if (alpha === 0) return;
  let x0 = Math.max(mask.x, 0), y0 = Math.max(mask.y, 0);
  let x1 = Math.min(mask.x + mask.width, pixmap.width), y1 = Math.min(mask.y + mask.height, pixmap.height);
  if (clip) {
    x0 = Math.max(x0, clip.x);
    y0 = Math.max(y0, clip.y);
    x1 = Math.min(x1, clip.x + clip.width);
    y1 = Math.min(y1, clip.y + clip.height);
  }
  if (x1 <= x0 || y1 <= y0) return;
  ensureRows(x1 - x0);
  const { data, pixels, width } = pixmap;
  if (paint.uniform) paint.shade(0, 0, 1, shadeRow);

  for (let y = y0; y < y1; y++) {
    combinedCoverage(mask, clip, alpha, y, x0, x1);
    // Shade only between the first and last covered pixels of the row.
    let first = 0, last = x1 - x0 - 1;
    while (first <= last && coverageRow[first] === 0) first++;
    while (last >= first && coverageRow[last] === 0) last--;
    if (first > last) continue;
    if (!paint.uniform) paint.shade(x0 + first, y, last - first + 1, shadeRow);
    const step = paint.uniform ? 0 : 1;
    let p = y * width + x0 + first;
    for (let k = first, s = 0; k <= last; k++, p++, s += step) {
      const c = coverageRow[k]!;
      if (c === 0) continue;
      const si = s << 2;
      const sa = shadeRow[si + 3]!;
      if (c === 255 && sa === 255) {
        pixels[p] = shadeRow32[s]!;
        continue;
      }
      const inv = 255 - div255(sa * c);
      const i = p << 2;
      data[i] = div255(shadeRow[si]! * c + data[i]! * inv);
      data[i + 1] = div255(shadeRow[si + 1]! * c + data[i + 1]! * inv);
      data[i + 2] = div255(shadeRow[si + 2]! * c + data[i + 2]! * inv);
      data[i + 3] = div255(sa * c + data[i + 3]! * inv);
    }
  }
}
