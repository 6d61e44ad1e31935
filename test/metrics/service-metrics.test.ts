// The calls the image routes make (render times, cache sizes and counts) as
// they show in the exposition.

import { expect, test } from "bun:test";
import { ServiceMetrics } from "../../src/metrics/service-metrics.ts";

function samples(metrics: ServiceMetrics): Map<string, number> {
  const lines = metrics.render().split("\n").filter((line) => line && !line.startsWith("#"));
  return new Map(lines.map((line) => [line.slice(0, line.lastIndexOf(" ")), Number(line.slice(line.lastIndexOf(" ") + 1))]));
}

test("render times in seconds by kind, a watched cache's size and counts read at each scrape", () => {
  const metrics = new ServiceMetrics();
  metrics.observeRender("banner", 3);
  metrics.observeRender("banner", 40);
  metrics.observeRender("badge", 0.3);
  const usage = { entries: 2, bytes: 2048, hits: 2, misses: 1 };
  metrics.watchCache("banner_images", () => usage);

  const first = samples(metrics);
  expect(first.get('pennant_render_duration_seconds_bucket{kind="banner",le="0.0025"}')).toBe(0);
  expect(first.get('pennant_render_duration_seconds_bucket{kind="banner",le="0.005"}')).toBe(1);
  expect(first.get('pennant_render_duration_seconds_bucket{kind="banner",le="0.05"}')).toBe(2);
  expect(first.get('pennant_render_duration_seconds_sum{kind="banner"}')).toBeCloseTo(0.043, 9);
  expect(first.get('pennant_render_duration_seconds_count{kind="badge"}')).toBe(1);
  expect(first.get('pennant_cache_hits_total{cache="banner_images"}')).toBe(2);
  expect(first.get('pennant_cache_misses_total{cache="banner_images"}')).toBe(1);
  expect(first.get('pennant_cache_entries{cache="banner_images"}')).toBe(2);

  usage.bytes = 4096;
  expect(samples(metrics).get('pennant_cache_bytes{cache="banner_images"}')).toBe(4096);
});

test("caches made from a budget are read at each scrape, those made later included; their counts are counters", () => {
  const metrics = new ServiceMetrics();
  const made: Array<[string, { entries: number; bytes: number; maxBytes: number; hits: number; misses: number; evictions: number }]> = [];
  metrics.watchCaches({ usage: () => made });
  metrics.watchCache("lookup_results", () => ({ entries: 1, bytes: 10 }));
  made.push(["glyph_masks", { entries: 3, bytes: 300, maxBytes: 1000, hits: 7, misses: 3, evictions: 1 }]);

  const scraped = samples(metrics);
  expect(scraped.get('pennant_cache_max_bytes{cache="glyph_masks"}')).toBe(1000);
  expect(scraped.get('pennant_cache_entries{cache="glyph_masks"}')).toBe(3);
  expect(scraped.get('pennant_cache_hits_total{cache="glyph_masks"}')).toBe(7);
  expect(scraped.get('pennant_cache_evictions_total{cache="glyph_masks"}')).toBe(1);
  // A cache watched on its own shows what it reports, nothing more.
  expect(scraped.get('pennant_cache_entries{cache="lookup_results"}')).toBe(1);
  expect(scraped.has('pennant_cache_hits_total{cache="lookup_results"}')).toBe(false);
  expect(scraped.has('pennant_cache_max_bytes{cache="lookup_results"}')).toBe(false);
  expect(metrics.render()).toContain("# TYPE pennant_cache_evictions_total counter");
});
