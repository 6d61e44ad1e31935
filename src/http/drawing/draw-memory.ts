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
 * Each thread that draws or answers drawings asks for a collection once what
 * its drawings left since its last one adds up to a bound; otherwise the
 * collector lets a heap grow to 2-3 times its live size in a storm of new
 * images. The answering thread only starts a collection (Bun.gc(false), ~1
 * ms: a full one of its heap of caches takes 30-120 ms, which /healthz would
 * wait), every 16 MiB of answeredMemory: every ~100 drawings, banners or
 * badges. Through 6,000 distinct banners then 20,000 distinct badges
 * (bench/threads.ts), the badge storm's peak went from 512-596 MiB to 469-478
 * MiB with it.
 */
export const ANSWERING_THREAD_COLLECT_AFTER_BYTES = 16 * MIB;
/**
 * A render thread collects in full after its answer, every 64 MiB. A full
 * collection is not free: JavaScriptCore's helper threads mark in parallel on
 * the other cores, and every 16 MiB (every 3 banners of a mix of sizes) they
 * took 1 ms of CPU per banner beside the thread's 3.3-4.7, on cores a second
 * render thread needs (new banners of every size, PNG and WebP, 2 cores:
 * one thread 173 a second at 16 MiB, 231 at 64; two threads 264 at 16, 382
 * at 64). The storms' peak was the same at 64 MiB as at 16 (banners 415-434
 * MiB, badges 485-503) and higher without render-thread collections
 * (505/505), so 64 it is.
 */
export const RENDER_THREAD_COLLECT_AFTER_BYTES = 64 * MIB;

const ANSWER_OBJECTS_BYTES = 128 * 1024;

/**
 * What answering one drawing from a render thread leaves on the answering
 * thread's heap: its encoded bytes and the request's objects (plan, job,
 * headers, promises), counted as 128 KiB: every ~100 answers, as often as
 * a badge's drawing memory counted before. Not the drawing's transient memory,
 * which stayed on the render thread: counting that, the answering thread
 * collected every 3 banners of a mix of sizes, 0.2 ms of its CPU per banner
 * (0.56 against 0.34 ms), for a peak no lower (banner storm 434-450 MiB
 * either way; the badge storm's peak, 503-547 MiB over five runs, moves
 * that much from run to run).
 */
export function answeredMemory(encodedBytes: number): number {
  return ANSWER_OBJECTS_BYTES + encodedBytes;
}

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
 * palette's index and the writer's growing output (~6 with the pixmap's 4).
 * An SVG has no pixmap: a few hundred bytes of text, whatever its size.
 */
const BYTES_PER_PIXEL = { "image/png": 16, "image/webp": 70, "image/gif": 8, "image/svg+xml": 0 } as const;

/**
 * An animation holds a pixmap per state and one for the fading frame
 * (src/banner/animated-banner.ts) beside one frame's encoding at a time.
 */
const ANIMATION_PIXMAP_BYTES = 4 * (MAX_STATES + 1);

/** Bytes a drawing of `pixels` (of `frames` frames) encoded as `contentType` holds while it runs. */
export function drawingMemory({ pixels, contentType, frames = 1 }: Pick<ImagePlan<unknown>, "pixels" | "contentType" | "frames">): number {
  return pixels * (BYTES_PER_PIXEL[contentType] + (frames > 1 ? ANIMATION_PIXMAP_BYTES : 0));
}
