// An animation as the animated encoders (gif.ts, animated-webp.ts) take it:
// its first frame whole, then frames that differ from it only within a
// region of the canvas, each given as a pixmap of that region alone. Both
// formats store after the first frame only the rectangle that changed (a
// banner's fade touches one row of text), which is most of their speed; and
// a drawing that knows where its frames can differ (state-regions.ts) holds
// its states and fades at the region's size, not the canvas's. The later
// frames are asked for once the first is encoded, so a drawing may draw them
// only then (after the WebP encoder has given back what the whole first
// frame grew, webp.ts), and come one at a time from an iterable, so a
// drawing may reuse one pixmap for every fade.

import { freeNow } from "../free-now.ts";
import { Pixmap } from "../pixmap.ts";

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

export interface LaterFrames {
  /** Where on the canvas the later frames may differ from the first, at even x and y (where WebP can place a frame). */
  region: FrameBox;
  /** The frames after the first, each a pixmap of the region's size: the canvas there (elsewhere it is the first frame). */
  frames: Iterable<AnimationFrame>;
}

export interface Animation {
  /** The first frame: a pixmap of the canvas's size. */
  first: AnimationFrame;
  /** The frames after the first, asked for once, when the first is encoded. */
  later(): LaterFrames;
}

/** Frames of one size as an Animation whose later frames may differ from the first anywhere. */
export function wholeFrames(frames: readonly AnimationFrame[]): Animation {
  const [first, ...rest] = frames;
  if (!first) throw new RangeError("an animation has at least one frame");
  return { first, later: () => ({ region: { x: 0, y: 0, width: first.pixmap.width, height: first.pixmap.height }, frames: rest }) };
}

/** The smallest box holding every pixel where `a` and `b` (the pixels of two images `width` wide, the same size) differ; null where none does. */
export function differingBox(a: Int32Array, b: Int32Array, width: number): FrameBox | null {
  const height = a.length / width;
  let top = height, bottom = -1, left = width, right = -1;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      if (a[row + x] === b[row + x]) continue;
      if (y < top) top = y;
      bottom = y;
      if (x < left) left = x;
      if (x > right) right = x;
    }
  }
  return bottom < 0 ? null : { x: left, y: top, width: right + 1 - left, height: bottom + 1 - top };
}

/** `box` of `pixmap` as a pixmap of its own. */
export function cropPixmap(pixmap: Pixmap, box: FrameBox): Pixmap {
  const out = new Pixmap(box.width, box.height);
  for (let row = 0; row < box.height; row++) {
    const from = (box.y + row) * pixmap.width + box.x;
    out.pixels.set(pixmap.pixels.subarray(from, from + box.width), row * box.width);
  }
  return out;
}

/**
 * Follows an animation's frames: the box of each later frame that differs
 * from the frame before, in the region's coordinates, at least `grid` pixels
 * wide and high, starting on a multiple of `grid` (WebP places frames at even
 * offsets; the region starts on one). It keeps a copy of the region of the
 * frame before (4 bytes a pixel of the region).
 */
export class FrameChanges {
  private previous: Int32Array | null;

  constructor(private readonly grid: 1 | 2, first: Pixmap, region: FrameBox) {
    const { width, height } = first;
    if (region.x % 2 !== 0 || region.y % 2 !== 0 || region.x + region.width > width || region.y + region.height > height) {
      throw new RangeError("an animation's region starts at even x and y, within its canvas");
    }
    this.previous = cropPixmap(first, region).pixels;
  }

  next(pixmap: Pixmap): FrameBox {
    const { width, height, pixels } = pixmap;
    const before = this.previous;
    if (!before || before.length !== pixels.length) throw new RangeError("each later frame of an animation is its region's size");
    const changed = differingBox(before, pixels, width);
    before.set(pixels);
    // Nothing changed: the smallest frame, at the corner, keeps its place in the timeline.
    if (!changed) return { x: 0, y: 0, width: Math.min(this.grid, width), height: Math.min(this.grid, height) };
    const x = changed.x - (changed.x % this.grid), y = changed.y - (changed.y % this.grid);
    const right = changed.x + changed.width, bottom = changed.y + changed.height;
    return { x, y, width: Math.min(width - x, Math.max(this.grid, right - x)), height: Math.min(height - y, Math.max(this.grid, bottom - y)) };
  }

  /** The copy freed at once (free-now.ts), not left for the collector. */
  end(): void {
    if (this.previous) freeNow(this.previous);
    this.previous = null;
  }
}

/** `box` (in a region's coordinates) placed on the canvas. */
export const onCanvas = (box: FrameBox, region: FrameBox): FrameBox => ({ ...box, x: region.x + box.x, y: region.y + box.y });

/** Straight RGBA of `box` of an image `width` wide, read from `straight` (its straight RGBA). */
export function cropRgba(straight: Uint8Array, width: number, box: FrameBox): Uint8Array {
  const out = new Uint8Array(box.width * box.height * 4);
  for (let row = 0; row < box.height; row++) {
    const from = ((box.y + row) * width + box.x) * 4;
    out.set(straight.subarray(from, from + box.width * 4), row * box.width * 4);
  }
  return out;
}
