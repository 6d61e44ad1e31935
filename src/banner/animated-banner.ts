// The drawing of an animated banner: each state of its animation
// (animation.ts) drawn once by the template, as a still would be, then the
// frames (holds and cross-fades) handed one at a time to the GIF or WebP
// encoder. What a drawing holds: the first state's pixmap and the one being
// drawn, and of the others only the region where the states differ (one
// line of text), the fades drawn at that size (StateRegions). The other
// states are drawn once the first frame is encoded: by then the WebP encoder
// has given back what the whole frame grew (src/render/encode/webp.ts).

import { crossFade, encodeAnimatedWebp, encodeGif, StateRegions, type AnimationFrame, type LaterFrames, type Pixmap } from "../render/index.ts";
import { animationStates, frameSteps, keptColors, stateData, type Animate, type AnimationState, type FrameStep } from "./animation.ts";
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

/** The frames after the first state's hold: each state's hold and its fades to the next, drawn at the size of `states` (one pixmap for every fade). */
function* laterFrames(states: Pixmap[], fading: Pixmap, steps: FrameStep[]): Generator<AnimationFrame> {
  for (const { from, to, mix, durationMs } of steps) {
    if (mix === 0) yield { pixmap: states[from]!, durationMs };
    else {
      crossFade(states[from]!, states[to]!, mix, fading);
      yield { pixmap: fading, durationMs };
    }
  }
}

/** The animation `animate` of server template `key` over `data`, encoded as `format`. */
export async function drawAnimatedBanner(
  key: string, data: ServerBannerData, options: BannerOptions, animate: Animate, format: AnimatedFormat, caches: BannerCaches,
): Promise<Uint8Array> {
  const carrier = hasMotdRow(key, options) ? "motd" : "name";
  const draw = (state: AnimationState) => renderBanner(key, stateData(data, state, carrier), options, caches);
  const [firstState, ...others] = animationStates(animate, data);
  // The first frame is the first state's hold (frameSteps).
  const [hold, ...steps] = frameSteps(1 + others.length);
  const first = draw(firstState!);
  const regions = new StateRegions(first);
  /** The other states, drawn once the first frame is encoded, one at a time. */
  const later = (): LaterFrames => {
    for (const state of others) {
      const drawn = draw(state);
      regions.add(drawn);
      caches.render.pixmaps.give(drawn);
    }
    const { region, states, fading } = regions.regions();
    return { region, frames: laterFrames(states, fading, steps) };
  };
  const animation = { first: { pixmap: first, durationMs: hold!.durationMs }, later };
  try {
    return format === "gif" ? encodeGif(animation, keptColors(data, paletteFor(options))) : await encodeAnimatedWebp(animation);
  } finally {
    regions.end();
    caches.render.pixmaps.give(first);
  }
}
