// When a thread that draws asks for a collection (draw-memory.ts): once the
// drawings since its last one add up to the bound, however they are split:
// one large banner at once, or many badges one after another.

import { describe, expect, test } from "bun:test";
import { COLLECT_AFTER_BYTES, drawingMemory, GarbageTally } from "../../../src/http/drawing/draw-memory.ts";

describe("GarbageTally", () => {
  test("small drawings add up: a collection is due when their sum reaches the bound, and counting starts again", () => {
    const tally = new GarbageTally(100);
    expect([30, 30, 30].map((bytes) => tally.add(bytes))).toEqual([false, false, false]);
    expect(tally.add(10)).toBe(true);
    // After a collection, the bound is counted from nothing: the 30 over it are not carried.
    expect([60, 30].map((bytes) => tally.add(bytes))).toEqual([false, false]);
    expect(tally.add(30)).toBe(true);
  });

  test("one drawing at or above the bound is due at once, each time", () => {
    const tally = new GarbageTally(100);
    expect(tally.add(250)).toBe(true);
    expect(tally.add(100)).toBe(true);
    expect(tally.add(99)).toBe(false);
  });

  test("at the server's bound: a 1200x300 WebP at scale 2 collects at once, badges every few hundred", () => {
    const large = new GarbageTally(COLLECT_AFTER_BYTES);
    expect(large.add(drawingMemory({ pixels: 2400 * 600, contentType: "image/webp" }))).toBe(true);
    const badges = new GarbageTally(COLLECT_AFTER_BYTES);
    const badge = drawingMemory({ pixels: 100 * 20, contentType: "image/png" });
    let drawn = 1;
    while (!badges.add(badge)) drawn += 1;
    expect(drawn).toBeGreaterThan(100);
    expect(drawn).toBeLessThan(1_000);
  });
});
