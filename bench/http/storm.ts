// What happens as the render cache (64 MiB of encoded images) stops holding
// the banners asked for: the same load cycling over N distinct URLs, each N
// on a fresh server; and bursts of 1,000 distinct URLs at once, with the
// server's memory after each.

import { rssBytes } from "../../test/soak/measure.ts";
import type { RunningServer } from "../../test/support/process.ts";
import { count, mib, ms, table } from "../report/markdown.ts";
import { metricValue } from "../report/prometheus.ts";
import { runLoad, type LoadResult } from "./load.ts";
import { BANNER_SIZES, SERVER_TEMPLATES } from "./scenarios.mjs";
import { startPennant } from "./servers.ts";

const CACHE = { cache: "banner_images" };
/** New banners of another tag each fresh server draws first, unmeasured (~3 MiB of the cache). */
const WARM_UP_BANNERS = 300;

interface CacheCounters {
  hits: number;
  misses: number;
  bytes: number;
}

async function cacheCounters(server: RunningServer): Promise<CacheCounters> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  return {
    hits: metricValue(text, "pennant_cache_hits_total", CACHE),
    misses: metricValue(text, "pennant_cache_misses_total", CACHE),
    bytes: metricValue(text, "pennant_cache_bytes", CACHE),
  };
}

export interface StormFigures {
  distinct: number;
  /** Whether one pass over the N URLs ran (unmeasured) before the measured load. */
  warmed: boolean;
  load: LoadResult;
  /** Render-cache hits over hits + misses during the measured load (the server's own /metrics). */
  hitRatio: number;
  cacheBytes: number;
}

export async function measureStorm(
  dir: string,
  options: { distinct: number[]; seconds: number; warmUpTo: number },
  progress: (line: string) => void,
): Promise<StormFigures[]> {
  const figures: StormFigures[] = [];
  for (const distinct of options.distinct) {
    const { server } = await startPennant(dir, `storm-${distinct}`);
    try {
      const params = { run: `storm${distinct}`, cycle: distinct };
      // The server's code warmed on banners of another tag, so that no N is measured while the JIT compiles.
      await runLoad({ url: server.url, connections: 32, amount: WARM_UP_BANNERS, scenario: "distinct banner", params: { run: `storm${distinct}-warm` } }, server.pid);
      // Beyond the cache's capacity a cyclic pass misses everywhere whether warmed or not; below, it fills the cache.
      const warmed = distinct <= options.warmUpTo;
      if (warmed) await runLoad({ url: server.url, connections: Math.min(32, distinct), amount: distinct, scenario: "distinct banner", params }, server.pid);
      const before = await cacheCounters(server);
      const load = await runLoad({ url: server.url, connections: 32, duration: options.seconds, scenario: "distinct banner", params }, server.pid);
      const after = await cacheCounters(server);
      const hits = after.hits - before.hits, misses = after.misses - before.misses;
      figures.push({ distinct, warmed, load, hitRatio: hits / Math.max(1, hits + misses), cacheBytes: after.bytes });
      progress(`storm over ${count(distinct)} URLs: ${count(load.rps)}/s, ${Math.round((100 * hits) / Math.max(1, hits + misses))}% hits`);
    } finally {
      await server.kill();
    }
  }
  return figures;
}

export function formatStorm(figures: StormFigures[], options: { seconds: number; warmUpTo: number }): string {
  return [
    `A 468x60 banner (template ${SERVER_TEMPLATES[0]}), URLs cycled in order, 32 connections for ${options.seconds} s, a fresh server for each N, ` +
      `warmed first on ${WARM_UP_BANNERS} other new banners. Up to ${count(options.warmUpTo)} URLs, one unmeasured pass over them then fills the cache; ` +
      "beyond, none (a cyclic pass over more than the cache holds misses everywhere anyway). Hits and cache bytes are the server's own " +
      "(`GET /metrics`, cache `banner_images`).",
    "",
    table(
      ["distinct URLs", "requests/s", "p50 ms", "p99 ms", "render-cache hits", "cache MiB after", "server RSS after (MiB)", "peak RSS (MiB)", "server CPU per request (µs)", "errors"],
      figures.map((f) => [
        count(f.distinct), count(f.load.rps), ms(f.load.p50), ms(f.load.p99), `${Math.round(100 * f.hitRatio)}%`, (f.cacheBytes / 2 ** 20).toFixed(1), mib(f.load.rss), mib(f.load.peakRss),
        f.load.serverCpuMicros.toFixed(0), count(f.load.errors),
      ]),
    ),
  ].join("\n");
}

