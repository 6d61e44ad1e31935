// Gaussian blur approximated by three successive box blurs per direction
// (the central limit theorem makes three boxes within a few percent of a
// Gaussian), each a running sum: cost independent of the radius. Used for
// soft shadows, on masks (one channel) or premultiplied pixmaps (four).

import type { Pixmap } from "../pixmap.ts";
import type { Mask } from "../raster/mask.ts";

/**
 * Widths of three boxes whose successive application has variance sigma^2:
 * two sizes, wl and wl + 2 (odd, so boxes stay centred), mixed as needed.
 */
export function boxSizes(sigma: number): [number, number, number] {
  const n = 3;
  const ideal = Math.sqrt((12 * sigma * sigma) / n + 1);
  let wl = Math.floor(ideal);
  if (wl % 2 === 0) wl--;
  const wu = wl + 2;
  const m = Math.round((12 * sigma * sigma - n * wl * wl - 4 * n * wl - 3 * n) / (-4 * wl - 4));
  return [0, 1, 2].map((i) => (i < m ? wl : wu)) as [number, number, number];
}

/**
 * One box pass along lines of `length` samples spaced `step` apart, `lines`
 * of them spaced `lineStep` apart; samples beyond the ends count as 0.
 */
function boxPass(
  data: Uint8Array, line: Float64Array, lines: number, lineStep: number, length: number, step: number, radius: number,
): void {
  const scale = 1 / (2 * radius + 1);
  for (let l = 0; l < lines; l++) {
    const start = l * lineStep;
    for (let i = 0; i < length; i++) line[i] = data[start + i * step]!;
    let sum = 0;
    for (let i = 0; i < radius && i < length; i++) sum += line[i]!;
    for (let i = 0; i < length; i++) {
      if (i + radius < length) sum += line[i + radius]!;
      data[start + i * step] = (sum * scale + 0.5) | 0;
      if (i - radius >= 0) sum -= line[i - radius]!;
    }
  }
}

/** Blurs interleaved channels in place; `channels` is bytes per pixel. */
function blurChannels(data: Uint8Array, width: number, height: number, channels: number, sigma: number): void {
  if (!(sigma > 0)) return;
  const line = new Float64Array(Math.max(width, height));
  for (const size of boxSizes(sigma)) {
    const radius = (size - 1) >> 1;
    if (radius === 0) continue;
    for (let c = 0; c < channels; c++) {
      // Rows, then columns of channel c.
      boxPass(data.subarray(c), line, height, width * channels, width, channels, radius);
      boxPass(data.subarray(c), line, width, channels, height, width * channels, radius);
    }
  }
}

/** A blurred copy of `mask`, grown by 3 sigma on every side so the blur is not cut off. */
export function blurMask(mask: Mask, sigma: number): Mask {
  const pad = Math.ceil(3 * Math.max(0, sigma));
  const width = mask.width + 2 * pad, height = mask.height + 2 * pad;
  if (mask.width === 0 || mask.height === 0) return { ...mask, data: new Uint8Array(0) };
  const data = new Uint8Array(width * height);
  for (let y = 0; y < mask.height; y++) data.set(mask.data.subarray(y * mask.width, (y + 1) * mask.width), (y + pad) * width + pad);
  blurChannels(data, width, height, 1, sigma);
  return { x: mask.x - pad, y: mask.y - pad, width, height, data };
}

/** Blurs a pixmap in place (pixels beyond its edges count as transparent). */
export function blurPixmap(pixmap: Pixmap, sigma: number): void {
  blurChannels(pixmap.data, pixmap.width, pixmap.height, 4, sigma);
}
