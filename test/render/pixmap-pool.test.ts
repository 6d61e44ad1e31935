import { describe, expect, test } from "bun:test";
import { BannerCaches } from "../../src/banner/banner-caches.ts";
import { BANNER_SIZES } from "../../src/banner/model.ts";
import { templates } from "../../src/banner/templates/catalogue.ts";
import { renderBanner } from "../../src/banner/templates/index.ts";
import { PixmapPool, rgba } from "../../src/render/index.ts";
import { offline, samplesFor } from "../support/banner-samples.ts";

describe("PixmapPool", () => {
  test("hands a given-back pixmap out again, transparent, for the same size only", () => {
    const pool = new PixmapPool(1 << 20);
    const first = pool.take(40, 10);
    first.fill(rgba(255, 0, 0, 255));
    pool.give(first);
    expect(pool.take(41, 10)).not.toBe(first);
    const again = pool.take(40, 10);
    expect(again).toBe(first);
    expect(again.pixels.every((word) => word === 0)).toBe(true);
    expect(pool.take(40, 10)).not.toBe(first);
  });

  test("keeps at most its bound in bytes, the latest given first", () => {
    const pool = new PixmapPool(3 * 40 * 10 * 4);
    const given = Array.from({ length: 5 }, () => pool.take(40, 10));
    for (const pixmap of given) pool.give(pixmap);
    expect(pool.bytes).toBe(3 * 40 * 10 * 4);
    const taken = [pool.take(40, 10), pool.take(40, 10), pool.take(40, 10), pool.take(40, 10)];
    expect(taken.slice(0, 3)).toEqual(expect.arrayContaining(given.slice(2)));
    expect(given).not.toContain(taken[3]);
    expect(pool.bytes).toBe(0);
    pool.give(pool.take(400, 10));
    expect(pool.bytes).toBe(0);
  });

  test("a pixmap the pool does not keep has its memory freed at once: one larger than the bound, or a spare evicted", () => {
    const pool = new PixmapPool(2 * 40 * 10 * 4);
    const large = pool.take(400, 10);
    pool.give(large);
    expect(large.data.length).toBe(0);
    expect((large.data.buffer as ArrayBuffer).detached).toBe(true);
    const [a, b, c] = [pool.take(40, 10), pool.take(40, 10), pool.take(40, 10)];
    pool.give(a);
    pool.give(b);
    expect([a.data.length, b.data.length]).toEqual([1600, 1600]);
    pool.give(c); // a, the oldest spare, makes room
    expect((a.data.buffer as ArrayBuffer).detached).toBe(true);
    expect([b.data.length, c.data.length]).toEqual([1600, 1600]);
    expect(pool.usage.evictions).toBe(1);
  });

  test("a pixmap given back twice is handed out once", () => {
    const pool = new PixmapPool(1 << 20);
    const pixmap = pool.take(8, 8);
    pool.give(pixmap);
    pool.give(pixmap);
    expect(pool.take(8, 8)).toBe(pixmap);
    expect(pool.take(8, 8)).not.toBe(pixmap);
  });
});

describe("banners drawn on reused pixmaps", () => {
  test("every template at every size draws the same pixels on a reused pixmap as on a new one", () => {
    const caches = new BannerCaches();
    const pool = caches.render.pixmaps;
    for (const info of templates.values()) {
      const [[, data], [, other]] = info.kind === "server" ? [samplesFor("server")[0]!, ["offline", offline] as const] : [samplesFor(info.kind)[0]!, samplesFor(info.kind)[1]!];
      for (const size of BANNER_SIZES) {
        const options = { size, theme: info.defaultTheme, scale: 1 } as const;
        const fresh = renderBanner(info.key, data, options);
        // Something else drawn first on the pixmap the pool then hands out.
        pool.give(renderBanner(info.key, other, { ...options, theme: info.defaultTheme === "dark" ? "light" : "dark" }, caches));
        const reused = renderBanner(info.key, data, options, caches);
        expect(Buffer.from(reused.data).equals(Buffer.from(fresh.data))).toBe(true);
        pool.give(reused);
      }
    }
    // Not vacuous: the drawings were made on pixmaps handed out again.
    expect(pool.usage.hits).toBeGreaterThan(templates.size);
  });
});
