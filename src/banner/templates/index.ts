// The template registry (what GET /api/templates lists) and the one entry
// the HTTP layer calls: renderBanner(key, resolved data, options) -> Pixmap.

import type { Pixmap } from "../../render/index.ts";
import { BannerCaches } from "../banner-caches.ts";
import { layoutFor } from "../layout-keys.ts";
import { BANNER_SIZES, type BannerOptions, type BannerSize, type PluginBannerData, type ServerBannerData, type Theme } from "../model.ts";
import { Surface } from "../surface.ts";
import { paletteFor } from "../theme.ts";
import { card } from "./card.ts";
import { classic } from "./classic.ts";
import { minimalStatus } from "./minimal-status.ts";
import { playersBar } from "./players-bar.ts";
import { pluginStats } from "./plugin-stats.ts";
import { sparkline } from "./sparkline.ts";
import type { Template } from "./template.ts";

export const DEFAULT_TEMPLATE = "minimal-status";

const TEMPLATES: readonly Template[] = [minimalStatus, classic, card, playersBar, sparkline, pluginStats];

export interface TemplateInfo {
  key: string;
  title: string;
  description: string;
  kind: "server" | "plugin";
  sizes: readonly BannerSize[];
  defaultTheme: Theme;
  uses: readonly string[];
  template: Template;
}

export const templates: ReadonlyMap<string, TemplateInfo> = new Map(
  TEMPLATES.map((template) => [template.key, {
    key: template.key,
    title: template.title,
    description: template.description,
    kind: template.kind,
    sizes: BANNER_SIZES,
    defaultTheme: template.defaultTheme,
    uses: template.uses,
    template,
  }]),
);

/**
 * Draws template `key` with `data` (server data for server templates,
 * plugin data for plugin ones). Throws RangeError for an unknown template or
 * size and TypeError for the wrong kind of data: the HTTP layer checks both
 * against the registry first. What is kept between banners comes from
 * `caches` (the application's; by default the drawing keeps its own), the
 * pixmap from its spare ones: the caller gives it back once it is encoded.
 */
export function renderBanner(
  key: string, data: ServerBannerData | PluginBannerData, options: BannerOptions, caches = new BannerCaches(),
): Pixmap {
  const template = templates.get(key)?.template;
  if (!template) throw new RangeError(`unknown banner template "${key}"`);
  const choice = layoutFor(options.size);
  if (!choice) throw new RangeError(`unsupported banner size ${options.size.width}x${options.size.height}`);
  const surface = new Surface(choice.width, choice.height, choice.factor * options.scale, caches);
  const palette = paletteFor(options);
  const layout = template.layouts[choice.key];
  const isPlugin = "counters" in data;
  if (template.kind === "plugin") {
    if (!isPlugin) throw new TypeError(`template "${key}" draws plugin data`);
    template.draw(surface, layout, data, palette);
  } else {
    if (isPlugin) throw new TypeError(`template "${key}" draws server data`);
    template.draw(surface, layout, data, palette);
  }
  return surface.pixmap;
}
