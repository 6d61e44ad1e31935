// What crosses between the pool (render-pool.ts) and a render thread
// (render-worker.ts): plain data only (structured clone), images as
// transferred buffers.

import type { CacheStats } from "../../cache/bounded-cache.ts";
import type { CacheBytes, CacheName } from "../../config.ts";
import type { DrawJob } from "../../http/drawing/drawer.ts";

export type ToRenderThread =
  /** First message: the bytes of this thread's drawing caches. */
  | { type: "start"; cacheBytes: CacheBytes }
  /**
   * collect, once it has answered: the collection its drawings so far call for, young or full, or none
   * yet (draw-memory.ts's CollectionSchedule).
   */
  | { type: "draw"; id: number; job: DrawJob; collect: GarbageCollection | null }
  /** A full collection, before the next job: one that runs alone follows (draw-memory.ts's runsAlone). */
  | { type: "collect" };

export type GarbageCollection = "full" | "young";

/** Each answer carries the thread's cache usage after the drawing, for /metrics without a round trip. */
export type FromRenderThread =
  | { id: number; bytes: Uint8Array; usage: Array<[CacheName, CacheStats]> }
  | { id: number; error: string; usage: Array<[CacheName, CacheStats]> };
