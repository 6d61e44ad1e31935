import { describe, expect, test } from "bun:test";
import { CACHE_ENTRY_OVERHEAD, TtlCache } from "../src/ttl-cache.ts";

/** A cache of strings whose size is their length, so bytes are easy to count here. */
function stringCache(maxBytes: number, clock = { now: 0 }, sweepEveryMs = 1000) {
  return new TtlCache<string>({ maxBytes, sizeOf: (value) => value.length, sweepEveryMs, now: () => clock.now });
}
/** Bytes one entry of stringCache costs: key "k" (2 bytes), a value of `length`. */
const entry = (length: number) => CACHE_ENTRY_OVERHEAD + 2 + length;

describe("TtlCache", () => {
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
});
