// Animated GIF: each frame indexed with a palette of its own (gif-palette.ts:
// the kept colours exact), written by omggif, chosen for size and speed
// (bench/animated.ts, docs/animated-banners.md): it places a frame anywhere on the canvas, so
// after the first only the rectangle that changed is stored, its unchanged
// pixels transparent (long runs for LZW) over the frame before (disposal 1:
// left in place). Loops forever; delays are hundredths of a second in the
// file, so a duration is rounded to 10 ms.

import { GifWriter } from "omggif";
import type { Color } from "../color.ts";
import { freeNow } from "../free-now.ts";
import { straightRgba } from "./straight-scratch.ts";
import { cropRgba, FrameChanges, type AnimationFrame, type FrameBox } from "./animation-frame.ts";
import { indexFrame, type IndexedFrame } from "./gif-palette.ts";

/** GIF's file header, screen descriptor, loop extension and trailer, and per frame its extension, descriptor and LZW's worst case besides the pixels. */
const FILE_BYTES = 64;
const FRAME_BYTES = 64;
/** LZW codes reach 12 bits: at worst 1.5 bytes a pixel, plus a length byte every 255. */
const LZW_BYTES_PER_PIXEL = 1.6;

/** Straight RGBA of `box`, the pixels equal in `before` (read in place, not cropped: one copy a frame, not two) made transparent. */
function changedPixels(rgba: Uint8Array, before: Uint32Array | null, width: number, box: FrameBox): Uint8Array {
  const out = cropRgba(rgba, width, box);
  if (!before) return out;
  const words = new Uint32Array(out.buffer);
  for (let row = 0, p = 0; row < box.height; row++) {
    const from = (box.y + row) * width + box.x;
    for (let x = 0; x < box.width; x++, p++) if (words[p] === before[from + x]) words[p] = 0;
  }
  return out;
}

/** omggif's palette: 0xRRGGBB numbers, a power of two of them (at least 2). */
function paddedPalette(palette: IndexedFrame["palette"]): number[] {
  const size = 2 ** Math.max(1, Math.ceil(Math.log2(palette.length)));
  return Array.from({ length: size }, (_, i) => {
    const entry = palette[i];
    return entry ? (entry[0] << 16) | (entry[1] << 8) | entry[2] : 0;
  });
}

/**
 * The GIF of `frames` (all one size), each keeping the colours of `kept` it
 * draws exactly. What it holds at once: the straight copy, the frame before
 * and FrameChanges' copy (4 bytes a pixel each), one frame's changed pixels,
 * then every frame's indices (1 byte a pixel) and the file (at most 1.6 bytes
 * a pixel a frame, then its copy). Each buffer is freed at once when done
 * (free-now.ts), where every frame's two crops, its indices and the file's
 * bound were left for the collector (issue 38, docs/performance-notes.md).
 */
export function encodeGif(frames: Iterable<AnimationFrame>, kept: readonly Color[]): Uint8Array {
  const changes = new FrameChanges(1);
  const indexed: Array<{ box: FrameBox; frame: IndexedFrame; delay: number }> = [];
  let before: Uint32Array | null = null, width = 0, height = 0;
  try {
    for (const { pixmap, durationMs } of frames) {
      ({ width, height } = pixmap);
      // The thread's shared straight copy (straight-scratch.ts): read before the next frame writes it.
      const { rgba } = straightRgba(pixmap);
      const box = changes.next(pixmap);
      const changed = changedPixels(rgba, before, width, box);
      indexed.push({ box, frame: indexFrame(changed, kept), delay: Math.round(durationMs / 10) });
      freeNow(changed);
      before ??= new Uint32Array(rgba.length / 4);
      before.set(new Uint32Array(rgba.buffer, rgba.byteOffset, rgba.length / 4));
    }
  } finally {
    changes.end();
    if (before) freeNow(before);
  }
  const bound = FILE_BYTES + indexed.reduce((sum, { box }) => sum + FRAME_BYTES + 3 * 256 + Math.ceil(box.width * box.height * LZW_BYTES_PER_PIXEL), 0);
  const out = new Uint8Array(bound);
  const writer = new GifWriter(out, width, height, { loop: 0 });
  for (const { box, frame, delay } of indexed) {
    writer.addFrame(box.x, box.y, box.width, box.height, frame.index, {
      palette: paddedPalette(frame.palette), delay, disposal: 1, ...(frame.transparentIndex === null ? {} : { transparent: frame.transparentIndex }),
    });
    freeNow(frame.index);
  }
  const file = out.slice(0, writer.end());
  freeNow(out);
  return file;
}
