// Encoded banners by what they show. The key is a digest of everything that
// decides the bytes (template, size, theme, colours, format and the resolved
// data), so a banner shown on a thousand forum pages is drawn once, and a new
// push or a server going stale is a new key, drawn on the next request.
// Requests for a key being drawn wait for that drawing instead of starting
// their own. Bounded in bytes (least recently used dropped first) and swept.

import { estimateBytes, IGNORED_EVENTS, TtlCache, type ImageCacheEvents } from "../ttl-cache.ts";

const MIB = 1024 * 1024;

export interface RenderCacheSettings {
  /**
   * Encoded images held at most. 64 MiB keeps ~20,000 typical 468x60 PNGs
   * (2-4 KB), or ~1,000 of the largest (1200x300 at 2x, ~60 KB).
   */
  maxBytes: number;
  /** Unrequested entries are dropped after this; keys change with the data, so this only frees memory. */
  ttlMs: number;
  now: () => number;
  /** Called once per drawing (tests count them). */
  onRender?: (key: string) => void;
  /** Hits, misses and drawing times, for /metrics. */
  events: ImageCacheEvents;
}

export const DEFAULT_RENDER_CACHE_BYTES = 64 * MIB;
const DEFAULT_TTL_MS = 3_600_000;
const SWEEP_EVERY_MS = 60_000;

export class RenderCache {
  private readonly images: TtlCache<Uint8Array>;
  private readonly drawing = new Map<string, Promise<Uint8Array>>();
  private readonly settings: RenderCacheSettings;
  private drawn = 0;

  constructor(settings: Partial<RenderCacheSettings> & Pick<RenderCacheSettings, "now">) {
    this.settings = { maxBytes: DEFAULT_RENDER_CACHE_BYTES, ttlMs: DEFAULT_TTL_MS, events: IGNORED_EVENTS, ...settings };
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
