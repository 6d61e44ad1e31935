// GET /: the designer page, where an owner builds a banner or badge URL and
// copies the code that embeds it. Our own HTML, CSS and script, embedded in
// the binary by import; the page talks to nothing but this server's public
// endpoints, so its Content-Security-Policy allows nothing else.

import { Type } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { BADGE_HISTORY_RANGE } from "../badge/options.ts";
import { PLUGIN_METRICS } from "../badge/plugin-metrics.ts";
import { SERVER_METRICS } from "../badge/server-metrics.ts";
import { STYLE_NAMES, STYLES } from "../badge/styles.ts";
import { BACKGROUND_PRESETS } from "../banner/backgrounds.ts";
import { BANNER_ELEMENTS, type BannerElement } from "../banner/model.ts";
import { PALETTES } from "../banner/theme.ts";
import type { Color } from "../render/index.ts";
import { HISTORY_RANGES } from "../store/history-ranges.ts";
import { parameterInputs } from "./banner-parameters.ts";
import styles from "./designer/designer.css" with { type: "text" };
import script from "./designer/designer.js" with { type: "text" };
import pageTemplate from "./designer/index.html" with { type: "text" };
import { TEMPLATE_LIST } from "./template-list.ts";

export const DESIGNER_CSP = [
  "default-src 'self'",
  "img-src 'self' data:", // data: for the empty favicon, which spares a request
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** Changes with the assets' contents, so a page names the assets of its own release. */
const assetVersion = Bun.hash(styles + script).toString(36);
export const DESIGNER_ASSETS = {
  styles: `/designer/designer.css?v=${assetVersion}`,
  script: `/designer/designer.js?v=${assetVersion}`,
};

/** Data for the page's script as the text of a JSON script element: "<" escaped so no text can close the element. */
const jsonBlock = (data: unknown) => JSON.stringify(data).replaceAll("<", "\\u003c");

/**
 * Badge metrics and styles with each style's height (a 2x badge's HTML shows
 * it at that height), the server metrics read over a history range with the
 * ranges and the one a badge without ?range= reads, from the badge modules
 * themselves.
 */
const badgeChoices = jsonBlock({
  pluginMetrics: [...PLUGIN_METRICS.keys()],
  serverMetrics: [...SERVER_METRICS.keys()],
  rangedMetrics: [...SERVER_METRICS].filter(([, metric]) => metric.readsHistory).map(([name]) => name),
  ranges: HISTORY_RANGES,
  defaultRange: BADGE_HISTORY_RANGE,
  styles: STYLE_NAMES,
  heights: Object.fromEntries(STYLE_NAMES.map((name) => [name, STYLES[name].height])),
});

const hexOf = ({ r, g, b }: Color) => `#${[r, g, b].map((channel) => channel.toString(16).padStart(2, "0")).join("")}`;

/** What a plugin banner draws of the parts an owner may hide (PluginBannerData.hidden); a server banner draws them all. */
const PLUGIN_ELEMENTS: readonly BannerElement[] = ["version", "status", "icon"];
/** What a marketplace banner draws of them (ResourceBannerData.hidden). */
const MARKET_ELEMENTS: readonly BannerElement[] = ["version", "icon"];

/**
 * The templates as GET /api/templates lists them, each banner parameter's
 * choices or limit and default (the parameter table), each theme's own accent
 * and background (what an empty colour field means: its placeholder), the
 * background presets and the parts each kind of template can leave out.
 */
const bannerChoices = jsonBlock({
  templates: TEMPLATE_LIST,
  parameters: parameterInputs(),
  themeColors: Object.fromEntries(Object.entries(PALETTES).map(([theme, palette]) => [theme, { accent: hexOf(palette.accent), background: hexOf(palette.background[0]) }])),
  backgrounds: BACKGROUND_PRESETS,
  hideable: { server: BANNER_ELEMENTS, plugin: PLUGIN_ELEMENTS, market: MARKET_ELEMENTS },
});

const page = pageTemplate
  .replace("{{STYLES_URL}}", DESIGNER_ASSETS.styles)
  .replace("{{SCRIPT_URL}}", DESIGNER_ASSETS.script)
  // Functions, so a "$" in the data is not taken for a replacement pattern.
  .replace("{{BANNER_CHOICES}}", () => bannerChoices)
  .replace("{{BADGE_CHOICES}}", () => badgeChoices);

function asset(body: string, contentType: string, cacheControl: string, extra: Record<string, string> = {}) {
  return () => new Response(body, { headers: { "Content-Type": contentType, "Cache-Control": cacheControl, ...extra } });
}

export function designerRoute() {
  const detail = (summary: string, type = "text/html") => ({
    detail: { summary, tags: ["designer"], responses: { 200: { description: summary, content: { [type]: { schema: Type.String() } } } } },
  });
  return new Elysia({ name: "pennant/designer" })
    .get("/", asset(page, "text/html; charset=utf-8", "no-cache", { "Content-Security-Policy": DESIGNER_CSP }), detail("The designer page: build a banner or badge and copy its embed code"))
    .get("/designer/designer.css", asset(styles, "text/css; charset=utf-8", "public, max-age=86400"), detail("The designer page's stylesheet", "text/css"))
    .get("/designer/designer.js", asset(script, "text/javascript; charset=utf-8", "public, max-age=86400"), detail("The designer page's script", "text/javascript"));
}
