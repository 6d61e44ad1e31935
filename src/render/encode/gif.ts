// Animated GIF: each frame indexed with a palette of its own (gif-palette.ts:
// the kept colours exact), written by omggif, chosen for size and speed
// (bench/animated.ts, README): it places a frame anywhere on the canvas, so
// after the first only the rectangle that changed is stored, its unchanged
// pixels transparent (long runs for LZW) over the frame before (disposal 1:
// left in place). Loops forever; delays are hundredths of a second in the
// file, so a duration is rounded to 10 ms.

import { GifWriter } from "omggif";
import type { Color } from "../color.ts";
import { straightRgba } from "./straight-scratch.ts";
import { cropRgba, FrameChanges, type AnimationFrame, type FrameBox } from "./animation-frame.ts";
import { indexFrame, type IndexedFrame } from "./gif-palette.ts";

/** GIF's file header, screen descriptor, loop extension and trailer, and per frame its extension, descriptor and LZW's worst case besides the pixels. */
const FILE_BYTES = 64;
const FRAME_BYTES = 64;
/** LZW codes reach 12 bits: at worst 1.5 bytes a pixel, plus a length byte every 255. */
const LZW_BYTES_PER_PIXEL = 1.6;

/** Straight RGBA of `box`, the pixels equal in `before` made transparent. */
function changedPixels(rgba: Uint8Array, before: Uint8Array | null, width: number, box: FrameBox): Uint8Array {
  const out = cropRgba(rgba, width, box);
  if (!before) return out;
  const words = new Uint32Array(out.buffer), old = cropRgba(before, width, box), oldWords = new Uint32Array(old.buffer);
  for (let p = 0; p < words.length; p++) if (words[p] === oldWords[p]) words[p] = 0;
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

/** The GIF of `frames` (all one size), each keeping the colours of `kept` it draws exactly. */
export function encodeGif(frames: Iterable<AnimationFrame>, kept: readonly Color[]): Uint8Array {
  const changes = new FrameChanges(1);
  const indexed: Array<{ box: FrameBox; frame: IndexedFrame; delay: number }> = [];
  let before: Uint8Array | null = null, width = 0, height = 0;
  for (const { pixmap, durationMs } of frames) {
    ({ width, height } = pixmap);
    // The thread's shared straight copy (straight-scratch.ts): read before the next frame writes it.
    const { rgba } = straightRgba(pixmap);
    const box = changes.next(pixmap);
    indexed.push({ box, frame: indexFrame(changedPixels(rgba, before, width, box), kept), delay: Math.round(durationMs / 10) });
    before ??= new Uint8Array(rgba.length);
    before.set(rgba);
  }
  const bound = FILE_BYTES + indexed.reduce((sum, { box }) => sum + FRAME_BYTES + 3 * 256 + Math.ceil(box.width * box.height * LZW_BYTES_PER_PIXEL), 0);
  const out = new Uint8Array(bound);
  const writer = new GifWriter(out, width, height, { loop: 0 });
  for (const { box, frame, delay } of indexed) {
    writer.addFrame(box.x, box.y, box.width, box.height, frame.index, {
      palette: paddedPalette(frame.palette), delay, disposal: 1, ...(frame.transparentIndex === null ? {} : { transparent: frame.transparentIndex }),
    });
  }
  return out.slice(0, writer.end());
}
