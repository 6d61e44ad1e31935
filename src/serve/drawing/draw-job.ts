// The one function that draws any job (DrawJob, src/http/drawing/drawer.ts):
// run on a render thread (render-worker.ts), or on the thread that answers
// requests when there are none (in-thread-drawer.ts, which loads this module
// on its first drawing: it loads the whole engine), so both give the same
// bytes. What a thread keeps between drawings is its DrawingKit.

import { drawBadgeJob } from "../../badge/badge-png.ts";
import { writeBadgeSvgJob } from "../../badge/images.ts";
import { BadgeCaches } from "../../badge/badge-caches.ts";
import { BannerCaches } from "../../banner/banner-caches.ts";
import { drawBannerJob } from "../../banner/banner-jobs.ts";
import type { CacheBudget } from "../../cache/budget.ts";
import type { DrawJob } from "../../http/drawing/drawer.ts";
import { RenderContext } from "../../render/index.ts";

/** What one thread's drawings keep between them (glyphs, panels, label pixels...), made from its cache budget. */
export class DrawingKit {
  readonly banners: BannerCaches;
  readonly badges: BadgeCaches;

  constructor(budget: CacheBudget) {
    const render = new RenderContext(budget);
    this.banners = new BannerCaches({ budget, render });
    this.badges = new BadgeCaches({ budget, render });
  }
}

/** The encoded image `job` describes. */
export async function drawJob(job: DrawJob, kit: DrawingKit): Promise<Uint8Array> {
  if (job.kind === "badge svg") return writeBadgeSvgJob(job);
  return job.kind === "badge" ? drawBadgeJob(job, kit.badges) : drawBannerJob(job, kit.banners);
}
