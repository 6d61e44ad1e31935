import { describe, expect, test } from "bun:test";
import { heapStats } from "bun:jsc";
import { Semaphore } from "../../src/lookup/bounds.ts";
import { estimateBytes } from "../../src/cache/bounded-cache.ts";
import { parsePlugins } from "../../src/lookup/query.ts";
import { fromModern, withQuery, type LookupResult } from "../../src/lookup/result.ts";
import { nearMaximalStatus } from "../support/lookup-replies.ts";

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

  test("a waiter leaves the line after maxWaitMs without running, and the line moves on past it", async () => {
    const slots = new Semaphore(1, 5);
    let release = () => {};
    const holder = slots.run(() => new Promise<string>((resolve) => (release = () => resolve("held"))));
    const started: string[] = [];
    const impatient = slots.run(async () => started.push("impatient"), 20);
    const patient = slots.run(async () => started.push("patient"));
    expect(await impatient).toBeNull();
    release();
    expect(await holder).toBe("held");
    await patient;
    expect(started).toEqual(["patient"]);
    expect(slots.inUse).toBe(0);
  });
});
