// Badge PNGs, drawn once per distinct look. The cache key is what is drawn
// (style, scale, texts, colours as pixels), not the URL: every URL and every
// plugin that shows "downloads | 12k" in the same colours shares one image.
// It is bounded in bytes, so distinct badges asked for by anyone cannot grow
// it; a badge pushed out is simply drawn again.

import { encodePng } from "../render/index.ts";
import { IGNORED_EVENTS, TtlCache, estimateBytes, type ImageCacheEvents } from "../ttl-cache.ts";
import { BadgeCaches } from "./badge-caches.ts";
import { colorNumber } from "./colors.ts";
import { drawBadge } from "./draw.ts";
import { layoutBadge, type BadgeContent } from "./layout.ts";

/** Bytes of encoded badges kept (~3,000 flat badges; a 2x badge is ~2.5x a 1x one). */
export const BADGE_CACHE_BYTES = 8 * 1024 * 1024;
/** A badge nobody asked for in this long is dropped at the next sweep. */
const IDLE_MS = 3600 * 1000;
const SWEEP_EVERY_MS = 60 * 1000;
/**
 * Cached badges are encoded once and then served many times, so they are
 * written compact (per-row filters, a palette where it is smaller) at zlib
 * level 6: 5-30% fewer bytes than the engine's fast default. Levels above 6
 * cost twice the time for under 1% more (docs/performance-notes.md, "Badges").
 */
const PNG_OPTIONS = { level: 6, compact: true };

/** What decides every pixel of a badge, as one string (cache key; the ETag is made from it). */
export function drawKey(content: BadgeContent, scale: number): string {
  const label = content.labelColor ? colorNumber(content.labelColor.rgba) : "default";
  return JSON.stringify([content.style, scale, content.label, content.message, label, colorNumber(content.color.rgba)]);
}

export interface BadgeImageStats {
  entries: number;
  bytes: number;
  draws: number;
}

export class BadgeImages {
  private readonly cache: TtlCache<Uint8Array>;
  private draws = 0;

  constructor(
    now: () => number,
    maxBytes = BADGE_CACHE_BYTES,
    private readonly events: ImageCacheEvents = IGNORED_EVENTS,
    private readonly drawing = new BadgeCaches(),
  ) {
    this.cache = new TtlCache<Uint8Array>({ maxBytes, sizeOf: estimateBytes, sweepEveryMs: SWEEP_EVERY_MS, now });
  }

  /**
   * The PNG of `content` at `scale`, from the cache or drawn now; `beforeDraw`
   * runs only when it has to be drawn (and may throw to refuse the work).
   */
  png(content: BadgeContent, scale: 1 | 2, beforeDraw: () => void = () => {}): Uint8Array {
    const key = drawKey(content, scale);
    const cached = this.cache.get(key);
    if (cached) {
      // Used again: kept for another idle period.
      this.cache.set(key, cached, IDLE_MS);
      this.events.hit();
      return cached;
    }
    this.events.miss();
    beforeDraw();
    const started = performance.now();
    const png = encodePng(drawBadge(layoutBadge(content, this.drawing.render), scale, this.drawing), PNG_OPTIONS);
    this.events.drawn(performance.now() - started);
    this.draws++;
    this.cache.set(key, png, IDLE_MS);
    return png;
  }

  get stats(): BadgeImageStats {
    return { entries: this.cache.size, bytes: this.cache.bytes, draws: this.draws };
  }
}
