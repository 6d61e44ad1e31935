// The drawer on the thread that answers requests (PENNANT_RENDER_THREADS=0:
// tests, tiny machines). It keeps the contract of src/http/drawing/drawer.ts
// as the render pool does (render-pool.ts), and gives the same bytes for the
// same job.

import { CacheBudget } from "../../cache/budget.ts";
import type { CacheStats } from "../../cache/bounded-cache.ts";
import { drawingCacheBytes, type CacheBytes, type CacheName } from "../../config.ts";
import type { Drawer, Drawing } from "../../http/drawing/drawer.ts";
import type { drawJob, DrawingKit } from "./draw-job.ts";
import { ANSWERING_THREAD_COLLECT_AFTER_BYTES, answeredMemory, drawingGarbage, GarbageTally } from "./draw-memory.ts";

/**
 * Draws on the calling thread, with drawing caches of its part of the
 * drawing shares. The engine (draw-job.ts: fonts, encoders) is loaded on the
 * first drawing (or warm()), not with this module: a process that only
 * hands drawings to render threads never carries it (src/render/basics.ts).
 */
export class InThreadDrawer implements Drawer {
  readonly slots = 1;
  private readonly budget: CacheBudget;
  private engine?: Promise<{ drawJob: typeof drawJob; kit: DrawingKit }>;
  /** The drawings made and answered since this thread last asked for a collection (draw-memory.ts). */
  private readonly garbage = new GarbageTally(ANSWERING_THREAD_COLLECT_AFTER_BYTES);

  /**
   * `drawers`: the threads the drawing shares are split between, this one
   * alone unless render threads draw too (small-draws-here.ts); this one
   * takes what their equal parts leave, so that the parts add up to each share.
   */
  constructor(cacheBytes: CacheBytes, drawers = 1) {
    const whole = drawingCacheBytes(cacheBytes, 1), part = drawingCacheBytes(cacheBytes, drawers);
    const mine = Object.fromEntries(Object.entries(whole).map(([name, bytes]) => [name, bytes - (drawers - 1) * part[name as CacheName]]));
    this.budget = new CacheBudget(mine as Record<CacheName, number>);
  }

  private loadEngine() {
    return this.engine ??= import("./draw-job.ts").then((engine) => ({ drawJob: engine.drawJob, kit: new engine.DrawingKit(this.budget) }));
  }

  async draw(drawing: Drawing): Promise<Uint8Array> {
    const { drawJob, kit } = await this.loadEngine();
    const bytes = await drawJob(drawing.job, kit);
    if (this.garbage.add(drawingGarbage(drawing) + answeredMemory(bytes.byteLength))) Bun.gc(false);
    return bytes;
  }

  usage(): Iterable<[CacheName, CacheStats]> {
    return this.budget.usage();
  }

  warm(): void {
    void this.loadEngine();
  }

  async close(): Promise<void> {}
}
