// When a thread that draws asks for a collection (draw-memory.ts): once the
// drawings since its last one add up to the bound, however they are split:
// one large banner at once, or many badges one after another.

import { describe, expect, test } from "bun:test";
import {
  ANSWERING_THREAD_COLLECT_AFTER_BYTES, answeredMemory, CollectionSchedule, drawingGarbage, GarbageTally, RENDER_THREAD_COLLECT_AFTER_BYTES,
  RENDER_THREAD_YOUNG_COLLECTION_EVERY_BADGES,
} from "../../../src/serve/drawing/draw-memory.ts";

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

  test("at the server's bounds, a render thread collects after each WebP whose encoder it dropped, every few large banners, and every few hundred badges", () => {
    const until = (bound: number, garbage: number) => {
      const tally = new GarbageTally(bound);
      let drawn = 1;
      while (!tally.add(garbage)) drawn += 1;
      return drawn;
    };
    const drawingsUntilDue = (pixels: number, contentType: "image/png" | "image/webp") => until(RENDER_THREAD_COLLECT_AFTER_BYTES, drawingGarbage({ pixels, contentType }));
    // 1200x300 at scale 2 (1.44 million pixels) as WebP: its encoder's grown memory is dropped.
    expect(drawingsUntilDue(2400 * 600, "image/webp")).toBe(1);
    // The same as PNG leaves its pixels' worth (deflate's output, a pixmap the pool had no room for).
    expect(drawingsUntilDue(2400 * 600, "image/png")).toBeGreaterThanOrEqual(2);
    expect(drawingsUntilDue(2400 * 600, "image/png")).toBeLessThanOrEqual(5);
    for (const contentType of ["image/png", "image/webp"] as const) {
      expect(drawingsUntilDue(1200 * 300, contentType)).toBeGreaterThanOrEqual(5);
      expect(drawingsUntilDue(1200 * 300, contentType)).toBeLessThanOrEqual(20);
    }
    // A badge leaves little more than its objects.
    expect(drawingsUntilDue(100 * 20, "image/png")).toBeGreaterThan(100);
    expect(drawingsUntilDue(100 * 20, "image/png")).toBeLessThan(1_000);
  });

  test("an animation leaves a drawing's garbage for each state it drew: a 9-frame one (3 states) three stills' worth", () => {
    const still = drawingGarbage({ pixels: 1200 * 300, contentType: "image/gif" });
    expect(drawingGarbage({ pixels: 1200 * 300, contentType: "image/gif", frames: 9 })).toBe(3 * still);
    expect(drawingGarbage({ pixels: 1200 * 300, contentType: "image/gif", frames: 1 })).toBe(still);
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

describe("CollectionSchedule (a render thread's collections)", () => {
  const badge = { pixels: 100 * 20, contentType: "image/png", job: { kind: "badge" } } as const;
  const banner = { pixels: 468 * 60, contentType: "image/png", job: { kind: "banner" } } as const;
  const largeWebp = { pixels: 2400 * 600, contentType: "image/webp", job: { kind: "banner" } } as const;

  test("a young collection after every RENDER_THREAD_YOUNG_COLLECTION_EVERY_BADGES badges; banners do not count", () => {
    const schedule = new CollectionSchedule();
    const afterBadges = (count: number) => Array.from({ length: count }, () => schedule.after(badge));
    expect(RENDER_THREAD_YOUNG_COLLECTION_EVERY_BADGES).toBe(50);
    expect(afterBadges(49).every((collection) => collection === null)).toBe(true);
    expect(schedule.after(banner)).toBeNull();
    expect(schedule.after(badge)).toBe("young");
    expect(afterBadges(49).every((collection) => collection === null)).toBe(true);
    expect(schedule.after(badge)).toBe("young");
  });

  test("a full collection right after a WebP whose encoder was dropped, which starts every count again", () => {
    const schedule = new CollectionSchedule();
    for (let i = 0; i < 30; i++) expect(schedule.after(badge)).toBeNull();
    expect(schedule.after(largeWebp)).toBe("full");
    expect(schedule.after(largeWebp)).toBe("full");
    for (let i = 0; i < 49; i++) expect(schedule.after(badge)).toBeNull();
    expect(schedule.after(badge)).toBe("young");
  });

  test("a full collection from elsewhere (before a drawing that runs alone) starts every count again", () => {
    const schedule = new CollectionSchedule();
    for (let i = 0; i < 30; i++) expect(schedule.after(badge)).toBeNull();
    schedule.collectedInFull();
    for (let i = 0; i < 49; i++) expect(schedule.after(badge)).toBeNull();
    expect(schedule.after(badge)).toBe("young");
  });

  test("banners' garbage calls for young collections, never full ones", () => {
    const schedule = new CollectionSchedule();
    const largePng = { pixels: 2400 * 600, contentType: "image/png", job: { kind: "banner" } } as const;
    const collections = Array.from({ length: 1_000 }, () => schedule.after(largePng));
    expect(collections).not.toContain("full");
    const young = collections.filter((collection) => collection === "young").length;
    // Every RENDER_THREAD_COLLECT_AFTER_BYTES of what they left: every 2-5 such banners.
    expect(young).toBeGreaterThanOrEqual(200);
    expect(young).toBeLessThanOrEqual(500);
  });

  test("badges' garbage calls for a full collection every RENDER_THREAD_COLLECT_AFTER_BYTES of it; banners' does not count towards it", () => {
    const badgesUntilFull = (schedule: CollectionSchedule) => {
      for (let drawn = 1; drawn <= 10_000; drawn++) if (schedule.after(badge) === "full") return drawn;
      return Infinity;
    };
    const expected = Math.ceil(RENDER_THREAD_COLLECT_AFTER_BYTES / drawingGarbage(badge));
    expect(badgesUntilFull(new CollectionSchedule())).toBe(expected);
    const mixed = new CollectionSchedule();
    for (let i = 0; i < expected - 1; i++) {
      mixed.after(badge);
      mixed.after(banner);
    }
    expect(mixed.after(badge)).toBe("full");
  });
});
