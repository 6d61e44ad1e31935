// What a drawing in flight holds besides the caches, estimated from what it
// draws: its pixmap (4 bytes a pixel), the PNG encoder's straight and
// filtered copies with zlib's window (~12 more), and for WebP the encoder's
// wasm memory, which grows past its first 16 MiB for large images (to 40 MiB
// for 2400x600, src/render/encode/webp.ts), counted generously at 70 bytes a
// pixel with the pixmap and the straight copy; an animation besides holds its
// states where they differ and, per frame, what its encoder keeps of each
// until the file is written (drawingMemory). The pool admits drawings while the
// sum stays within DRAWING_MEMORY_BYTES, so how many large drawings run at
// once does not follow the thread count. The sum is an estimate, not what the
// process's peak grows by: bench/threads.ts's storms measure that
// (docs/performance.md; why each bound below is what it is, with the runs that
// chose it: docs/performance-notes.md, "Render threads and their collections").

import { statesOf } from "../../banner/animation.ts";
import type { ImagePlan } from "../../image-plan.ts";
import { LARGE_WEBP_PIXELS } from "../../render/basics.ts";
import type { GarbageCollection } from "./render-messages.ts";

const MIB = 1024 * 1024;

/**
 * The transient memory all drawings in flight may hold together (one drawing
 * is always admitted). 50 MiB: a 1200x300 WebP at scale 2 (96 MiB counted)
 * runs alone, while a PNG of that size (22) leaves room for smaller drawings
 * beside it, and any two banners at scale 1 run side by side (two 1200x300
 * WebPs: 48.1), as with more. Drawings beside a large WebP cost the peak far
 * more than their estimates, so the bound trades a longer banner storm for a
 * lower peak; just below two 1200x300 WebPs at scale 1, those two could not
 * run together and the throughput bench lost (docs/performance-notes.md).
 */
export const DRAWING_MEMORY_BYTES = 50 * MIB;

/**
 * Whether a drawing of `memory` (drawingMemory) runs alone: counted past the
 * bound, it waits until nothing else is drawn. Every render thread collects
 * its garbage in full before it (render-pool.ts), so that the largest
 * drawings, which make the process's peak, stand on the least the threads
 * hold (docs/performance-notes.md, "Memory: the largest drawings").
 */
export const runsAlone = (memory: number): boolean => memory > DRAWING_MEMORY_BYTES;

/**
 * The answering thread starts a young-generation collection (Bun.gc(false):
 * an eden collection, quick to start) every 16 MiB of what answering
 * drawings left on it (answeredMemory: every ~100 answers, banners or
 * badges). Why it helps beside the runtime's own eden collections is not
 * pinned down; what it does is measured: the badge storm of bench/threads.ts
 * peaks lowest with both it and the heap watch (../heap-watch.ts), which
 * collects in full when the heap grows; more often was slower, less often
 * higher (docs/performance-notes.md, "The answering thread").
 */
export const ANSWERING_THREAD_COLLECT_AFTER_BYTES = 16 * MIB;
/**
 * A render thread collects right after its answer (from the event loop, not
 * the drawing's stack: render-worker.ts says why) once its drawings left this
 * much (drawingGarbage): every ~30 banners of a mix of sizes at scale 1, every
 * few hundred badges. What kind of collection follows what it drew
 * (CollectionSchedule): what a banner made dies young, so banners get a young
 * collection; badges a full one, and so does a WebP large enough that
 * its encoder's grown memory was dropped, at once.
 */
export const RENDER_THREAD_COLLECT_AFTER_BYTES = 32 * MIB;
/**
 * Besides, a render thread makes a young-generation collection (edenGC, from
 * the event loop as above) after every this many badges. Badges come by
 * thousands a second and each leaves little, so the full collections above
 * come only every few hundred; in between, the storm's peak grew. Badges
 * alone are counted: when banners were collected in full, a young collection
 * every 50 drawings of any kind cost their throughput (banners now have young
 * collections of their own, by the garbage they leave). The badge storm of
 * bench/threads.ts measures what it saves (docs/performance-notes.md).
 */
export const RENDER_THREAD_YOUNG_COLLECTION_EVERY_BADGES = 50;

/** A drawing's objects (plan, layout, shaped runs, paths), counted at the high end of what heapSize() around a drawing showed. */
const DRAWING_OBJECTS_BYTES = 128 * 1024;
/**
 * What a drawing leaves for its pixels: deflate's output and pixmaps the
 * spare ones had no room for, a few bytes a pixel for PNGs and large WebPs
 * (heapSize() around each drawing of bench/threads.ts's banner storm).
 * Counted at 8 for every drawing, twice what was seen: of the counts tried it
 * gave the lowest peak, in the same time (docs/performance-notes.md).
 */
const DRAWING_GARBAGE_BYTES_PER_PIXEL = 8;
/** A large WebP's encoder memory, dropped after it (src/render/encode/webp.ts): 40 MiB for 1200x300 at scale 2. */
const DROPPED_WEBP_ENCODER_BYTES_PER_PIXEL = 28;

type Drawn = Pick<ImagePlan<unknown>, "pixels" | "contentType">;

/** Whether the WebP encoder's instance, grown by this drawing, was dropped after it (src/render/encode/webp.ts). */
export const dropsEncoder = ({ pixels, contentType }: Drawn): boolean => contentType === "image/webp" && pixels > LARGE_WEBP_PIXELS;

/**
 * What a drawing leaves on its render thread's heap for the collector: its
 * objects, what it leaves for its pixels, and a large WebP's dropped encoder;
 * an animation, its objects and pixels' worth for each state it drew (its
 * frames' buffers are freed at once by the encoders). Not its straight copy
 * (a scratch buffer reused by every encode) nor its encoded bytes
 * (transferred to the answering thread).
 */
