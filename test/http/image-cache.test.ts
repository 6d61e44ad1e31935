import { describe, expect, test } from "bun:test";
import { ImageCache } from "../../src/http/image-cache.ts";

function deferred<T>() {
  let resolve!: (value: T) => void, reject!: (error: unknown) => void;
  const promise = new Promise<T>((ok, fail) => ((resolve = ok), (reject = fail)));
  return { promise, resolve, reject };
}

describe("image cache", () => {
  test("gets of a key being drawn wait for that drawing (an async encoder yields mid-drawing)", async () => {
    const cache = new ImageCache({ now: () => 0, maxBytes: 1_000_000 });
    const drawing = deferred<Uint8Array>();
    let draws = 0;
    const draw = () => (draws++, drawing.promise);
    const waiting = Array.from({ length: 5 }, () => cache.get("k", draw));
    drawing.resolve(Uint8Array.of(1, 2, 3));
    for (const bytes of await Promise.all(waiting)) expect([...bytes]).toEqual([1, 2, 3]);
    expect([...(await cache.get("k", draw))]).toEqual([1, 2, 3]);
    expect(draws).toBe(1);
    expect(cache.usage).toMatchObject({ renders: 1, entries: 1 });
  });

  test("a failed drawing is not kept: the next get draws again", async () => {
    const cache = new ImageCache({ now: () => 0, maxBytes: 1_000_000 });
    await expect(cache.get("k", () => Promise.reject(new Error("encoder broke")))).rejects.toThrow("encoder broke");
    expect([...(await cache.get("k", () => Uint8Array.of(7)))]).toEqual([7]);
    expect(cache.usage.renders).toBe(2);
  });

  test("bounded in bytes, least recently used dropped first; unrequested entries expire", async () => {
    let now = 0;
    const cache = new ImageCache({ now: () => now, maxBytes: 10_000, ttlMs: 60_000 });
    for (let i = 0; i < 20; i++) await cache.get(`key-${i}`, () => new Uint8Array(2_000));
    expect(cache.usage.bytes).toBeLessThanOrEqual(10_000);
    expect(cache.usage.entries).toBeLessThan(20);
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
