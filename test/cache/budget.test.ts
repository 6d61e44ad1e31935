// The memory section: PENNANT_CACHE_MB split by fixed shares, every cache made
// from its share, each name once, and what each holds read back for /metrics.

import { describe, expect, test } from "bun:test";
import { CacheBudget } from "../../src/cache/budget.ts";
import { CACHE_SHARES, DEFAULT_CACHE_MB, loadConfig, splitCacheBudget } from "../../src/config.ts";

const MIB = 1024 * 1024;

describe("cache budget", () => {
  test("the default budget is the sum of the shares, and a budget is split by them", () => {
    expect(DEFAULT_CACHE_MB).toBe(185);
    expect(loadConfig({}).cacheBytes).toEqual(CACHE_SHARES);
    const half = loadConfig({ PENNANT_CACHE_MB: String(2 * DEFAULT_CACHE_MB) }).cacheBytes;
    for (const [name, bytes] of Object.entries(CACHE_SHARES)) expect(half[name as keyof typeof half]).toBe(2 * bytes);
    const small = splitCacheBudget(8);
    expect(Object.values(small).reduce((sum, bytes) => sum + bytes, 0)).toBeLessThanOrEqual(8 * MIB);
    expect(small.lookup_favicons).toBeGreaterThan(64 * 1024); // the largest favicon still fits
  });

  test("PENNANT_CACHE_MB is a whole number of MiB from 8", () => {
    for (const bad of ["7", "1.5", "lots", "2000000"]) expect(() => loadConfig({ PENNANT_CACHE_MB: bad })).toThrow("PENNANT_CACHE_MB");
  });

  test("each cache is bounded by its share, made once, and reported by name", () => {
    const budget = new CacheBudget(splitCacheBudget(DEFAULT_CACHE_MB / 2));
    const masks = budget.cache<Uint8Array, number>("glyph_masks", { sizeOf: (mask) => mask.length });
    expect(masks.maxBytes).toBe(CACHE_SHARES.glyph_masks / 2);
    expect(() => budget.cache("glyph_masks", { sizeOf: () => 0 })).toThrow("glyph_masks");
    const pool = { entries: 2, bytes: 1000, hits: 5, misses: 2, evictions: 0 };
    expect(budget.share("spare_pixmaps", () => pool)).toBe(CACHE_SHARES.spare_pixmaps / 2);
    masks.set(1, new Uint8Array(100));
    masks.get(1);
    pool.entries = 3;
    const usage = new Map(budget.usage());
    expect([...usage.keys()]).toEqual(["glyph_masks", "spare_pixmaps"]);
    expect(usage.get("glyph_masks")).toMatchObject({ entries: 1, hits: 1, misses: 0, maxBytes: CACHE_SHARES.glyph_masks / 2 });
    expect(usage.get("spare_pixmaps")).toMatchObject({ entries: 3, bytes: 1000, maxBytes: CACHE_SHARES.spare_pixmaps / 2 });
  });
});
