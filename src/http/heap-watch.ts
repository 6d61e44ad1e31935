// The answering thread's heap, kept near what it holds. Under a storm of
// requests, each one's objects are still in flight when the young generation
// is collected (every ~10 MiB allocated, ~500 connections waiting), so they
// are promoted and die old; the runtime's own full collections come only once
// the heap has doubled since the last one (from ~40 to ~90 MiB in the badge
// storm of bench/threads.ts). A look at the heap's size twice a second, and a
// full collection once it has outgrown its smallest size since the last one
// by HEAP_GROWTH_BEFORE_COLLECTION_BYTES, keeps it at that much garbage.
// Measured (2 render threads, 6,000 banners then 20,000 badges, beside the
// eden collections of drawing/draw-memory.ts): VmHWM 419-432 against 472-501
// MiB without the watch (at 24 MiB of growth); badges alone 268-274 against
// 305-316, as fast. A collection stops this thread for ~15-40 ms (it marks the
// caches' objects); a storm of large banners leaves too little here to start
// one. Render threads collect on their own (render-worker.ts).

import { fullGC, heapSize } from "bun:jsc";

const MIB = 1024 * 1024;

/**
 * The garbage the answering thread's heap may hold before it is collected in
 * full. 12 MiB: the storms above (with the render threads' jobs handed ahead)
 * peaked at 369-376 MiB against 390-395 at 24 MiB, banners 348-352 against
 * 356-359, as fast; with 36-38 collections of ~16-18 ms each (0.56-0.68 s in
 * all, one at most every HEAP_WATCH_INTERVAL_MS) against 19-20 (0.31-0.33 s).
 * At 8 MiB, 370-376 with 45: no lower.
 */
export const HEAP_GROWTH_BEFORE_COLLECTION_BYTES = 12 * MIB;
/**
 * How often the heap's size is read (~0.4 ms a read with ~100 MiB of caches).
 * From a timer: a stack of its own, so that the collection keeps nothing alive
 * that a request's code had just dropped (the collector scans the stack).
 */
export const HEAP_WATCH_INTERVAL_MS = 500;

/** The heap a watch reads and collects: this thread's, or a test's. */
export interface WatchedHeap {
  /** Bytes the heap holds now, garbage not yet collected included. */
  size(): number;
  /** Collects in full, synchronously. */
  collect(): void;
}

const THIS_THREAD: WatchedHeap = { size: heapSize, collect: fullGC };

/** The collections a watch made, for /metrics. */
export interface HeapWatchStats {
  collections: number;
  seconds: number;
}

/** The policy and its count; the server runs `check` every HEAP_WATCH_INTERVAL_MS (a PeriodicTask, app.ts). */
export class HeapWatch {
  #base: number;
  #collections = 0;
  #seconds = 0;

  constructor(
    private readonly growth = HEAP_GROWTH_BEFORE_COLLECTION_BYTES,
    private readonly heap: WatchedHeap = THIS_THREAD,
  ) {
    this.#base = heap.size();
  }

  /** One look at the heap: collects when it outgrew its smallest size since the last collection by `growth`. */
  check(): boolean {
    const size = this.heap.size();
    // Smaller than before: the runtime collected on its own.
    if (size < this.#base) this.#base = size;
    if (size - this.#base < this.growth) return false;
    const started = performance.now();
    this.heap.collect();
    this.#seconds += (performance.now() - started) / 1000;
    this.#collections++;
    this.#base = this.heap.size();
    return true;
  }

  stats(): HeapWatchStats {
    return { collections: this.#collections, seconds: this.#seconds };
  }
}
