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
import type { Pixmap } from "../pixmap.ts";
import { straightRgba } from "./straight-scratch.ts";
import { cropPixmap, cropRgba, FrameChanges, onCanvas, type Animation, type FrameBox } from "./animation-frame.ts";
import { indexFrame, type IndexedFrame } from "./gif-palette.ts";

/** GIF's file header, screen descriptor, loop extension and trailer, and per frame its extension, descriptor and LZW's worst case besides the pixels. */
const FILE_BYTES = 64;
const FRAME_BYTES = 64;
/** LZW codes reach 12 bits: at worst 1.5 bytes a pixel, plus a length byte every 255. */
const LZW_BYTES_PER_PIXEL = 1.6;

/** Straight RGBA of `box`, the pixels equal in `before` (read in place, not cropped: one copy a frame, not two) made transparent. */
function changedPixels(rgba: Uint8Array, before: Uint32Array, width: number, box: FrameBox): Uint8Array {
  const out = cropRgba(rgba, width, box);
  const words = new Uint32Array(out.buffer);
  for (let row = 0, p = 0; row < box.height; row++) {
    const from = (box.y + row) * width + box.x;
    for (let x = 0; x < box.width; x++, p++) if (words[p] === before[from + x]) words[p] = 0;
  }
  return out;
}

/** The straight RGBA of `pixmap` as words; the pixmap is freed (free-now.ts). */
function straightWords(pixmap: Pixmap): Uint32Array {
  const words = new Uint32Array(pixmap.toStraightRgba().buffer);
  freeNow(pixmap.data);
  return words;
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
 * The GIF of `animation`, each frame keeping the colours of `kept` it draws
 * exactly. What it holds at once: the straight copy (4 bytes a pixel), the
 * region of the frame before and FrameChanges' copy of it (4 bytes a pixel of
 * the region each), one frame's changed pixels, then every frame's indices
 * (1 byte a pixel) and the file (at most 1.6 bytes a pixel a frame, then its
 * copy). Each buffer is
 * freed at once when done (free-now.ts), where every frame's two crops, its
 * indices and the file's bound were left for the collector (issue 38,
 * docs/performance-notes.md). A still holds only the straight copy, its
 * indices and the file.
 */
export function encodeGif({ first, later }: Animation, kept: readonly Color[]): Uint8Array {
  const { width, height } = first.pixmap;
  // The thread's shared straight copy (straight-scratch.ts): each read before the next frame writes it.
  const indexed: Array<{ box: FrameBox; frame: IndexedFrame; delay: number }> = [
    { box: { x: 0, y: 0, width, height }, frame: indexFrame(straightRgba(first.pixmap).rgba, kept), delay: Math.round(first.durationMs / 10) },
  ];
  // What later frames are compared with, made at the first of them (a still has none).
  let changes: FrameChanges | null = null, before: Uint32Array | null = null;
  try {
    const { region, frames } = later();
    for (const { pixmap, durationMs } of frames) {
      changes ??= new FrameChanges(1, first.pixmap, region);
      before ??= straightWords(cropPixmap(first.pixmap, region));
      const { rgba } = straightRgba(pixmap);
      const box = changes.next(pixmap);
      const changed = changedPixels(rgba, before, region.width, box);
      indexed.push({ box: onCanvas(box, region), frame: indexFrame(changed, kept), delay: Math.round(durationMs / 10) });
      freeNow(changed);
      before.set(new Uint32Array(rgba.buffer, rgba.byteOffset, rgba.length / 4));
    }
  } finally {
    changes?.end();
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
