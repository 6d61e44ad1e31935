// The one cache type: bounds in bytes and entries, second-chance eviction,
// times to live, one computation in flight per key, and its counts.

import { describe, expect, test } from "bun:test";
import { BoundedCache, CACHE_ENTRY_OVERHEAD, type CacheRules } from "../../src/cache/bounded-cache.ts";

/** A cache of strings whose size is their length, so bytes are easy to count here. */
function stringCache(maxBytes: number, clock = { now: 0 }, sweepEveryMs = 1000, rules: Partial<CacheRules<string>> = {}) {
  return new BoundedCache<string>({ maxBytes, sizeOf: (value) => value.length, sweepEveryMs, now: () => clock.now, ...rules });
}
/** Bytes one entry of stringCache costs: key "k" (2 bytes), a value of `length`. */
const entry = (length: number) => CACHE_ENTRY_OVERHEAD + 2 + length;

describe("BoundedCache", () => {
  test("a read buys one second chance: an entry read often outlives a stream of entries read once", () => {
    const cache = stringCache(3 * entry(100));
    for (const key of ["a", "b", "c"]) cache.set(key, key.repeat(100), 60_000);
    cache.get("a");
    cache.set("d", "d".repeat(100), 60_000); // a moves back, b goes
    expect(cache.get("b")).toBeUndefined();
    cache.set("e", "e".repeat(100), 60_000); // c goes; a, unread since its move, is next
    cache.set("f", "f".repeat(100), 60_000);
    expect(["a", "c", "d", "e", "f"].filter((key) => cache.get(key) !== undefined)).toEqual(["d", "e", "f"]);
    for (let i = 0; i < 50; i++) {
      expect(cache.get("f")).toBeDefined();
      cache.set(`once${i}`, "x".repeat(100), 60_000);
    }
    expect(["d", "e", "f", "once49"].filter((key) => cache.get(key) !== undefined)).toEqual(["f", "once49"]);
    expect(cache.bytes).toBeLessThanOrEqual(3 * entry(100));
  });

  test("peek counts a hit when held and nothing when not: the getOrComputeAsync after it counts the miss, once", async () => {
    const cache = stringCache(entry(100));
    expect(cache.peek("k")).toBeUndefined();
    expect(await cache.getOrComputeAsync("k", () => "v")).toBe("v");
    expect(cache.peek("k")).toBe("v");
    expect(cache.stats).toMatchObject({ hits: 1, misses: 1 });
  });

  test("stays within its byte bound, dropping the least recently used first", () => {
    const cache = stringCache(3 * entry(100));
    cache.set("a", "a".repeat(100), 60_000);
    cache.set("b", "b".repeat(100), 60_000);
    cache.set("c", "c".repeat(100), 60_000);
    expect(cache.bytes).toBe(3 * entry(100));
    expect(cache.get("a")).toBeDefined(); // a is now the most recently used
    cache.set("d", "d".repeat(100), 60_000);
    expect(["a", "b", "c", "d"].filter((key) => cache.get(key) !== undefined)).toEqual(["a", "c", "d"]);
    cache.set("e", "e".repeat(250), 60_000); // needs the room of two
    expect(cache.size).toBe(1 + 1);
    expect(cache.bytes).toBeLessThanOrEqual(3 * entry(100));
    expect(cache.get("e")).toBeDefined();
  });

  test("holds tells whether a key still holds a value taken before (nothing: undefined), counting neither a hit nor a miss", () => {
    const clock = { now: 0 };
    const cache = stringCache(10_000, clock);
    cache.set("a", "first", 1_000);
    const first = cache.get("a")!;
    expect(cache.holds("a", first)).toBe(true);
    expect(cache.holds("b", undefined)).toBe(true);
    expect(cache.holds("a", undefined)).toBe(false);
    cache.replace("a", first, "second");
    expect(cache.holds("a", first)).toBe(false);
    expect(cache.holds("a", "second")).toBe(true);
    clock.now = 1_000;
    expect(cache.holds("a", "second")).toBe(false);
    expect(cache.holds("a", undefined)).toBe(true);
    expect(cache.stats).toMatchObject({ hits: 1, misses: 0 });
  });

  test("an entry larger than the whole bound is not kept", () => {
    const cache = stringCache(entry(10));
    cache.set("k", "x".repeat(11), 60_000);
    expect(cache.size).toBe(0);
    expect(cache.bytes).toBe(0);
  });

  test("expired entries are gone after a sweep, read or not, and give their bytes back", () => {
    const clock = { now: 0 };
    const cache = stringCache(1_000_000, clock);
    for (let i = 0; i < 100; i++) cache.set(`s${i}`, "short-lived", 1_000);
    cache.set("long", "kept", 60_000);
    clock.now += 2_000;
    cache.sweep();
    expect(cache.size).toBe(1);
    expect(cache.get("long")).toBe("kept");
    expect(cache.bytes).toBe(CACHE_ENTRY_OVERHEAD + 2 * "long".length + "kept".length);
  });

  test("a write sweeps when the sweep interval has passed", () => {
    const clock = { now: 0 };
    const cache = stringCache(1_000_000, clock, 5_000);
    for (let i = 0; i < 100; i++) cache.set(`s${i}`, "short-lived", 1_000);
    clock.now += 2_000;
    cache.set("early", "x", 60_000); // before the interval: nothing swept yet
    expect(cache.size).toBe(101);
    clock.now += 4_000;
    cache.set("late", "y", 60_000);
    expect(cache.size).toBe(2);
  });

  test("bounded in entries too, and an entry over its share of the bound is not kept", () => {
    const cache = stringCache(100 * entry(10), undefined, undefined, { maxEntries: 3, maxEntryShare: 1 / 4 });
    for (const key of ["a", "b", "c", "d"]) cache.set(key, "x".repeat(10));
    expect(cache.size).toBe(3);
    expect(cache.get("a")).toBeUndefined();
    cache.set("k", "x".repeat(25 * entry(10))); // over a quarter of the bound: would flush the others
    expect(cache.get("k")).toBeUndefined();
    expect(cache.size).toBe(3);
  });

  test("entries without a time to live never expire, and the clock is not read for them", () => {
    let reads = 0;
    const cache = new BoundedCache<string>({ maxBytes: 1_000_000, sizeOf: (value) => value.length, now: () => reads++ });
    cache.set("k", "kept");
    for (let i = 0; i < 10; i++) expect(cache.get("k")).toBe("kept");
    cache.set("other", "value");
    expect(reads).toBe(0);
  });

  test("counts hits, misses and evictions", () => {
    const cache = stringCache(2 * entry(100));
    expect(cache.get("a")).toBeUndefined();
    cache.set("a", "a".repeat(100));
    cache.set("b", "b".repeat(100));
    cache.get("a");
    cache.set("c", "c".repeat(100)); // b goes
    expect(cache.stats).toEqual({ entries: 2, bytes: 2 * entry(100), maxBytes: 2 * entry(100), hits: 1, misses: 1, evictions: 1 });
  });

  test("getOrCompute computes a missing value once and keeps it", () => {
    const cache = stringCache(1_000_000);
    let computed = 0;
    const compute = () => `value ${++computed}`;
    expect(cache.getOrCompute("k", compute)).toBe("value 1");
    expect(cache.getOrCompute("k", compute)).toBe("value 1");
    expect(computed).toBe(1);
    expect(cache.stats).toMatchObject({ hits: 1, misses: 1 });
  });

  test("getOrComputeAsync: requests for a key being computed wait for that one computation", async () => {
    const cache = stringCache(1_000_000);
    let computed = 0;
    let finish: (value: string) => void = () => {};
    const compute = () => {
      computed++;
      return new Promise<string>((resolve) => (finish = resolve));
    };
    expect(cache.computing("k")).toBe(false);
    const waiting = [1, 2, 3].map(() => cache.getOrComputeAsync("k", compute));
    expect(computed).toBe(1);
    // Known at once, before the computation yields: a caller may decide on it (a budget spent by draws only).
    expect(cache.computing("k")).toBe(true);
    finish("drawn");
    expect(await Promise.all(waiting)).toEqual(["drawn", "drawn", "drawn"]);
    expect(cache.computing("k")).toBe(false);
    expect(await cache.getOrComputeAsync("k", compute)).toBe("drawn");
    expect(computed).toBe(1);
    expect(cache.stats).toMatchObject({ entries: 1, hits: 3, misses: 1 });
  });

  test("getOrComputeAsync keeps a value for the time keepFor gives, or not at all; a failure keeps nothing", async () => {
    const clock = { now: 0 };
    const cache = stringCache(1_000_000, clock);
    const keepFor = (value: string) => (value === "busy" ? null : 1_000);
    expect(await cache.getOrComputeAsync("a", () => "busy", keepFor)).toBe("busy");
    expect(await cache.getOrComputeAsync("a", () => "answer", keepFor)).toBe("answer");
    expect(await cache.getOrComputeAsync("a", () => "again", keepFor)).toBe("answer");
    clock.now += 1_000;
    expect(await cache.getOrComputeAsync("a", () => "later", keepFor)).toBe("later");

    const failing = () => Promise.reject(new Error("no"));
    const both = [cache.getOrComputeAsync("b", failing), cache.getOrComputeAsync("b", failing)];
    for (const attempt of both) await expect(attempt).rejects.toThrow("no");
    expect(await cache.getOrComputeAsync("b", () => "recovered")).toBe("recovered");
  });
});
