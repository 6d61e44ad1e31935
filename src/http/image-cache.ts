// The image pipeline's caches of encoded images (image-pipeline.ts): images
// by key (src/image-plan.ts: a digest of everything that decides the bytes),
// one cache per kind of image, so a banner or badge shown on a thousand pages
// is drawn once, and a new push or a server going stale is a new key, drawn
// on the next request; requests for a key being drawn wait for that drawing
// instead of starting their own. Each is the one cache type, made from its
// share of the cache budget (PENNANT_CACHE_MB) and shown in /metrics.

import type { BoundedCache } from "../cache/bounded-cache.ts";
import { estimateBytes } from "../cache/bounded-cache.ts";
import type { CacheBudget } from "../cache/budget.ts";

export interface ImageCacheSettings {
  /** The budget's share it is made from: banner_images or badge_images. */
  name: "banner_images" | "badge_images";
  /** Entries are dropped this long after drawing; keys change with the data, so this only frees memory. */
  ttlMs?: number;
  now: () => number;
  /** Called once per drawing (tests count them). */
  onRender?: (key: string) => void;
  /** Told how long each drawing took, in ms (for /metrics; hits and misses are the cache's own counts). */
  onDrawn?: (ms: number) => void;
}

const DEFAULT_TTL_MS = 3_600_000;

export class ImageCache {
  private readonly images: BoundedCache<Uint8Array>;
  private readonly ttlMs: number;
  private readonly onRender: ((key: string) => void) | undefined;
  private readonly onDrawn: ((ms: number) => void) | undefined;

  constructor(budget: CacheBudget, settings: ImageCacheSettings) {
    this.images = budget.cache<Uint8Array>(settings.name, { sizeOf: estimateBytes, now: settings.now });
    this.ttlMs = settings.ttlMs ?? DEFAULT_TTL_MS;
    this.onRender = settings.onRender;
    this.onDrawn = settings.onDrawn;
  }

  /** The image under `key`, drawn by `draw` only when neither cached nor being drawn. */
  get(key: string, draw: () => Uint8Array | Promise<Uint8Array>): Promise<Uint8Array> {
    return this.images.getOrComputeAsync(
      key,
      async () => {
        this.onRender?.(key);
        const started = performance.now();
        const bytes = await draw();
        this.onDrawn?.(performance.now() - started);
        return bytes;
      },
      () => this.ttlMs,
    );
  }

  /** Whether `key` is being drawn now: a get for it joins that drawing (a budget spent by draws is not spent by joining one). */
  drawing(key: string): boolean {
    return this.images.computing(key);
  }

  /** The image under `key` if it is drawn and held now, without waiting for anything (a miss is counted by the get that follows). */
  peek(key: string): Uint8Array | undefined {
    return this.images.peek(key);
  }
}
