// What every template module provides: its key and kind (what the template
// is, for the registry and GET /api/templates, is in catalogue.ts), its
// layouts (one per layout key, as data), and a draw function that reads only
// the layout, the data and the palette.

import type { LayoutKey } from "../layout-keys.ts";
import type { PluginBannerData, ResourceBannerData, ServerBannerData } from "../model.ts";
import type { Surface } from "../surface.ts";
import type { Palette } from "../theme.ts";

interface TemplateBase<Layout> {
  key: string;
  layouts: Readonly<Record<LayoutKey, Layout>>;
}

export interface ServerTemplate<Layout = unknown> extends TemplateBase<Layout> {
  kind: "server";
  /** `data` as renderBanner gives it: with the status hidden, it reads online (nothing may tell it). */
  draw(surface: Surface, layout: Layout, data: ServerBannerData, palette: Palette): void;
}

export interface PluginTemplate<Layout = unknown> extends TemplateBase<Layout> {
  kind: "plugin";
  draw(surface: Surface, layout: Layout, data: PluginBannerData, palette: Palette): void;
}

export interface ResourceTemplate<Layout = unknown> extends TemplateBase<Layout> {
  kind: "market";
  draw(surface: Surface, layout: Layout, data: ResourceBannerData, palette: Palette): void;
}

export type Template = ServerTemplate | PluginTemplate | ResourceTemplate;
