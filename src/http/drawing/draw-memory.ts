// What a drawing in flight holds besides the caches, estimated from what it
// draws: its pixmap (4 bytes a pixel), the PNG encoder's straight and
// filtered copies with zlib's window (~12 more), and for WebP the encoder's
// wasm memory, which grows past its first 16 MiB for large images (to ~100
// MiB for 2400x600: measured with process.memoryUsage().arrayBuffers around
// one encode, src/render/encode/webp.ts). The pool admits drawings while the
// sum stays within DRAWING_MEMORY_BYTES, so a storm of large banners costs
// that much memory at most, whatever the thread count.

import type { ImageType } from "../../image-plan.ts";

const MIB = 1024 * 1024;

/** The transient memory all drawings in flight may hold together (one drawing is always admitted). */
export const DRAWING_MEMORY_BYTES = 128 * MIB;

/**
 * A drawing above this leaves garbage worth collecting at once: its thread
 * does (a full collection of a small heap, a few ms), rather than let each
 * thread's heap grow to its own high-water mark before the collector runs.
 * Measured on a 2-thread server drawing 560 banners of every size at scale 2,
 * a quarter of them 1200x300: peak RSS ~310 MiB with, ~380-420 MiB without.
 */
export const COLLECT_AFTER_BYTES = 16 * MIB;

const PNG_BYTES_PER_PIXEL = 16;
const WEBP_BYTES_PER_PIXEL = 70;

/** Bytes a drawing of `pixels` encoded as `contentType` holds while it runs. */
export function drawingMemory(pixels: number, contentType: ImageType): number {
  return pixels * (contentType === "image/webp" ? WEBP_BYTES_PER_PIXEL : PNG_BYTES_PER_PIXEL);
}
