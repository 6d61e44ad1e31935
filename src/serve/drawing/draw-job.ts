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
import { drawPageJob } from "../../page/page-jobs.ts";
import { RenderContext } from "../../render/index.ts";

/** What one thread's drawings keep between them (glyphs, panels, label pixels...), made from its cache budget. */
export class DrawingKit {
  /** The engine's caches, which every kind of drawing shares. */
  readonly render: RenderContext;
  readonly banners: BannerCaches;
  readonly badges: BadgeCaches;

  constructor(budget: CacheBudget) {
    this.render = new RenderContext(budget);
    this.banners = new BannerCaches({ budget, render: this.render });
    this.badges = new BadgeCaches({ budget, render: this.render });
  }
}

/** The encoded image `job` describes. */
export async function drawJob(job: DrawJob, kit: DrawingKit): Promise<Uint8Array> {
  switch (job.kind) {
    case "badge svg":
      return writeBadgeSvgJob(job);
    case "badge":
      return drawBadgeJob(job, kit.badges);
    case "chart png":
    case "chart svg":
    case "card":
      return drawPageJob(job, kit.render);
    default:
      return drawBannerJob(job, kit.banners);
  }
}
