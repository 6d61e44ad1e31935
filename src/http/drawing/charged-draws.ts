// A draw as the image pipeline starts one (a cache miss no identical draw in
// flight covers): its cost (draw-cost.ts) charged to the client's draw budget
// (PENNANT_DRAW_BUDGET, per address or IPv6 /64, shared by banners and
// badges), then run in the client's turn in the draw queue (draw-queue.ts).
// Requests that wait on a draw in flight, cached answers and 304s never come
// here, so they cost nothing and never wait behind draws. Nor do images
// stating a failure (a 429, a 503...): an <img> refused must get its answer
// at once, and they are small PNGs (at most 13 units), cached by message.
// An SVG (a badge, a chart) is written here, not drawn (writtenHere): charged, but neither
// queued nor sent to a render thread.

import { spendBudget } from "../ip-rate-limit.ts";
import { whenDecided, type Limiter } from "../rate-limit.ts";
import { drawCost } from "./draw-cost.ts";
import type { DrawQueue } from "./draw-queue.ts";
import type { Drawer, Drawing, DrawJob } from "./drawer.ts";
import { writeBadgeSvgJob } from "../../badge/images.ts";
import { writeChartSvgJob } from "../../page/page-images.ts";

export interface ChargedDrawsDeps {
  /** Units per address and window (PENNANT_DRAW_BUDGET). */
  budget: Limiter;
  queue: DrawQueue;
  /** Where the draws run: the render threads, or the answering thread. */
  drawer: Drawer;
  /** Awaited in a draw's slot before it draws (tests: a render thread kept busy). */
  holdDraws?: () => Promise<void>;
}

export interface ChargedDraws {
  /** Draws `image` for the client under budget key `client`; throws a 429 (budget spent) or a 503 (queue full) first. */
  start(client: string, image: Drawing): Promise<Uint8Array>;
  /** Draws an image stating a failure: uncharged and unqueued, so a refused <img> is answered at once. */
  failureImage(image: Drawing): Promise<Uint8Array>;
}

/**
 * The bytes of a job written on the thread that asks (an SVG: text, written
 * in microseconds), else undefined for a drawing. Handing an SVG to a render
 * thread would cost more than writing it (a structured clone each way) and
 * wait its turn behind PNG and WebP draws of milliseconds; what bounds
 * drawing, the draw budget, still charges it (draw-cost.ts).
 */
function writtenHere(job: DrawJob): Uint8Array | undefined {
  if (job.kind === "badge svg") return writeBadgeSvgJob(job);
  return job.kind === "chart svg" ? writeChartSvgJob(job) : undefined;
}

export function chargedDraws(deps: ChargedDrawsDeps): ChargedDraws {
  const { holdDraws, drawer } = deps;
  return {
    start(client, image) {
      const units = drawCost(image);
      const draw = () => drawer.draw(image);
      const spent = spendBudget(deps.budget, client, units, "this address has asked for too many new images lately; slow down");
      return whenDecided(spent, async () => writtenHere(image.job) ?? deps.queue.run(client, units, holdDraws ? async () => (await holdDraws(), draw()) : draw));
    },
    failureImage: async (image) => writtenHere(image.job) ?? drawer.draw(image),
  };
}
