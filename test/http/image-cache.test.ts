import { describe, expect, test } from "bun:test";
import { CacheBudget } from "../../src/cache/budget.ts";
import { CACHE_SHARES } from "../../src/config.ts";
import { ImageCache, type ImageCacheSettings } from "../../src/http/image-cache.ts";

/** An image cache of `maxBytes` made from a budget of its own, with the budget's view of it (entries, bytes, counts). */
function imageCache(maxBytes: number, settings: Omit<ImageCacheSettings, "name">) {
  const budget = new CacheBudget({ ...CACHE_SHARES, banner_images: maxBytes });
  const cache = new ImageCache(budget, { name: "banner_images", ...settings });
  const stats = () => new Map(budget.usage()).get("banner_images")!;
  return { cache, stats };
}

function deferred<T>() {
  let resolve!: (value: T) => void, reject!: (error: unknown) => void;
  const promise = new Promise<T>((ok, fail) => ((resolve = ok), (reject = fail)));
  return { promise, resolve, reject };
}

describe("image cache", () => {
  test("gets of a key being drawn wait for that drawing (an async encoder yields mid-drawing)", async () => {
    const { cache, stats } = imageCache(1_000_000, { now: () => 0 });
    const drawing = deferred<Uint8Array>();
    let draws = 0;
    const draw = () => (draws++, drawing.promise);
    const waiting = Array.from({ length: 5 }, () => cache.get("k", draw));
    drawing.resolve(Uint8Array.of(1, 2, 3));
    for (const bytes of await Promise.all(waiting)) expect([...bytes]).toEqual([1, 2, 3]);
    expect([...(await cache.get("k", draw))]).toEqual([1, 2, 3]);
    expect(draws).toBe(1);
    expect(stats()).toMatchObject({ misses: 1, hits: 5, entries: 1 });
  });

  test("a failed drawing is not kept: the next get draws again", async () => {
    let renders = 0;
    const { cache } = imageCache(1_000_000, { now: () => 0, onRender: () => renders++ });
    await expect(cache.get("k", () => Promise.reject(new Error("encoder broke")))).rejects.toThrow("encoder broke");
    expect([...(await cache.get("k", () => Uint8Array.of(7)))]).toEqual([7]);
    expect(renders).toBe(2);
  });

  test("bounded in bytes, least recently used dropped first; unrequested entries expire", async () => {
    let now = 0;
    const { cache, stats } = imageCache(10_000, { now: () => now, ttlMs: 60_000 });
    for (let i = 0; i < 20; i++) await cache.get(`key-${i}`, () => new Uint8Array(2_000));
    expect(stats().bytes).toBeLessThanOrEqual(10_000);
    expect(stats().entries).toBeLessThan(20);
    const drawnAgain = async (key: string) => {
      let drawn = false;
      await cache.get(key, () => ((drawn = true), new Uint8Array(1)));
      return drawn;
    };
    expect(await drawnAgain("key-19")).toBe(false);
    expect(await drawnAgain("key-0")).toBe(true);
    now += 60_000;
    expect(await drawnAgain("key-19")).toBe(true);
  });
});
