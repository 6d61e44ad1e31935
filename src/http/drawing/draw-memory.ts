// What a drawing in flight holds besides the caches, estimated from what it
// draws: its pixmap (4 bytes a pixel), the PNG encoder's straight and
// filtered copies with zlib's window (~12 more), and for WebP the encoder's
// wasm memory, which grows past its first 16 MiB for large images (to ~100
// MiB for 2400x600: measured with process.memoryUsage().arrayBuffers around
// one encode, src/render/encode/webp.ts). The pool admits drawings while the
// sum stays within DRAWING_MEMORY_BYTES, so a storm of large banners costs
// that much memory at most, whatever the thread count.

import { MAX_STATES } from "../../banner/animation.ts";
import type { ImagePlan } from "../../image-plan.ts";

const MIB = 1024 * 1024;

/** The transient memory all drawings in flight may hold together (one drawing is always admitted). */
export const DRAWING_MEMORY_BYTES = 128 * MIB;

/**
 * Each thread that draws or answers drawings asks for a collection once the
 * drawings since its last one add up to this much transient memory (one
 * large banner, or some hundreds of badges); otherwise the collector lets a
 * heap grow to 2-3 times its live size in a storm of new images. A render
 * thread collects in full after its answer (a small heap: a few ms); the
 * answering thread only starts a collection (Bun.gc(false), ~1 ms: a full
 * one of its heap of caches takes 30-120 ms, which /healthz would wait).
 * Measured on a 2-thread server drawing 560 banners of every size at scale
 * 2, a quarter of them 1200x300: peak RSS ~310 MiB with the render threads'
 * collections, ~380-420 MiB without; and through 6,000 distinct banners then
 * 20,000 distinct badges (bench/threads.ts), the badge storm's peak went from
 * 512-596 MiB to 469-478 MiB with the answering thread's.
 */
export const COLLECT_AFTER_BYTES = 16 * MIB;

/** Adds up the transient memory of finished drawings and says when a collection is due. */
export class GarbageTally {
  private since = 0;

  constructor(private readonly every: number) {}

  /** Counts a finished drawing's `bytes`; true when they reach the bound since the last true. */
  add(bytes: number): boolean {
    this.since += bytes;
    if (this.since < this.every) return false;
    this.since = 0;
    return true;
  }
}

/**
 * The encoders' bytes per pixel of one image: GIF's are a straight copy, the
 * palette's index and gifenc's growing output (~6 with the pixmap's 4).
 */
const BYTES_PER_PIXEL = { "image/png": 16, "image/webp": 70, "image/gif": 8 } as const;

/**
 * An animation holds a pixmap per state and one for the fading frame
 * (src/banner/animated-banner.ts) beside one frame's encoding at a time.
 */
const ANIMATION_PIXMAP_BYTES = 4 * (MAX_STATES + 1);

/** Bytes a drawing of `pixels` (of `frames` frames) encoded as `contentType` holds while it runs. */
export function drawingMemory({ pixels, contentType, frames = 1 }: Pick<ImagePlan<unknown>, "pixels" | "contentType" | "frames">): number {
  return pixels * (BYTES_PER_PIXEL[contentType] + (frames > 1 ? ANIMATION_PIXMAP_BYTES : 0));
}
