// The answering thread's heap, kept near what it holds. Under a storm of
// requests, each one's objects are still in flight when the young generation
// is collected, so they are promoted and die old; the runtime's own full
// collections come only once the heap has doubled since the last one. A look
// at the heap's size twice a second, and a full collection once it has
// outgrown its smallest size since the last one by
// HEAP_GROWTH_BEFORE_COLLECTION_BYTES, keeps it at that much garbage. A
// collection stops this thread for as long as marking the caches' objects
// takes; a storm of large banners leaves too little here to start one. The
// storms of bench/threads.ts measure the peak it keeps (docs/performance.md;
// why and what was tried: docs/performance-notes.md, "The answering thread").
// Render threads collect on their own (render-worker.ts).

import { fullGC, heapSize } from "bun:jsc";
import type { HeapWatchStats } from "../metrics/service-metrics.ts";

const MIB = 1024 * 1024;

/**
 * The garbage the answering thread's heap may hold before it is collected in
 * full: the smallest bound whose peak was lower than the next larger one's in
 * the storms (half of it collected twice as often for no lower peak), at one
 * collection at most every HEAP_WATCH_INTERVAL_MS (docs/performance-notes.md).
 */
export const HEAP_GROWTH_BEFORE_COLLECTION_BYTES = 12 * MIB;
/**
 * How often the heap's size is read (a read visits every block of the heap).
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
