// What every template module provides: its description for the registry
// and GET /api/templates, its layouts (one per layout key, as data), and a
// draw function that reads only the layout, the data and the palette.

import type { LayoutKey } from "../layout-keys.ts";
import type { PluginBannerData, ServerBannerData, Theme } from "../model.ts";
import type { Surface } from "../surface.ts";
import type { Palette } from "../theme.ts";

interface TemplateBase<Layout> {
  key: string;
  title: string;
  description: string;
  defaultTheme: Theme;
  /**
   * What the template draws, for GET /api/templates: the spec's query
   * parameters, the looked-up or pushed fields (version, favicon, latency,
   * history, address: the join address from ip_address or a push), and
   * "accent" where it has an accent-coloured part. Size, theme, background,
   * hide, scale and format apply to every template.
   */
  uses: readonly string[];
  layouts: Readonly<Record<LayoutKey, Layout>>;
}

export interface ServerTemplate<Layout = unknown> extends TemplateBase<Layout> {
  kind: "server";
  draw(surface: Surface, layout: Layout, data: ServerBannerData, palette: Palette): void;
}

export interface PluginTemplate<Layout = unknown> extends TemplateBase<Layout> {
  kind: "plugin";
  draw(surface: Surface, layout: Layout, data: PluginBannerData, palette: Palette): void;
}

export type Template = ServerTemplate | PluginTemplate;
