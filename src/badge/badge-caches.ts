// What badge drawing keeps between badges: the render context (glyph masks,
// shaped runs, tint tables), the label pixels (label-pixels.ts), the glyph
// masks of text shadows and the segments' gradients. One per application,
// made from its cache budget and handed to drawBadge; a drawing given none
// keeps its own for that badge only.

import { CacheBudget } from "../cache/budget.ts";
import type { BoundedCache } from "../cache/bounded-cache.ts";
import { GlyphCache, RenderContext, maskBytes, type GradientStop, type Mask } from "../render/index.ts";
import { LABEL_PIXEL_RULES, type LabelEntry } from "./label-pixels.ts";
import type { PlateStyle } from "./styles.ts";

export type TextShadow = NonNullable<PlateStyle["shadow"]>;

/** Bytes a list of segment stops holds: each stop with its colour, and the gradient table its paint builds (shader.ts). */
const segmentStopsBytes = (stops: readonly GradientStop[]) => 1024 + 32 + stops.length * 112;

export interface BadgeCacheOptions {
  /** Bounds every cache by its share; by default a budget of this object's own. */
  budget?: CacheBudget;
  /** The application's render context; by default one made from `budget`. */
  render?: RenderContext;
  /** False: labels are drawn every time, in shields' order (tests compare the two). */
  keepLabels?: boolean;
}

export class BadgeCaches {
  readonly render: RenderContext;
  /** Label pixels by style, scale, label colour and text; null: none kept. */
  readonly labels: BoundedCache<LabelEntry> | null;
  /** A segment's colour under its style's overlay, by style, row count and colour. */
  readonly segmentStops: BoundedCache<readonly GradientStop[]>;
  /** Shadow glyphs of every shadow and scale, side by side (GlyphCache variants). */
  private readonly shadowMasks: BoundedCache<Mask, number>;
  /** A view of shadowMasks per shadow and scale: the styles' shadows times the scales drawn, a handful. */
  private readonly shadows = new Map<string, GlyphCache>();

  constructor(options: BadgeCacheOptions = {}) {
    const budget = options.budget ?? new CacheBudget();
    this.render = options.render ?? new RenderContext(budget);
    this.labels = options.keepLabels === false ? null : budget.cache("label_pixels", LABEL_PIXEL_RULES);
    this.segmentStops = budget.cache("segment_stops", { sizeOf: segmentStopsBytes });
    this.shadowMasks = budget.cache("badge_shadow_glyphs", { sizeOf: maskBytes });
  }

  /** Glyphs as `shadow` at `scale`: the blurred and the sharp copy in one mask each (GlyphShadow). */
  shadowGlyphs(shadow: TextShadow, scale: number): GlyphCache {
    const spec = { blur: shadow.blur * scale, blurOpacity: shadow.blurOpacity, sharpOpacity: shadow.opacity };
    const key = `${spec.blur} ${spec.blurOpacity} ${spec.sharpOpacity}`;
    let glyphs = this.shadows.get(key);
    if (!glyphs) {
      glyphs = new GlyphCache(this.shadowMasks, spec, this.shadows.size);
      this.shadows.set(key, glyphs);
    }
    return glyphs;
  }
}
