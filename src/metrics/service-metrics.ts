// Pennant's own metrics, served at GET /metrics. One instance per app; the
// HTTP layer counts requests, lookups and refusals, and the image routes call
// observeRender. Every cache made from the app's cache
// budget reports its size, bound, hits, misses and evictions at each scrape.
// Label values are route templates and names from code, never raw paths or
// client text.

import pkg from "../../package.json" with { type: "json" };
import type { CacheStats } from "../cache/bounded-cache.ts";
import type { DrawQueueUsage } from "../http/drawing/draw-queue.ts";
import { Registry, type Labels } from "./registry.ts";

/** Seconds: from half a millisecond (a cached image) to beyond a lookup's 5 s deadline. */
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** What a cache reports: its size, and, for one made from the budget, its bound and counts too. */
export type CacheUsage = Pick<CacheStats, "entries" | "bytes"> & Partial<CacheStats>;

/** Caches made from one budget (src/cache/budget.ts), by name, as they are now. */
export interface CacheSource {
  usage(): Iterable<[string, CacheStats]>;
}

/** The full collections the answering thread's heap watch made (src/serve/heap-watch.ts), and the time they took. */
export interface HeapWatchStats {
  collections: number;
  seconds: number;
}

type CacheCount = "hits" | "misses" | "evictions";

/** An unlabelled metric's one sample from what a source reports now, or none while nothing is watched. */
function oneSample<S>(reported: S | undefined, pick: (reported: S) => number): Iterable<[Labels<never>, number]> {
  return reported === undefined ? [] : [[{}, pick(reported)]];
}

export class ServiceMetrics {
  private readonly registry = new Registry();
  private readonly watched = new Map<string, () => CacheUsage>();
  private readonly sources: CacheSource[] = [];
  private drawQueue: (() => DrawQueueUsage) | undefined;
  private heap: (() => HeapWatchStats) | undefined;

  private readonly requests = this.registry.counter({
    name: "pennant_http_requests_total",
    help: "HTTP requests answered, by method, route template and status.",
    labelNames: ["method", "route", "status"],
  });
  private readonly requestSeconds = this.registry.histogram({
    name: "pennant_http_request_duration_seconds",
    help: "Time from a request's arrival to its answer, by route template.",
    labelNames: ["route"],
    buckets: DURATION_BUCKETS,
  });
  private readonly limited = this.registry.counter({
    name: "pennant_rate_limited_total",
    help: "Requests refused with 429 (a per-address, per-token or registration budget spent), by route template.",
    labelNames: ["route"],
  });
  private readonly renderSeconds = this.registry.histogram({
    name: "pennant_render_duration_seconds",
    help: "Time to draw and encode an image, by kind (banner, badge).",
    labelNames: ["kind"],
    buckets: DURATION_BUCKETS,
  });
  private readonly lookups = this.registry.counter({
    name: "pennant_lookups_total",
    help: "Live server lookups answered (cached or not), by outcome: online or the error code.",
    labelNames: ["outcome"],
  });
  private readonly suppressed = this.registry.counter({
    name: "pennant_log_lines_suppressed_total",
    help: "Request log lines not written because their client's log budget was spent.",
    labelNames: [],
  });

