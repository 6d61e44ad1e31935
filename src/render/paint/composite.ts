// Source-over compositing of a coverage mask filled with any paint, with an
// optional clip mask and a global opacity folded into the coverage first.
// Runs of full coverage under an opaque paint are shaded straight into the
// pixmap (a gradient is then one table lookup per pixel); other runs are
// shaded into a scratch row and blended.

import { div255, opacityToAlpha } from "../color.ts";
import type { Pixmap } from "../pixmap.ts";
import { intersect, visibleArea, type Mask } from "../raster/mask.ts";
import { blendPixel } from "./blend.ts";
import type { CompiledPaint } from "./shader.ts";

let shaded = new Int32Array(1024);
let coverageRow = new Uint8Array(1024);

function ensureRows(width: number): void {
  if (coverageRow.length >= width) return;
  shaded = new Int32Array(width);
  coverageRow = new Uint8Array(width);
}

/**
 * Coverage of row y over [x0, x1) of `mask` times the clip's coverage and
 * `alpha` (0..255): the mask's own bytes when there is nothing to combine,
 * else coverageRow. Returns the array and the index of x0 in it.
 */
function rowCoverage(mask: Mask, clip: Mask | null, alpha: number, y: number, x0: number, x1: number): [Uint8Array, number] {
  const m = mask.data;
  const start = (y - mask.y) * mask.width + (x0 - mask.x);
  if (!clip && alpha === 255) return [m, start];
  const n = x1 - x0;
  if (!clip) {
    for (let k = 0, i = start; k < n; k++) coverageRow[k] = div255(m[i++]! * alpha);
    return [coverageRow, 0];
  }
  // Callers keep [x0, x1) x {y} inside the clip's rectangle.
  const c = clip.data;
  for (let k = 0, i = start, j = (y - clip.y) * clip.width + (x0 - clip.x); k < n; k++) {
    coverageRow[k] = div255(div255(m[i++]! * c[j++]!) * alpha);
  }
  return [coverageRow, 0];
}

/**
 * Blends `paint` through `mask` (device coordinates) onto `pixmap`, times
 * `opacity` and, when given, the `clip` mask (pixels outside it are untouched).
 */
export function compositeMask(pixmap: Pixmap, mask: Mask, paint: CompiledPaint, opacity: number, clip: Mask | null): void {
  const alpha = opacityToAlpha(opacity);
  const area = intersect(mask, visibleArea(pixmap.width, pixmap.height, clip));
  if (alpha === 0 || area.width === 0 || area.height === 0) return;
  const x0 = area.x, y0 = area.y, x1 = area.x + area.width, y1 = area.y + area.height;
  ensureRows(x1 - x0);
  const { pixels, width } = pixmap;
  const { shade, opaque } = paint;
  const row = shaded;
  const n = x1 - x0;

  for (let y = y0; y < y1; y++) {
    const [cov, c0] = rowCoverage(mask, clip, alpha, y, x0, x1);
    const rowStart = y * width + x0;
    let k = 0;
    while (k < n) {
      const c = cov[c0 + k]!;
      if (c === 0) {
        k++;
        continue;
      }
      let end = k + 1;
      if (c === 255 && opaque) {
        while (end < n && cov[c0 + end] === 255) end++;
        shade(x0 + k, y, end - k, pixels, rowStart + k);
        k = end;
        continue;
      }
      // A run of partial coverage (or of a translucent paint): shade, then blend each pixel.
      while (end < n && cov[c0 + end] !== 0 && !(opaque && cov[c0 + end] === 255)) end++;
      shade(x0 + k, y, end - k, row, 0);
      // Flat art repeats the same source, coverage and backdrop: reuse the last blend.
      let lastSource = 0, lastDest = 0, lastCoverage = -1, lastOut = 0;
      for (let s = 0; k < end; k++, s++) {
        const source = row[s]!, dest = pixels[rowStart + k]!, c = cov[c0 + k]!;
        if (source !== lastSource || dest !== lastDest || c !== lastCoverage) {
          lastSource = source;
          lastDest = dest;
          lastCoverage = c;
          lastOut = blendPixel(source, dest, c);
        }
        pixels[rowStart + k] = lastOut;
      }
    }
  }
}
