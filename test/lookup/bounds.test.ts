import { describe, expect, test } from "bun:test";
import { heapStats } from "bun:jsc";
import { CACHE_ENTRY_OVERHEAD, estimateBytes, Semaphore, TtlCache } from "../../src/lookup/bounds.ts";
import { parsePlugins } from "../../src/lookup/query.ts";
import { fromModern, withQuery, type LookupResult } from "../../src/lookup/result.ts";
import { nearMaximalStatus } from "../support/lookup-replies.ts";

/** A cache of strings whose size is their length, so bytes are easy to count here. */
function stringCache(maxBytes: number, clock = { now: 0 }, sweepEveryMs = 1000) {
  return new TtlCache<string>({ maxBytes, sizeOf: (value) => value.length, sweepEveryMs, now: () => clock.now });
}
/** Bytes one entry of stringCache costs: key "k" (2 bytes), a value of `length`. */
const entry = (length: number) => CACHE_ENTRY_OVERHEAD + 2 + length;

describe("TtlCache", () => {
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

describe("estimateBytes", () => {
  test("counts strings at 2 bytes a character, typed arrays by their bytes, and every nested part", () => {
    expect(estimateBytes("x".repeat(1000)) - estimateBytes("")).toBe(2000);
    expect(estimateBytes(new Uint8Array(5000)) - estimateBytes(new Uint8Array(0))).toBe(5000);
    const nested = { list: ["a".repeat(100), { deep: "b".repeat(100) }] };
    expect(estimateBytes(nested)).toBeGreaterThan(400);
  });

  test("is at least the heap near-maximal results really hold", () => {
    const target = { edition: "java" as const, host: "play.example.com", port: 25565, ipAddress: "203.0.113.1", srvRecord: null };
    // Query's plugin list is one long string the names are cut from.
    const plugins = Array.from({ length: 400 }, (_, i) => `Plugin-${i}-${"★".repeat(60)} 1.0.${i}`).join("; ");
    const kept: LookupResult[] = [];
    let estimated = 0;
    Bun.gc(true);
    const before = heapStats().heapSize;
    for (let seed = 0; seed < 300; seed++) {
      // Parsed from text like a reply off the wire: its strings are the reply's own.
      const status = JSON.parse(JSON.stringify(nearMaximalStatus(seed)));
      const query = parsePlugins(JSON.parse(JSON.stringify(`Paper on 1.21: ${plugins} ${seed}`)));
      const result = withQuery(fromModern(target, status, 1), { values: {}, players: [], software: query.software, plugins: query.plugins, map: "world" });
      kept.push(result);
      estimated += estimateBytes(result);
    }
    Bun.gc(true);
    const held = heapStats().heapSize - before;
    expect(kept).toHaveLength(300);
    expect(held).toBeLessThanOrEqual(estimated);
    // And what is kept is small: a 31 KB reply with 4,096 runs costs ~580 KB when its runs are kept.
    expect(estimated / 300).toBeLessThan(64 * 1024);
  });
});

describe("Semaphore", () => {
  test("runs at most `limit` tasks at once, queues the next ones in order, refuses beyond the line", async () => {
    const slots = new Semaphore(2, 1);
    const releases: Array<() => void> = [];
    const started: number[] = [];
    const task = (id: number) => () =>
      new Promise<number>((resolve) => {
        started.push(id);
        releases.push(() => resolve(id));
      });
    const runs = [slots.run(task(1)), slots.run(task(2)), slots.run(task(3))];
    await Bun.sleep(0);
    expect(started).toEqual([1, 2]);
    expect(await slots.run(task(4))).toBeNull(); // the line (1) is full
    releases.shift()!();
    await runs[0];
    await Bun.sleep(0);
    expect(started).toEqual([1, 2, 3]);
    releases.splice(0).forEach((release) => release());
    expect(await Promise.all(runs)).toEqual([1, 2, 3]);
  });
});
