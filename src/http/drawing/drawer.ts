// What the image pipeline's draw step hands a job to: a Drawer. Two kinds,
// one contract (the same bytes for the same job): the pool of render threads
// (render-pool.ts, PENNANT_RENDER_THREADS above 0) and this file's drawer on
// the thread that answers requests (0: tests, tiny machines). Each reports
// the caches its drawings keep, for /metrics.

import { CacheBudget } from "../../cache/budget.ts";
import type { CacheStats } from "../../cache/bounded-cache.ts";
import { drawingCacheBytes, type CacheBytes, type CacheName, type Config } from "../../config.ts";
import type { ImagePlan } from "../../image-plan.ts";
import type { drawJob, DrawingKit, DrawJob } from "./draw-job.ts";
import { ANSWERING_THREAD_COLLECT_AFTER_BYTES, answeredMemory, drawingGarbage, GarbageTally } from "./draw-memory.ts";
import { RenderPool } from "./render-pool.ts";

/** What a drawer is given: the job, and what the image is (to weigh the drawing before it starts). */
export type Drawing = Pick<ImagePlan<DrawJob>, "job" | "pixels" | "contentType" | "frames" | "textBeyondTables">;

export interface Drawer {
  /** The encoded image `drawing.job` describes. */
  draw(drawing: Drawing): Promise<Uint8Array>;
  /** Draws it takes at once. */
  readonly slots: number;
  /** The drawing caches by name, as they are now (summed over threads). */
  usage(): Iterable<[CacheName, CacheStats]>;
  /** Gets ready to draw without delay (starts the render threads). */
  warm(): void;
  /** Stops drawing: draws waiting or running fail. */
  close(): Promise<void>;
}

/** The drawer `config` asks for: PENNANT_RENDER_THREADS render threads, or none. */
export function makeDrawer(config: Pick<Config, "renderThreads" | "cacheBytes">): Drawer {
  return config.renderThreads > 0
    ? new RenderPool({ threads: config.renderThreads, cacheBytes: config.cacheBytes })
    : new InThreadDrawer(config.cacheBytes);
}

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