  constructor() {
    const startedAt = Date.now() / 1000 - process.uptime();
    this.registry.gauge({ name: "pennant_build_info", help: "The running version.", labelNames: ["version"] }, () => [[{ version: pkg.version }, 1]]);
    this.registry.gauge({ name: "process_start_time_seconds", help: "Start time of the process, Unix seconds.", labelNames: [] }, () => [[{}, Math.round(startedAt)]]);
    this.registry.gauge({ name: "process_resident_memory_bytes", help: "Resident memory of the process.", labelNames: [] }, () => [[{}, process.memoryUsage.rss()]]);
    this.registry.gauge({ name: "pennant_cache_entries", help: "Entries a cache holds now.", labelNames: ["cache"] }, () =>
      this.cacheUsage((usage) => usage.entries),
    );
    this.registry.gauge({ name: "pennant_cache_bytes", help: "Estimated bytes a cache holds now (each is bounded).", labelNames: ["cache"] }, () =>
      this.cacheUsage((usage) => usage.bytes),
    );
    this.registry.gauge({ name: "pennant_cache_max_bytes", help: "A cache's bound: its share of PENNANT_CACHE_MB.", labelNames: ["cache"] }, () =>
      this.cacheUsage((usage) => usage.maxBytes),
    );
    this.registry.collectedCounter({ name: "pennant_cache_hits_total", help: "Cache reads that found an entry, by cache.", labelNames: ["cache"] }, () =>
      this.cacheCounts("hits"),
    );
    this.registry.collectedCounter({ name: "pennant_cache_misses_total", help: "Cache reads that found nothing, by cache.", labelNames: ["cache"] }, () =>
      this.cacheCounts("misses"),
    );
    this.registry.collectedCounter(
      { name: "pennant_cache_evictions_total", help: "Entries a cache dropped to make room for others, by cache.", labelNames: ["cache"] },
      () => this.cacheCounts("evictions"),
    );
    const queue = (pick: (usage: DrawQueueUsage) => number) => oneSample(this.drawQueue?.(), pick);
    this.registry.gauge({ name: "pennant_draw_queue_running", help: "Draws handed to the render threads now (at most two per render thread: the one drawn and the one handed ahead; one when drawing on the answering thread).", labelNames: [] }, () =>
      queue((usage) => usage.running),
    );
    this.registry.gauge({ name: "pennant_draw_queue_waiting", help: "Draws waiting for their turn now.", labelNames: [] }, () => queue((usage) => usage.waiting));
    this.registry.gauge({ name: "pennant_draw_queue_waiting_units", help: "Cost units of the draws waiting now (bounded by PENNANT_DRAW_QUEUE_UNITS).", labelNames: [] }, () =>
      queue((usage) => usage.waitingUnits),
    );
    this.registry.collectedCounter(
      {
        name: "pennant_draw_queue_refused_total",
        help: "Draws refused with 503 draw_queue_full, by reason: client (PENNANT_DRAW_QUEUE_PER_CLIENT waiting) or queue (PENNANT_DRAW_QUEUE_UNITS).",
        labelNames: ["reason"],
      },
      () => {
        const refused = this.drawQueue?.().refused;
        return refused ? [[{ reason: "client" }, refused.client], [{ reason: "queue" }, refused.queue]] : [];
      },
    );
    const heap = (pick: (stats: HeapWatchStats) => number) => oneSample(this.heap?.(), pick);
    this.registry.collectedCounter(
      { name: "pennant_heap_collections_total", help: "Full collections of the answering thread's heap started because it grew (heap-watch.ts).", labelNames: [] },
      () => heap((stats) => stats.collections),
    );
    this.registry.collectedCounter(
      { name: "pennant_heap_collection_seconds_total", help: "Time the answering thread spent in those collections, answering nothing.", labelNames: [] },
      () => heap((stats) => stats.seconds),
    );
  }

  /** Reports the answering thread's full collections (heap-watch.ts) at every scrape. */
  watchHeap(stats: () => HeapWatchStats): void {
    this.heap = stats;
  }

  request(method: string, route: string, status: number, ms: number): void {
    this.requests.inc({ method, route, status: String(status) });
    this.requestSeconds.observe({ route }, ms / 1000);
    if (status === 429) this.limited.inc({ route });
  }

  /** How long drawing and encoding one image took. */
  observeRender(kind: string, ms: number): void {
    this.renderSeconds.observe({ kind }, ms / 1000);
  }

  /** Reports a cache's size at every scrape. */
  watchCache(cache: string, usage: () => CacheUsage): void {
    this.watched.set(cache, usage);
  }

  /** Reports every cache made from `source` (the app's cache budget), those made later included, at every scrape. */
  watchCaches(source: CacheSource): void {
    this.sources.push(source);
  }

  /** Reports the draw queue's depth and refusals at every scrape. */
  watchDrawQueue(usage: () => DrawQueueUsage): void {
    this.drawQueue = usage;
  }

  lookup(outcome: string): void {
    this.lookups.inc({ outcome });
  }

  logLineSuppressed(): void {
    this.suppressed.inc({});
  }

  render(): string {
    return this.registry.render();
  }

  /** Every cache's usage by name; a cache watched on its own is read from there. */
  private caches(): Map<string, CacheUsage> {
    const all = new Map<string, CacheUsage>();
    for (const source of this.sources) for (const [cache, stats] of source.usage()) all.set(cache, stats);
    for (const [cache, usage] of this.watched) all.set(cache, usage());
    return all;
  }

  private *cacheUsage(pick: (usage: CacheUsage) => number | undefined): Iterable<[Labels<"cache">, number]> {
    for (const [cache, usage] of this.caches()) {
      const value = pick(usage);
      if (value !== undefined) yield [{ cache }, value];
    }
  }

  /** A count as the cache keeps it. */
  private *cacheCounts(count: CacheCount): Iterable<[Labels<"cache">, number]> {
    for (const [cache, usage] of this.caches()) {
      const kept = usage[count];
      if (kept !== undefined) yield [{ cache }, kept];
    }
  }
}

