import { describe, expect, test } from "bun:test";
import { HeapWatch, type WatchedHeap } from "../../src/serve/heap-watch.ts";

const MIB = 1024 * 1024;

/** A heap whose size the test sets; a collection leaves `live` bytes. */
function scriptedHeap(start: number) {
  const heap = {
    bytes: start,
    live: start,
    collections: 0,
    size: () => heap.bytes,
    collect: () => {
      heap.collections++;
      heap.bytes = heap.live;
    },
  };
  return heap satisfies WatchedHeap;
}

describe("the answering thread's heap watch", () => {
  test("collects once the heap has grown by the bound since it started, not before", () => {
    const heap = scriptedHeap(40 * MIB);
    const watch = new HeapWatch(24 * MIB, heap);
    heap.bytes = 63 * MIB;
    expect(watch.check()).toBe(false);
    heap.bytes = 64 * MIB;
    expect(watch.check()).toBe(true);
    expect(heap.collections).toBe(1);
    expect(watch.stats().collections).toBe(1);
  });

  test("measures growth from the size the last collection left", () => {
    const heap = scriptedHeap(40 * MIB);
    const watch = new HeapWatch(24 * MIB, heap);
    heap.live = 60 * MIB; // the caches filled meanwhile
    heap.bytes = 70 * MIB;
    expect(watch.check()).toBe(true);
    heap.bytes = 80 * MIB;
    expect(watch.check()).toBe(false);
    heap.bytes = 84 * MIB;
    expect(watch.check()).toBe(true);
    expect(heap.collections).toBe(2);
  });

  test("a collection the runtime made on its own lowers the base", () => {
    const heap = scriptedHeap(60 * MIB);
    const watch = new HeapWatch(24 * MIB, heap);
    heap.bytes = 40 * MIB;
    expect(watch.check()).toBe(false);
    heap.bytes = 64 * MIB;
    expect(watch.check()).toBe(true);
  });

  test("reads and collects this thread's heap by default", () => {
    const watch = new HeapWatch(0);
    expect(watch.check()).toBe(true);
    expect(watch.stats().collections).toBe(1);
    expect(watch.stats().seconds).toBeGreaterThan(0);
  });
});
