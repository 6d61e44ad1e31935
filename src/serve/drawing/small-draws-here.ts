// The drawer `serve` uses with render threads: the render pool draws, except
// the smallest stills, which the answering thread draws itself. Handing a
// drawing to a render thread costs a round trip (the job cloned, a sleeping
// thread woken, the answer heard, ~0.1-0.3 ms on a busy machine), more than a
// badge or a 468x60 banner takes to draw (0.05-0.6 ms). So a still PNG of at
// most SMALL_DRAWING_UNITS whose text the faces' tables shape (no fontkit on
// this thread: text beyond the tables goes to the threads) is drawn here,
// while drawing here takes at most DRAWING_SHARE of the answering thread's
// time: past that, small drawings go to the threads too, so a flood of them
// delays cheap requests (/healthz, held images) by a few milliseconds at
// most, and large drawings never run here (docs/performance-notes.md,
// "Small drawings on the answering thread": the latencies and the memory
// the engine costs this thread).

import type { CacheStats } from "../../cache/bounded-cache.ts";
import type { CacheBytes, CacheName } from "../../config.ts";
import { drawCost } from "../../http/drawing/draw-cost.ts";
import type { Drawer, Drawing } from "../../http/drawing/drawer.ts";
import { InThreadDrawer } from "./in-thread-drawer.ts";
import { RenderPool } from "./render-pool.ts";

/** The largest drawing drawn here, in draw units (draw-cost.ts): a 468x60 PNG at scale 1, a badge at scale 2. */
export const SMALL_DRAWING_UNITS = 1;

/** Of every `windowMs`, the time the answering thread may spend drawing (`drawingMs`, a draw or so more at most). */
export const DRAWING_SHARE = { windowMs: 100, drawingMs: 20 } as const;

export class SmallDrawsHere implements Drawer {
  /**
   * The pool's: the draw queue in front runs as many draws at once as
   * before, small ones among them drawn here when their turn comes.
   */
  readonly slots: number;
  private readonly pool: RenderPool;
  private readonly here: InThreadDrawer;
  private windowStart = 0;
  private drawnInWindow = 0;

  private readonly share: { windowMs: number; drawingMs: number };

  /** `share`: DRAWING_SHARE unless given (tests). */
  constructor(settings: { threads: number; cacheBytes: CacheBytes; share?: { windowMs: number; drawingMs: number } }) {
    const { threads, cacheBytes, share = DRAWING_SHARE } = settings;
    this.share = share;
    // The drawing caches' shares are split between the render threads and this one.
    const drawers = threads + 1;
    this.pool = new RenderPool({ threads, cacheBytes, drawers });
    this.here = new InThreadDrawer(cacheBytes, drawers);
    this.slots = this.pool.slots;
  }

  async draw(drawing: Drawing): Promise<Uint8Array> {
    if (!this.drawsHere(drawing)) return this.pool.draw(drawing);
    const started = performance.now();
    try {
      return await this.here.draw(drawing);
    } finally {
      this.drawnInWindow += performance.now() - started;
    }
  }

  /** A small still of the tables' text, while this thread's drawing time stays within its share. */
  private drawsHere(drawing: Drawing): boolean {
    if (drawing.contentType !== "image/png" || (drawing.frames ?? 1) > 1 || (drawing.textBeyondTables ?? 0) > 0) return false;
    if (drawCost(drawing) > SMALL_DRAWING_UNITS) return false;
    const now = performance.now();
    if (now - this.windowStart >= this.share.windowMs) {
      this.windowStart = now;
      this.drawnInWindow = 0;
    }
    return this.drawnInWindow < this.share.drawingMs;
  }

  /** Each drawing cache summed over the render threads and this one. */
  *usage(): Iterable<[CacheName, CacheStats]> {
    const here = new Map(this.here.usage());
    for (const [name, stats] of this.pool.usage()) {
      const mine = here.get(name);
      yield [name, mine ? {
        entries: stats.entries + mine.entries, bytes: stats.bytes + mine.bytes, maxBytes: stats.maxBytes + mine.maxBytes,
        hits: stats.hits + mine.hits, misses: stats.misses + mine.misses, evictions: stats.evictions + mine.evictions,
      } : stats];
    }
  }

  warm(): void {
    this.pool.warm();
    this.here.warm();
  }

  async close(): Promise<void> {
    await Promise.all([this.pool.close(), this.here.close()]);
  }
}
