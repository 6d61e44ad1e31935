// What banner drawing keeps between banners: the render context (glyph
// masks, shaped runs, tint tables, spare pixmaps), the panels drawn on blank
// surfaces and the block textures (parts.ts). One per application, made from
// its cache budget and handed to renderBanner; a drawing given none keeps its
// own, for that banner only.

import type { BoundedCache } from "../cache/bounded-cache.ts";
import { CacheBudget } from "../cache/budget.ts";
import { RenderContext, type Pixmap } from "../render/index.ts";

export interface BannerCacheOptions {
  /** Bounds every cache by its share; by default a budget of this object's own. */
  budget?: CacheBudget;
  /** The application's render context; by default one made from `budget`. */
  render?: RenderContext;
}

export class BannerCaches {
  readonly render: RenderContext;
  /** A panel's pixels as drawn on a blank surface, by size, scale, radius and colours. */
  readonly panels: BoundedCache<Int32Array>;
  /** Block textures by grid and strength. */
  readonly textures: BoundedCache<Pixmap>;

  constructor(options: BannerCacheOptions = {}) {
    const budget = options.budget ?? new CacheBudget();
    this.render = options.render ?? new RenderContext(budget);
    this.panels = budget.cache("banner_panels", { sizeOf: (pixels) => pixels.byteLength });
    this.textures = budget.cache("banner_textures", { sizeOf: (texture) => texture.data.byteLength });
  }
}
