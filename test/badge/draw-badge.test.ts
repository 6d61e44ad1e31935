// Drawing badges again: what is kept between drawings gives the same pixels and stays bounded.

import { expect, test } from "bun:test";
import { BadgeCaches } from "../../src/badge/badge-caches.ts";
import { badgeColor } from "../../src/badge/colors.ts";
import { drawBadge } from "../../src/badge/draw-badge.ts";
import { layoutBadge, type BadgeContent } from "../../src/badge/badge-layout.ts";
import { CacheBudget } from "../../src/cache/budget.ts";
import { CACHE_SHARES } from "../../src/config.ts";

const hex = (n: number) => n.toString(16).padStart(2, "0");
const content = (r: number, g: number): BadgeContent =>
  ({ label: "downloads", message: "13k", color: badgeColor(`${hex(r)}${hex(g)}28`), style: "flat" });
const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

test("a badge drawn again from kept gradients has the same pixels, and the gradients kept are bounded", () => {
  // Room for some 30 of the ~5 KB stop lists.
  const caches = new BadgeCaches({ budget: new CacheBudget({ ...CACHE_SHARES, segment_stops: 160 * 1024 }) });
  const first = drawBadge(layoutBadge(content(10, 200)), 2, caches);
  for (let i = 0; i < 300; i++) drawBadge(layoutBadge(content(i % 256, (i * 7) % 256)), 1, caches);
  const { bytes, maxBytes, evictions } = caches.segmentStops.stats;
  expect(bytes).toBeLessThanOrEqual(maxBytes);
  expect(evictions).toBeGreaterThan(0);
  const again = drawBadge(layoutBadge(content(10, 200)), 2, caches);
  expect(same(again.data, first.data)).toBe(true);
  const hits = caches.segmentStops.stats.hits;
  const cached = drawBadge(layoutBadge(content(10, 200)), 2, caches);
  expect(caches.segmentStops.stats.hits).toBeGreaterThan(hits);
  expect(same(cached.data, first.data)).toBe(true);
});

test("text shadows at two scales share one store and keep apart: each badge as drawn with nothing kept", () => {
  const budget = new CacheBudget();
  const caches = new BadgeCaches({ budget });
  for (const round of [0, 1]) {
    for (const scale of [1, 2]) {
      const layout = layoutBadge({ ...content(10, 200), style: "plastic" });
      const kept = drawBadge(layout, scale, caches);
      expect({ round, scale, same: same(kept.data, drawBadge(layout, scale).data) }).toEqual({ round, scale, same: true });
    }
  }
  // The second round drew its shadows from kept masks.
  expect(new Map(budget.usage()).get("badge_shadow_glyphs")!.hits).toBeGreaterThan(0);
});
