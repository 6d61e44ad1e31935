// When a thread that draws asks for a collection (draw-memory.ts): once the
// drawings since its last one add up to the bound, however they are split:
// one large banner at once, or many badges one after another.

import { describe, expect, test } from "bun:test";
import { ANSWERING_THREAD_COLLECT_AFTER_BYTES, answeredMemory, drawingMemory, GarbageTally, RENDER_THREAD_COLLECT_AFTER_BYTES } from "../../../src/http/drawing/draw-memory.ts";

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

  test("at the server's bounds: a 1200x300 WebP at scale 2 collects at once on either thread; badges every few hundred on the answering thread, every few thousand on a render thread", () => {
    for (const bound of [ANSWERING_THREAD_COLLECT_AFTER_BYTES, RENDER_THREAD_COLLECT_AFTER_BYTES]) {
      expect(new GarbageTally(bound).add(drawingMemory({ pixels: 2400 * 600, contentType: "image/webp" }))).toBe(true);
    }
    const badge = drawingMemory({ pixels: 100 * 20, contentType: "image/png" });
    const badgesUntilDue = (bound: number) => {
      const tally = new GarbageTally(bound);
      let drawn = 1;
      while (!tally.add(badge)) drawn += 1;
      return drawn;
    };
    expect(badgesUntilDue(ANSWERING_THREAD_COLLECT_AFTER_BYTES)).toBeGreaterThan(100);
    expect(badgesUntilDue(ANSWERING_THREAD_COLLECT_AFTER_BYTES)).toBeLessThan(1_000);
    expect(badgesUntilDue(RENDER_THREAD_COLLECT_AFTER_BYTES)).toBeGreaterThan(1_000);
    expect(badgesUntilDue(RENDER_THREAD_COLLECT_AFTER_BYTES)).toBeLessThan(5_000);
  });

  test("the answering thread counts what answering leaves it, not the drawing's memory: it collects every hundred answers or so, large banners or badges", () => {
    const answersUntilDue = (encodedBytes: number) => {
      const tally = new GarbageTally(ANSWERING_THREAD_COLLECT_AFTER_BYTES);
      let answered = 1;
      while (!tally.add(answeredMemory(encodedBytes))) answered += 1;
      return answered;
    };
    // A 2 KB badge and a 60 KB 1200x300 WebP (whose drawing held ~25 MB on its render thread).
    for (const encoded of [2_000, 60_000]) {
      expect(answersUntilDue(encoded)).toBeGreaterThan(60);
      expect(answersUntilDue(encoded)).toBeLessThan(200);
    }
  });
});
