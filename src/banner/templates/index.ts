// How each template of the catalogue (catalogue.ts) draws, and the one entry
// that draws a banner: renderBanner(key, resolved data, options) -> Pixmap.

import type { Pixmap } from "../../render/index.ts";
import { BannerCaches } from "../banner-caches.ts";
import { layoutFor } from "../layout-keys.ts";
import { shows, type BannerData, type BannerOptions, type ServerBannerData } from "../model.ts";
import { Surface } from "../surface.ts";
import { paletteFor } from "../theme.ts";
import { card } from "./card.ts";
import { classic } from "./classic.ts";
import { minimalStatus } from "./minimal-status.ts";
import { playersBar } from "./players-bar.ts";
import { pluginStats } from "./plugin-stats.ts";
import { resource } from "./resource.ts";
import { sparkline } from "./sparkline.ts";
import type { Template } from "./template.ts";

/** Each template's drawing by key; the same keys and kinds as the catalogue's (catalogue.ts). */
export const drawings: ReadonlyMap<string, Template> = new Map(
  [minimalStatus, classic, card, playersBar, sparkline, pluginStats, resource].map((template) => [template.key, template]),
);

/**
 * The server as a template is given it. With hide=status nothing on the
 * banner may tell the status, and more than its word tells it offline: the
 * game's red "Can't connect to server", classic's signal bars and count, a
 * grey bar or chart. So a banner that hides it draws every server as online,
 * and a template leaves out only the status word (dot, pill) itself.
 */
function told(data: ServerBannerData): ServerBannerData {
  return shows(data, "status") ? data : { ...data, status: "online" };
}

/**
 * Draws template `key` with `data` (server data for server templates,
 * plugin data for plugin ones, a marketplace's for market ones). Throws RangeError for an unknown template or
 * size and TypeError for the wrong kind of data: the HTTP layer checks both
 * against the registry first. What is kept between banners comes from
 * `caches` (the application's; by default the drawing keeps its own), the
 * pixmap from its spare ones: the caller gives it back once it is encoded.
 */
export function renderBanner(
  key: string, data: BannerData, options: BannerOptions, caches = new BannerCaches(),
): Pixmap {
  const template = drawings.get(key);
  if (!template) throw new RangeError(`unknown banner template "${key}"`);
  const choice = layoutFor(options.size);
  if (!choice) throw new RangeError(`unsupported banner size ${options.size.width}x${options.size.height}`);
  const surface = new Surface(choice.width, choice.height, choice.factor * options.scale, caches);
  const palette = paletteFor(options);
  const layout = template.layouts[choice.key];
  if (template.kind === "plugin") {
    if (!("counters" in data)) throw new TypeError(`template "${key}" draws plugin data`);
    template.draw(surface, layout, data, palette);
  } else if (template.kind === "market") {
    if (!("site" in data)) throw new TypeError(`template "${key}" draws a marketplace's data`);
    template.draw(surface, layout, data, palette);
  } else {
    if ("counters" in data || "site" in data) throw new TypeError(`template "${key}" draws server data`);
    template.draw(surface, layout, told(data), palette);
  }
  return surface.pixmap;
}
