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
 * Draws on the calling thread, with drawing caches of the whole drawing
 * shares. The engine (draw-job.ts: fonts, encoders) is loaded on the first
 * drawing, not with this module: with render threads the answering thread
 * never draws, and so never carries it (src/render/basics.ts).
 */
export class InThreadDrawer implements Drawer {
  readonly slots = 1;
  private readonly budget: CacheBudget;
  private engine?: Promise<{ drawJob: typeof drawJob; kit: DrawingKit }>;
  /** The drawings made and answered since this thread last asked for a collection (draw-memory.ts). */
  private readonly garbage = new GarbageTally(ANSWERING_THREAD_COLLECT_AFTER_BYTES);

  constructor(cacheBytes: CacheBytes) {
    this.budget = new CacheBudget(drawingCacheBytes(cacheBytes, 1));
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
