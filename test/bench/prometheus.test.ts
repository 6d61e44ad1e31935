// One value from the server's /metrics text.

import { describe, expect, test } from "bun:test";
import { metricValue } from "../../bench/report/prometheus.ts";

const exposition = [
  "# HELP pennant_cache_hits_total Cache reads that found an entry, by cache.",
  "# TYPE pennant_cache_hits_total counter",
  'pennant_cache_hits_total_other{cache="banner_images"} 9',
  'pennant_cache_hits_total{cache="badge_images"} 202',
  'pennant_cache_hits_total{cache="banner_images"} 1500',
  'pennant_http_requests_total{method="GET",route="/api/banner",status="200"} 31',
  'pennant_http_requests_total{method="GET",route="/api/banner",status="400"} 4',
  "process_resident_memory_bytes 123456789",
].join("\n");

describe("metricValue", () => {
  test("the series with the given labels, not a name that only starts the same", () => {
    expect(metricValue(exposition, "pennant_cache_hits_total", { cache: "banner_images" })).toBe(1500);
    expect(metricValue(exposition, "pennant_cache_hits_total", { cache: "badge_images" })).toBe(202);
  });

  test("labels match in any order; unlisted labels are ignored", () => {
    expect(metricValue(exposition, "pennant_http_requests_total", { status: "400", route: "/api/banner" })).toBe(4);
  });

  test("a series without labels, and an absent one (0)", () => {
    expect(metricValue(exposition, "process_resident_memory_bytes")).toBe(123456789);
    expect(metricValue(exposition, "pennant_cache_misses_total", { cache: "banner_images" })).toBe(0);
  });
});
