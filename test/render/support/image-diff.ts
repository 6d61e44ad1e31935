// Comparing a drawing with its golden image, shared by the gallery test
// (which only compares) and the update script (which writes goldens that no
// longer match). Both sides are read with pngjs, not with the renderer's own
// decoder, and the drawing goes through the renderer's PNG writer first: the
// comparison is between what the file holds and what the writer would write.
//
// The renderer is pure JavaScript, so a drawing is bit-exact on one machine;
// between machines only Math.sin/cos/exp and the like may differ in the last
// bit, moving a rounding by a level on a few edge pixels. So a channel may
// differ by CHANNEL_TOLERANCE levels, and at most MAX_DIFFERING_PIXELS pixels
// by more: a missing 10x10 px glyph, a glyph moved by a pixel or swapped
// channels fail.

import { existsSync, readFileSync } from "node:fs";
import { PNG } from "pngjs";
import { Pixmap, encodePng } from "../../../src/render/index.ts";

export const CHANNEL_TOLERANCE = 2;
export const MAX_DIFFERING_PIXELS = 4;

/** A PNG file's pixels, premultiplied as the renderer stores them, read by pngjs. */
export function readPng(bytes: Uint8Array): Pixmap {
  const png = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  return Pixmap.fromStraightRgba(png.width, png.height, png.data);
}

/** The golden file's pixels, or null when there is no such file. */
export function readGolden(file: string): Pixmap | null {
  return existsSync(file) ? readPng(new Uint8Array(readFileSync(file))) : null;
}

export interface Comparison {
  /** Pixels with a channel more than CHANNEL_TOLERANCE levels off. */
  differing: number;
  /** The largest difference of any channel, in levels. */
  largest: number;
  /** Mean absolute difference per channel, in levels. */
  meanError: number;
  /** Red where a pixel differs beyond the tolerance, yellow within it, the golden in pale grey elsewhere. */
  diff: Pixmap;
}

export function matches(comparison: Comparison): boolean {
  return comparison.differing <= MAX_DIFFERING_PIXELS;
}

/** Compares two images of the same size (premultiplied RGBA). */
export function compareImages(golden: Pixmap, actual: Pixmap): Comparison {
  const diff = new Pixmap(golden.width, golden.height);
  let differing = 0, largest = 0, total = 0;
  for (let i = 0; i < golden.data.length; i += 4) {
    let worst = 0;
    for (let c = 0; c < 4; c++) {
      const d = Math.abs(golden.data[i + c]! - actual.data[i + c]!);
      total += d;
      worst = Math.max(worst, d);
    }
    largest = Math.max(largest, worst);
    if (worst > CHANNEL_TOLERANCE) differing++;
    const pale = 200 + Math.round((golden.data[i]! + golden.data[i + 1]! + golden.data[i + 2]!) / 15);
    diff.data.set(worst > CHANNEL_TOLERANCE ? [255, 0, 0, 255] : worst > 0 ? [255, 200, 0, 255] : [pale, pale, pale, 255], i);
  }
  return { differing, largest, meanError: total / golden.data.length, diff };
}

/** The drawing as the PNG writer encodes it, and as that file reads back. */
export function written(pixmap: Pixmap): { png: Uint8Array; pixels: Pixmap } {
  const png = encodePng(pixmap);
  return { png, pixels: readPng(png) };
}

export function describeComparison(comparison: Comparison): string {
  return `${comparison.differing} pixels differ by more than ${CHANNEL_TOLERANCE} levels (at most ${MAX_DIFFERING_PIXELS} may), ` +
    `largest difference ${comparison.largest}, mean error ${comparison.meanError.toFixed(3)} levels per channel`;
}