export interface BurstFigures {
  burst: number;
  seconds: number;
  errors: number;
  /** Bytes of the images it received. */
  bytes: number;
  rss: number;
}

/** Bursts of 1,000 new banners at once (1,000 connections, one request each), all sizes and server templates mixed. */
export async function measureBursts(dir: string, bursts: number): Promise<{ before: number; bursts: BurstFigures[] }> {
  const { server } = await startPennant(dir, "bursts");
  try {
    const before = rssBytes(server.pid);
    const figures: BurstFigures[] = [];
    for (let burst = 1; burst <= bursts; burst++) {
      const load = await runLoad(
        // Answers may take several seconds at the back of such a queue: a generous timeout, so that a slow answer is not an error.
        { url: server.url, connections: 1_000, amount: 1_000, timeoutSeconds: 60, scenario: "distinct banner", params: { run: `burst${burst}`, sizes: BANNER_SIZES, templates: SERVER_TEMPLATES } },
        server.pid,
      );
      figures.push({ burst, seconds: load.seconds, errors: load.errors, bytes: load.bytes, rss: rssBytes(server.pid) });
    }
    return { before, bursts: figures };
  } finally {
    await server.kill();
  }
}

/** What the caches a banner fills hold at most: 64 MiB of images, 8 MiB of parsed queries, 4 MiB of panels. */
export const BANNER_CACHES_BYTES = (64 + 8 + 4) * 2 ** 20;

/**
 * Memory levels off when, among the bursts after the caches were full, the
 * lowest RSS of the later half is at most this much above the lowest of the
 * earlier half. Lowest, not last: RSS after a burst includes garbage the
 * collector has not reclaimed yet (JavaScriptCore collects lazily; 30 bursts
 * swung between 210 and 415 MiB with no trend, and again between 231 and 387
 * on 2026-11-23 with the pixmap pool), while a leak raises every sample. Four
 * bursts a side (12 in all) let one high phase of that sawtooth read as
 * +39 MiB; the full run sends 20.
 */
export const LEVELLED_GROWTH_BYTES = 32 * 2 ** 20;

/**
 * The bursts that came after the previous ones had sent the caches' bound in
 * images; their later half's lowest RSS over their earlier half's. Undefined
 * with fewer than two such bursts.
 */
export function settledGrowth(bursts: BurstFigures[]): { growth: number; settled: number } | undefined {
  let sent = 0;
  const full = bursts.findIndex((burst) => (sent += burst.bytes) >= BANNER_CACHES_BYTES);
  const settled = full < 0 ? [] : bursts.slice(full + 1);
  if (settled.length < 2) return undefined;
  const lowest = (part: BurstFigures[]) => Math.min(...part.map((b) => b.rss));
  const half = Math.floor(settled.length / 2);
  return { growth: lowest(settled.slice(half)) - lowest(settled.slice(0, half)), settled: settled.length };
}

export function formatBursts(result: { before: number; bursts: BurstFigures[] }): string {
  return [
    `${result.bursts.length} bursts, each 1,000 connections with one request; all four sizes and five server templates mixed. Server RSS before the first: ${mib(result.before)} MiB.`,
    "",
    table(
      ["after burst", "wall time (s)", "errors", "images received (MiB, all bursts so far)", "server RSS (MiB)"],
      result.bursts.map((b, i) => [b.burst, b.seconds.toFixed(1), count(b.errors), mib(result.bursts.slice(0, i + 1).reduce((sum, x) => sum + x.bytes, 0)), mib(b.rss)]),
    ),
  ].join("\n");
}

