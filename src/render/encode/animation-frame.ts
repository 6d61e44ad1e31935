// A frame of an animation as the animated encoders (gif.ts, animated-webp.ts)
// take them: a drawing and how long it shows. Frames come one at a time from
// an iterable, so a drawing may reuse one pixmap for every frame. Both
// formats store after the first frame only the rectangle that changed (a
// banner's fade touches one row of text), which is most of their speed.

import { freeNow } from "../free-now.ts";
import type { Pixmap } from "../pixmap.ts";

export interface AnimationFrame {
  pixmap: Pixmap;
  durationMs: number;
}

export interface FrameBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Follows a sequence of frames: the rectangle of each that differs from the
 * one before (the whole of the first), at least `grid` pixels wide and high,
 * starting on a multiple of `grid` (WebP places frames at even offsets).
 */
export class FrameChanges {
  private previous: Int32Array | null = null;

  constructor(private readonly grid: 1 | 2) {}

  next(pixmap: Pixmap): FrameBox {
    const { width, height, pixels } = pixmap;
    const before = this.previous;
    this.previous = before ?? new Int32Array(pixels.length);
    if (!before) {
      this.previous.set(pixels);
      return { x: 0, y: 0, width, height };
    }
    let top = height, bottom = -1, left = width, right = -1;
    for (let y = 0; y < height; y++) {
      const row = y * width;
      for (let x = 0; x < width; x++) {
        if (pixels[row + x] === before[row + x]) continue;
        if (y < top) top = y;
        bottom = y;
        if (x < left) left = x;
        if (x > right) right = x;
      }
    }
    before.set(pixels);
    // Nothing changed: the smallest frame, at the corner, keeps its place in the timeline.
    if (bottom < 0) return { x: 0, y: 0, width: Math.min(this.grid, width), height: Math.min(this.grid, height) };
    const x = left - (left % this.grid), y = top - (top % this.grid);
    return { x, y, width: Math.min(width - x, Math.max(this.grid, right + 1 - x)), height: Math.min(height - y, Math.max(this.grid, bottom + 1 - y)) };
  }

  /** The last frame's copy freed at once (free-now.ts): 4 bytes a pixel, which the collector would free only later. */
  end(): void {
    if (this.previous) freeNow(this.previous);
    this.previous = null;
  }
}

/** Straight RGBA of `box` of `pixmap`, read from `straight` (the whole pixmap as straight RGBA). */
export function cropRgba(straight: Uint8Array, width: number, box: FrameBox): Uint8Array {
  const out = new Uint8Array(box.width * box.height * 4);
  for (let row = 0; row < box.height; row++) {
    const from = ((box.y + row) * width + box.x) * 4;
    out.set(straight.subarray(from, from + box.width * 4), row * box.width * 4);
  }
  return out;
}