export function drawingGarbage(drawing: Drawn & Pick<ImagePlan<unknown>, "frames">): number {
  const droppedEncoder = dropsEncoder(drawing) ? drawing.pixels * DROPPED_WEBP_ENCODER_BYTES_PER_PIXEL : 0;
  return statesOf(drawing.frames ?? 1) * (DRAWING_OBJECTS_BYTES + drawing.pixels * DRAWING_GARBAGE_BYTES_PER_PIXEL) + droppedEncoder;
}

const ANSWER_OBJECTS_BYTES = 128 * 1024;

/**
 * What answering one drawing from a render thread leaves on the answering
 * thread's heap: its encoded bytes and the request's objects (plan, job,
 * headers, promises), counted as 128 KiB.
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

  /** Counting starts again: a collection came from elsewhere. */
  reset(): void {
    this.since = 0;
  }
}

/**
 * What a render thread's next collection is once it has drawn a drawing:
 * full, young or none yet. Its kind follows the garbage's age.
 * - A banner's garbage (its objects, deflate's output, pixmaps) was made by
 *   the drawing just answered: a young collection frees it. A full one
 *   found almost nothing the young ones had not freed, and cost the second
 *   render thread's throughput in the collector's threads; young, the banner
 *   storm's peak is the same.
 * - A dropped WebP encoder lived through many drawings: old, only a full
 *   collection frees its memory, at once.
 * - Badges' garbage outlives young collections (their caches' entries, one
 *   colour each in a storm): with young collections alone the badge storm
 *   peaked far higher than in full every RENDER_THREAD_COLLECT_AFTER_BYTES
 *   of theirs.
 * The runs: docs/performance-notes.md, "Render threads and their collections".
 */
export class CollectionSchedule {
  /** What every drawing but a badge left (banners, error images, SVG badges), since the last collection. */
  private readonly bannerGarbage = new GarbageTally(RENDER_THREAD_COLLECT_AFTER_BYTES);
  /** What badges left since the last full collection. */
  private readonly badgeGarbage = new GarbageTally(RENDER_THREAD_COLLECT_AFTER_BYTES);
  /** Badges drawn since the last collection of either kind. */
  private badges = 0;

  after(drawing: Drawn & Pick<ImagePlan<unknown>, "frames"> & { job: { kind: string } }): GarbageCollection | null {
    if (dropsEncoder(drawing)) return this.collect("full");
    if (drawing.job.kind === "badge") {
      this.badges++;
      if (this.badgeGarbage.add(drawingGarbage(drawing))) return this.collect("full");
    } else if (this.bannerGarbage.add(drawingGarbage(drawing))) {
      return this.collect("young");
    }
    return this.badges >= RENDER_THREAD_YOUNG_COLLECTION_EVERY_BADGES ? this.collect("young") : null;
  }

  /** A full collection came from elsewhere (before a drawing that runs alone): nothing counted before it is left. */
  collectedInFull(): void {
    this.collect("full");
  }

  /** What a collection of `kind` frees is no longer counted. */
  private collect(kind: GarbageCollection): GarbageCollection {
    this.badges = 0;
    this.bannerGarbage.reset();
    if (kind === "full") this.badgeGarbage.reset();
    return kind;
  }
}

/**
 * The encoders' bytes per pixel of a still, with its pixmap's 4. GIF: 24,
 * what a 1200x300 at scale 2 raised a fresh render thread's peak by when it
 * held the straight copy, a copy for FrameChanges, the frame before and its
 * changed pixels besides its indices and file (counted 8 before issue 38);
 * a still now holds the straight copy, its indices and the file
 * (src/render/encode/gif.ts), and 24 is kept as a bound with room. An SVG
 * has no pixmap: a few hundred bytes of text, whatever its size.
 */
const BYTES_PER_PIXEL = { "image/png": 16, "image/webp": 70, "image/gif": 24, "image/svg+xml": 0 } as const;

/**
 * What an animation holds per frame until its file is written, by the
 * frame's pixels (every frame counted whole, though after the first only the
 * rectangle that changed is kept): a GIF its indices (1 byte a pixel) and
 * their part of the file and of its copy (1.6 each); a WebP its frame's
 * encoded chunk, copied twice into the file (lossless flat art, well under a
 * byte a pixel, counted 2 in all).
 */
const FRAME_BYTES_PER_PIXEL = { "image/png": 0, "image/webp": 2, "image/gif": 4, "image/svg+xml": 0 } as const;

/**
 * An animation's pixmaps beyond the still's: the state drawn beside the first,
 * and each state, the fading frame and the copies of the frame before where
 * the states differ (src/render/encode/state-regions.ts: one line of text).
 * Counted 4 bytes a pixel of the canvas per state and one more, as when every
 * state was held whole; bench/drawing-peak.ts measures what such a drawing
 * raises a thread's peak by, well under this (docs/performance-notes.md).
 */
const statePixmapBytes = (frames: number) => 4 * (statesOf(frames) + 1);

/**
 * Bytes a drawing of `pixels` (of `frames` frames) encoded as `contentType`
 * holds while it runs: a still's, and for an animation its state pixmaps
 * and what each frame holds (issue 38: a GIF was counted 32 bytes a pixel
 * whatever its frames, and an animated 1200x300 GIF of 9 frames raised a
 * fresh render thread's peak by 53; counted 76 now).
 */
export function drawingMemory({ pixels, contentType, frames = 1 }: Pick<ImagePlan<unknown>, "pixels" | "contentType" | "frames">): number {
  const animation = frames > 1 ? statePixmapBytes(frames) + frames * FRAME_BYTES_PER_PIXEL[contentType] : 0;
  return pixels * (BYTES_PER_PIXEL[contentType] + animation);
}
