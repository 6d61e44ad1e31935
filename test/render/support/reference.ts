// Renders SVG with @resvg/resvg-js (tests only) and compares it with a pixmap,
// both premultiplied: straight colour is meaningless where alpha is near 0.
// resvg's `pixels` are tiny-skia's own buffer, already premultiplied.
//
// tiny-skia anti-aliases with 4x4 supersampling, so on its own an edge pixel
// is only known to within 1/8 of coverage (32/255): too coarse to check an
// exact-area rasterizer against. We render at 4x and average each 4x4 block,
// which is 16x16 sampling per pixel: the reference is then within ~1/32.

import { Resvg } from "@resvg/resvg-js";
import type { Pixmap } from "../../../src/render/index.ts";

export const REFERENCE_ZOOM = 4;

export function renderSvg(svg: string): { width: number; height: number; premultiplied: Uint8Array } {
  const zoom = REFERENCE_ZOOM;
  const image = new Resvg(svg, { shapeRendering: 2, background: "rgba(0,0,0,0)", fitTo: { mode: "zoom", value: zoom } }).render();
  const big = image.pixels;
  const width = image.width / zoom, height = image.height / zoom;
  const premultiplied = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < 4; c++) {
        let sum = 0;
        for (let dy = 0; dy < zoom; dy++) {
          for (let dx = 0; dx < zoom; dx++) sum += big[((y * zoom + dy) * image.width + x * zoom + dx) * 4 + c]!;
        }
        premultiplied[(y * width + x) * 4 + c] = Math.round(sum / (zoom * zoom));
      }
    }
  }
  return { width, height, premultiplied };
}

export interface Difference {
  /** Mean absolute difference per channel, in 1/255 units. */
  mean: number;
  /** Largest single-channel difference, in 1/255 units. */
  max: number;
  maxAt: [x: number, y: number];
}

/** Differences between `ours` and resvg's rendering of `svg`, ignoring the listed pixels for `max` (not for `mean`). */
export function compare(ours: Pixmap, svg: string, excluded: ReadonlyArray<readonly [number, number]> = []): Difference {
  const reference = renderSvg(svg);
  if (reference.width !== ours.width || reference.height !== ours.height) throw new Error("size mismatch");
  const skip = new Set(excluded.map(([x, y]) => y * ours.width + x));
  let sum = 0, max = 0, maxAt: [number, number] = [0, 0];
  const a = ours.data, b = reference.premultiplied;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i]! - b[i]!);
    sum += d;
    if (d > max && !skip.has(i >> 2)) {
      max = d;
      maxAt = [(i >> 2) % ours.width, Math.floor((i >> 2) / ours.width)];
    }
  }
  return { mean: sum / a.length, max, maxAt };
}
