// The drawing of an animated banner: each state of its animation
// (animation.ts) drawn once by the template, as a still would be, then the
// frames (holds and cross-fades) handed one at a time to the GIF or WebP
// encoder. What a drawing holds: a pixmap per state (four at most) and one
// for the fading frame, all given back to the spare pixmaps after.

import { crossFade, encodeAnimatedWebp, encodeGif, type AnimationFrame, type Pixmap } from "../render/index.ts";
import { animationStates, frameSteps, keptColors, stateData, type Animate } from "./animation.ts";
import type { BannerCaches } from "./banner-caches.ts";
import { layoutFor } from "./layout-keys.ts";
import type { BannerOptions, ServerBannerData } from "./model.ts";
import { drawings, renderBanner } from "./templates/index.ts";
import { paletteFor } from "./theme.ts";

export type AnimatedFormat = "gif" | "webp";

/** Whether `key`'s layout at `options`' size has a MOTD row: every server layout names its MOTD box `motd`, null where it has none. */
function hasMotdRow(key: string, options: BannerOptions): boolean {
  const template = drawings.get(key);
  const choice = layoutFor(options.size);
  if (!template || !choice) return false;
  const layout = template.layouts[choice.key] as { motd?: unknown };
  return layout.motd !== null && layout.motd !== undefined;
}

/** The animation `animate` of server template `key` over `data`, encoded as `format`. */
export async function drawAnimatedBanner(
  key: string, data: ServerBannerData, options: BannerOptions, animate: Animate, format: AnimatedFormat, caches: BannerCaches,
): Promise<Uint8Array> {
  const carrier = hasMotdRow(key, options) ? "motd" : "name";
  const drawings = animationStates(animate, data).map((state) => renderBanner(key, stateData(data, state, carrier), options, caches));
  const { width, height } = drawings[0]!;
  const fading = caches.render.pixmaps.take(width, height);
  function* frames(): Generator<AnimationFrame> {
    for (const { from, to, mix, durationMs } of frameSteps(drawings.length)) {
      if (mix === 0) yield { pixmap: drawings[from]!, durationMs };
      else {
        crossFade(drawings[from]!, drawings[to]!, mix, fading);
        yield { pixmap: fading, durationMs };
      }
    }
  }
  try {
    return format === "gif" ? encodeGif(frames(), keptColors(data, paletteFor(options))) : await encodeAnimatedWebp(frames());
  } finally {
    for (const pixmap of [...drawings, fading] as Pixmap[]) caches.render.pixmaps.give(pixmap);
  }
}
