// The animated banners in docs/gallery: a few animations of the realistic
// sample as the server draws them (src/banner/animated-banner.ts), one file
// each. The gallery test decodes each file and the same animation drawn now
// and compares them frame by frame; only update-goldens.ts writes the files.

import { drawAnimatedBanner, type AnimatedFormat } from "../../../src/banner/animated-banner.ts";
import type { Animate } from "../../../src/banner/animation.ts";
import { BannerCaches } from "../../../src/banner/banner-caches.ts";
import type { BannerSize, Theme } from "../../../src/banner/model.ts";
import { realistic } from "../../support/banner-samples.ts";

export interface AnimatedScene {
  /** File name in docs/gallery. */
  file: string;
  title: string;
  format: AnimatedFormat;
  draw: () => Promise<Uint8Array>;
}

function scene(template: string, size: BannerSize, animate: Animate, format: AnimatedFormat, theme: Theme = "dark"): AnimatedScene {
  return {
    file: `banner-${template}-${animate}-${size.width}x${size.height}.${format}`,
    title: `${template} ${size.width}x${size.height}, animate=${animate}, ${format}`,
    format,
    draw: () => drawAnimatedBanner(template, realistic, { size, theme, scale: 1 }, animate, format, new BannerCaches()),
  };
}

export const ANIMATED_SCENES: readonly AnimatedScene[] = [
  scene("classic", { width: 728, height: 90 }, "motd", "gif"),
  scene("card", { width: 468, height: 60 }, "stats", "gif"),
  scene("minimal-status", { width: 468, height: 60 }, "motd", "webp"),
  scene("players-bar", { width: 468, height: 60 }, "stats", "webp", "light"),
];
