// The caches' memory: every cache is made here, bounded by its share of
// PENNANT_CACHE_MB (the memory section of src/config.ts) and named as /metrics
// shows it. An application makes one budget and hands it down to whatever
// keeps a cache (the render context, badges, banners, lookups); nothing is
// kept at module level, so two applications, or two tests, share nothing.

import { CACHE_SHARES, type CacheBytes, type CacheName } from "../config.ts";
import { BoundedCache, type CacheRules, type CacheStats } from "./bounded-cache.ts";

/** What a store of another shape than BoundedCache (a pool) reports of itself. */
export type StoreUsage = Omit<CacheStats, "maxBytes">;

export class CacheBudget {
  private readonly made = new Map<CacheName, () => CacheStats>();

  /** `bytes`: each cache's bound (Config.cacheBytes); by default the shares at the default budget. */
  constructor(readonly bytes: CacheBytes = CACHE_SHARES) {}

  /** The cache `name`, bounded by its share. Each name is made once: a share spent twice would be twice the memory. */
  cache<V, K extends string | number = string>(name: CacheName, rules: CacheRules<V>): BoundedCache<V, K> {
    const cache = new BoundedCache<V, K>({ ...rules, maxBytes: this.bytes[name] });
    this.record(name, () => cache.stats);
    return cache;
  }

  /** The bytes of `name`'s share, for a store of its own shape (a pool), which reports what it holds through `usage`. */
  share(name: CacheName, usage: () => StoreUsage): number {
    const maxBytes = this.bytes[name];
    this.record(name, () => ({ ...usage(), maxBytes }));
    return maxBytes;
  }

  /** Every cache and store made so far, by name, as it is now (read at each /metrics scrape). */
  *usage(): Iterable<[CacheName, CacheStats]> {
    for (const [name, stats] of this.made) yield [name, stats()];
  }

  private record(name: CacheName, stats: () => CacheStats): void {
    if (this.made.has(name)) throw new Error(`the cache ${name} is made twice from one budget`);
    this.made.set(name, stats);
  }
}
