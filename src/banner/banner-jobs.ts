// What a render thread draws a banner from: a description made of plain data
// (the resolved server or plugin, the options, the format), so it can cross
// to a worker thread by structured clone, and the drawing of it. The plan
// (banner-service.ts) carries the description; the HTTP layer's drawer runs
// drawBannerJob on a render thread, or on its own thread when there are none.

import { decodeImage, encodeGif, encodePng, encodeWebp, wholeFrames, type Pixmap } from "../render/index.ts";
import { MAX_ICON_BYTES, MAX_ICON_SIDE } from "../market/project-icon.ts";
import { drawAnimatedBanner } from "./animated-banner.ts";
import { keptColors, type Animate } from "./animation.ts";
import type { BannerCaches } from "./banner-caches.ts";
import { drawErrorImage } from "./error-image.ts";
import type { BannerData, BannerOptions, BannerSize, PluginBannerData, ResourceBannerData } from "./model.ts";
import { serverBannerData, type ResolvedServer } from "./resolve-banner-data.ts";
import type { ResolvedResource } from "./resolve-resource.ts";
import { renderBanner } from "./templates/index.ts";
import { paletteFor } from "./theme.ts";

export type ImageFormat = "png" | "webp" | "gif";

export type BannerJob =
  | {
    kind: "banner";
    /** The template's key. */
    template: string;
    /** The favicon or icon still encoded: decoding it is part of the drawing's work. */
    data: ResolvedServer | PluginBannerData | ResolvedResource;
    options: BannerOptions;
    format: ImageFormat;
    /** Server templates, format gif or webp: the animation to draw instead of a still (animation.ts). */
    animate?: Animate;
  }
  | { kind: "banner-error"; message: string; size: BannerSize };

async function encode(pixmap: Pixmap, format: ImageFormat, data: BannerData, options: BannerOptions): Promise<Uint8Array> {
  if (format === "gif") return encodeGif(wholeFrames([{ pixmap, durationMs: 0 }]), "counters" in data || "site" in data ? [] : keptColors(data, paletteFor(options)));
  return format === "webp" ? encodeWebp(pixmap) : encodePng(pixmap);
}

/** An icon's limits when decoded: those it was fetched within (project-icon.ts). */
const ICON_LIMITS = { maxWidth: MAX_ICON_SIDE, maxHeight: MAX_ICON_SIDE, maxBytes: MAX_ICON_BYTES };

/** The data the resource template draws: the icon decoded (one that does not decode is simply absent: the default icon). */
async function resourceBannerData(resolved: ResolvedResource): Promise<ResourceBannerData> {
  const decoded = resolved.icon ? await decodeImage(resolved.icon, ICON_LIMITS) : null;
  return { ...resolved, icon: decoded?.ok ? decoded.image : null };
}

/** The encoded banner `job` describes, drawn with what `caches` keeps between banners. */
export async function drawBannerJob(job: BannerJob, caches: BannerCaches): Promise<Uint8Array> {
  if (job.kind === "banner-error") return encodePng(drawErrorImage(job.message, job.size));
  const { data } = job;
  const drawn = "counters" in data ? data : "site" in data ? await resourceBannerData(data) : serverBannerData(data);
  if (job.animate && !("counters" in drawn) && !("site" in drawn) && job.format !== "png") {
    return drawAnimatedBanner(job.template, drawn, job.options, job.animate, job.format, caches);
  }
  const pixmap = renderBanner(job.template, drawn, job.options, caches);
  try {
    return await encode(pixmap, job.format, drawn, job.options);
  } finally {
    // Spare pixmaps for the next drawings: a few of each size drawn lately (a 1200x300 at scale 2 is 5.5 MiB).
    caches.render.pixmaps.give(pixmap);
  }
}
