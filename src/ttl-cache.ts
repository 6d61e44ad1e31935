// The bounded cache under the name the image caches still import it by
// (src/banner/render-cache.ts, src/badge/images.ts, src/http): the same class
// as src/cache/bounded-cache.ts, until they are made from the CacheBudget too.

export { BoundedCache as TtlCache, CACHE_ENTRY_OVERHEAD, estimateBytes, type BoundedCacheOptions as TtlCacheOptions } from "./cache/bounded-cache.ts";

/** What a cache of drawn images reports as it works (the HTTP layer counts it in /metrics). */
export interface ImageCacheEvents {
  hit(): void;
  miss(): void;
  /** An image was drawn and encoded in `ms`. */
  drawn(ms: number): void;
}

export const IGNORED_EVENTS: ImageCacheEvents = { hit() {}, miss() {}, drawn() {} };
