// What the image pipeline's draw step hands a job to: a Drawer. The contract
// is the pipeline's (this floor), the drawers are the server's (src/serve,
// the floor above, which hands one to the pipeline): the pool of render
// threads (src/serve/drawing/render-pool.ts, PENNANT_RENDER_THREADS above 0)
// and the drawer on the thread that answers requests (in-thread-drawer.ts:
// 0, for tests and tiny machines), the same bytes for the same job;
// choose-drawer.ts picks one. Each reports the caches its drawings keep, for
// /metrics.

import type { BadgeJob, BadgeSvgJob } from "../../badge/images.ts";
import type { BannerJob } from "../../banner/banner-jobs.ts";
import type { CacheStats } from "../../cache/bounded-cache.ts";
import type { CacheName } from "../../config.ts";
import type { ImagePlan } from "../../image-plan.ts";
import type { PageImageJob } from "../../page/page-images.ts";

/** Every kind of image a drawer draws: plain data made by its domain (banner-jobs.ts, badge images.ts, page-images.ts), able to cross to another thread. */
export type DrawJob = BannerJob | BadgeJob | BadgeSvgJob | PageImageJob;

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
