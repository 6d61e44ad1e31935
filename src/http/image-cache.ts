// The image pipeline's caches (image-pipeline.ts), all built from here:
// encoded images by key (src/image-plan.ts: a digest of everything that
// decides the bytes), one cache per kind of image, so a banner or badge shown
// on a thousand pages is drawn once, and a new push or a server going stale
// is a new key, drawn on the next request; requests for a key being drawn
// wait for that drawing instead of starting their own. Beside them, plain
// caches of what the pipeline keeps per request (keptValues). Every one is
// bounded in bytes (least recently used dropped first) and swept.

import { estimateBytes, IGNORED_EVENTS, TtlCache, type ImageCacheEvents } from "../ttl-cache.ts";

export interface ImageCacheSettings {
  /** Encoded images held at most. */
  maxBytes: number;
  /** Entries are dropped this long after drawing; keys change with the data, so this only frees memory. */
  ttlMs: number;
  now: () => number;
  /** Called once per drawing (tests count them). */
  onRender?: (key: string) => void;
  /** Hits, misses and drawing times, for /metrics. */
  events: ImageCacheEvents;
}

const MIB = 1024 * 1024;
const DEFAULT_TTL_MS = 3_600_000;
const SWEEP_EVERY_MS = 60_000;

/** What each of the pipeline's caches holds at most (~96 MiB in all). */
export const PIPELINE_CACHE_BYTES = {
  /** Encoded banners: ~20,000 typical 468x60 PNGs (2-4 KB), or ~1,000 of the largest (1200x300 at 2x, ~60 KB). */
  bannerImages: 64 * MIB,
  /** Encoded badges: ~3,000 flat ones (a 2x badge is ~2.5x a 1x one). */
  badgeImages: 8 * MIB,
  /** Requests planned before, by path and query (a plan holds its resolved data). */
  knownRequests: 8 * MIB,
  /** Images held in ready answers: the popular ones (a 468x60 PNG is 3-15 KB, a badge 1-3 KB). */
  readyAnswers: 16 * MIB,
};

/** What the pipeline asks of a plain cache. */
export interface KeptValues<V> {
  get(key: string): V | undefined;
  set(key: string, value: V, ttlMs: number): void;
}

/** A plain cache of at most `maxBytes`, as `sizeOf` counts its values. */
export function keptValues<V>(maxBytes: number, sizeOf: (value: V) => number, now: () => number): KeptValues<V> {
  return new TtlCache<V>({ maxBytes, sizeOf, sweepEveryMs: SWEEP_EVERY_MS, now });
}

export class ImageCache {
  private readonly images: TtlCache<Uint8Array>;
  private readonly drawing = new Map<string, Promise<Uint8Array>>();
  private readonly settings: ImageCacheSettings;
  private drawn = 0;

  constructor(settings: Partial<ImageCacheSettings> & Pick<ImageCacheSettings, "now" | "maxBytes">) {
    this.settings = { ttlMs: DEFAULT_TTL_MS, events: IGNORED_EVENTS, ...settings };
    this.images = new TtlCache<Uint8Array>({ maxBytes: this.settings.maxBytes, sizeOf: estimateBytes, sweepEveryMs: SWEEP_EVERY_MS, now: settings.now });
  }

  /** The image under `key`, drawn by `draw` only when neither cached nor being drawn. */
  get(key: string, draw: () => Uint8Array | Promise<Uint8Array>): Promise<Uint8Array> {
    const { events } = this.settings;
    const cached = this.images.get(key);
    if (cached) {
      events.hit();
      return Promise.resolve(cached);
    }
    const running = this.drawing.get(key);
    if (running) {
      events.hit();
      return running;
    }
    events.miss();
    const promise = (async () => {
      this.drawn++;
      this.settings.onRender?.(key);
      const started = performance.now();
      const bytes = await draw();
      events.drawn(performance.now() - started);
      this.images.set(key, bytes, this.settings.ttlMs);
      return bytes;
    })().finally(() => this.drawing.delete(key));
    this.drawing.set(key, promise);
    return promise;
  }

  /** The image under `key` if it is drawn and held now (a hit), without waiting for anything. */
  peek(key: string): Uint8Array | undefined {
    const cached = this.images.get(key);
    if (cached) this.settings.events.hit();
    return cached;
  }

  /** Drawings made, and what the cache holds now (entries, estimated bytes, never above maxBytes). */
  get usage() {
    return { renders: this.drawn, entries: this.images.size, bytes: this.images.bytes };
  }
}
