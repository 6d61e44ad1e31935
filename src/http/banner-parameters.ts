// The query parameters of GET /api/banner, declared once: name, type (with
// its choices or bounds), default, description and the templates that read
// it. Derived from this table: the route's query schema (and so
// /openapi.json), the checks of the parser (banner-query.ts), the
// `parameters` of GET /api/templates (template-list.ts) and the designer's
// choices (designer-route.ts). Template keys, sizes and themes are the
// banner domain's own lists, not copies.

import { t } from "elysia";
import { BACKGROUND_PRESETS, backgroundPreset, type BackgroundPresetName } from "../banner/backgrounds.ts";
import { BANNER_ELEMENTS, BANNER_SIZES, MAX_SHOWN_COUNTERS, SPARKLINE_RANGES, type BannerSize, type NumberStyle, type ServerStatus, type SparklineRange } from "../banner/model.ts";
import { ANIMATIONS, MAX_DURATION_MS, MAX_FRAMES, type Animate } from "../banner/animation.ts";
import type { DataMode } from "../banner/resolve-banner-data.ts";
import type { ImageFormat } from "../banner/banner-service.ts";
import { DEFAULT_TEMPLATE, templates, type TemplateInfo } from "../banner/templates/catalogue.ts";
import { THEMES } from "../banner/theme.ts";
import { EDITIONS, type Edition } from "../minecraft/edition.ts";
import { MARKET_SITES, type MarketSite } from "../market/market-project.ts";
import { PLUGIN_LIMITS } from "./payloads/plugin.ts";
import type { Color } from "../render/index.ts";
import { bad, choice, choiceList, color, COLOR_FORMS, COLOR_PATTERN, readColor, networkSlug, shown, text, uuid, wholeNumber, type QueryType } from "./query-types.ts";

export type TemplateKind = TemplateInfo["kind"];

export interface BannerParameter<T> {
  type: QueryType<T>;
  /** What it sets, for people (the API docs). */
  description: string;
  /** What leaving it out means, as the value to write; none when decided otherwise (the description says how). */
  default?: string;
  /** The templates that read it: every one, or those of one kind or of several. */
  readBy: "every" | TemplateKind | readonly TemplateKind[];
  /** Read only by the templates whose `uses` name this (their drawing shows it). */
  onlyWhereUsed?: string;
}

export const sizeName = (size: BannerSize): string => `${size.width}x${size.height}`;
export const SIZE_NAMES = BANNER_SIZES.map(sizeName);

/** WIDTHxHEIGHT, any numbers: whether the size is supported is checked once the size=/width+height forms are put together. */
const sizeText: QueryType<BannerSize> = {
  schema: { enum: SIZE_NAMES },
  read(raw, name) {
    const match = /^(\d{1,5})x(\d{1,5})$/i.exec(raw);
    if (!match) throw bad(`${name} must be one of ${SIZE_NAMES.join(", ")}, not ${shown(raw)}`);
    return { width: Number(match[1]), height: Number(match[2]) };
  },
};

const templateKey: QueryType<TemplateInfo> = {
  schema: { enum: [...templates.keys()] },
  read(raw, name) {
    const key = raw.toLowerCase();
    const template = templates.get(key);
    if (!template) throw bad(`unknown ${name} ${shown(key)}; GET /api/templates lists them`);
    return template;
  },
};

const PRESET_NAMES = BACKGROUND_PRESETS.map((preset) => preset.name).join(", ");

/** A preset's name (any letter case), else a colour. */
const background: QueryType<Color | BackgroundPresetName> = {
  schema: { pattern: COLOR_PATTERN },
  read(raw, name) {
    const value = backgroundPreset(raw) ?? readColor(raw);
    // The wrong value first: an error image shows one line, as much of it as fits.
    if (!value) throw bad(`${name} ${shown(raw)} is not a preset (${PRESET_NAMES}), nor ${COLOR_FORMS}`);
    return value;
  },
};

/** As a pushed server name. */
const MAX_NAME_CHARS = 128;
/** As a pushed player count. */
const MAX_PLAYERS = 1_000_000_000;
/** Room for § colour codes (14 characters per hex colour). */
const MAX_MOTD_LINE_CHARS = 512;
/** A project's id, slug or owner/slug, or an author's id or name: longer than any site's (the market service checks each site's form). */
const MAX_MARKET_REF_CHARS = 200;
/** As GET /api/lookup. */
const MAX_ADDRESS_CHARS = 300;
/** Any number of digits a size could be written with: the parser names the supported sizes. */
const MAX_SIDE = 99_999;

/** Counter names with the spaces a hand-written list may put around them. */
const MAX_STATS_CHARS = MAX_SHOWN_COUNTERS * (PLUGIN_LIMITS.statName + 3);

/**
 * stats=servers,players: counter names as pushed (1 to 64 characters, no
 * commas or control characters), in the order to draw them. A name given
 * twice counts once; more than the banner draws is refused, not cut.
 */
const counterNames: QueryType<readonly string[]> = {
  schema: { maxLength: MAX_STATS_CHARS, pattern: `^[^,\\u0000-\\u001f]{1,${PLUGIN_LIMITS.statName}}(,[^,\\u0000-\\u001f]{1,${PLUGIN_LIMITS.statName}})*$` },
  read(raw, name) {
    const names = raw.split(",").map((part) => part.trim());
    if (raw.length > MAX_STATS_CHARS || names.some((part) => part === "" || part.length > PLUGIN_LIMITS.statName || /[\u0000-\u001f\u007f]/.test(part))) {
      throw bad(`${name} must be counter names separated by commas, each 1 to ${PLUGIN_LIMITS.statName} characters, not ${shown(raw)}`);
    }
    const unique = [...new Set(names)];
    if (unique.length > MAX_SHOWN_COUNTERS) throw bad(`${name} may name at most ${MAX_SHOWN_COUNTERS} counters (a banner draws ${MAX_SHOWN_COUNTERS}), not ${unique.length}`);
    return unique;
  },
};

/** In this order in the route schema, /openapi.json, GET /api/templates and the parser's checks. */
export const BANNER_PARAMETERS = {
  template_key: { type: templateKey, default: DEFAULT_TEMPLATE, readBy: "every", description: "Template; GET /api/templates describes them" },
  size: { type: sizeText, default: sizeName(BANNER_SIZES[0]), readBy: "every", description: "WIDTHxHEIGHT; or width and height (both forms may be given if they agree)" },
  width: { type: wholeNumber(MAX_SIDE), readBy: "every", description: "Banner width; with height, one of the supported sizes" },
  height: { type: wholeNumber(MAX_SIDE), readBy: "every", description: "Banner height; with width" },
  theme: { type: choice(THEMES), readBy: "every", description: "Colour theme; default: the template's own (default_theme in GET /api/templates)" },
  format: {
    type: choice<ImageFormat>(["png", "webp", "gif"]),
    default: "png",
    readBy: "every",
    description: "Image format (WebP is lossless; GIF keeps the text's colours exactly, the rest in 256 colours); with animate, gif or webp (gif when not given)",
  },
  animate: {
    type: choice<Animate>(ANIMATIONS),
    readBy: "server",
    description: `An animation instead of a still, as GIF or animated WebP: motd cycles the MOTD's lines, stats the players, version, join address and uptime, fading (docs/animated-banners.md; at most ${MAX_FRAMES} frames, ${MAX_DURATION_MS / 1000} s)`,
  },
  scale: { type: choice(["1", "2"]), default: "1", readBy: "every", description: "2: twice the pixels, same layout (Hi-DPI)" },
  accent: { type: color, readBy: "every", onlyWhereUsed: "accent", description: `Accent colour: ${COLOR_FORMS}; default: the theme's` },
  background: {
    type: background,
    readBy: "every",
    description: `A preset (${PRESET_NAMES}; GET /api/templates lists them) or ${COLOR_FORMS}, alpha allowed; default: the theme's`,
  },
  hide: { type: choiceList(BANNER_ELEMENTS), readBy: "every", description: `Parts not to draw, a comma list of ${BANNER_ELEMENTS.join(", ")}` },
  data_mode: {
    type: choice<DataMode>(["manual", "query", "plugin", "network"]),
    default: "manual",
    readBy: "server",
    description: "manual (the query's values), query (live lookup of ip_address), plugin (the record pushed for server_uuid) or network (the servers of a network, summed)",
  },
  server_name: { type: text(MAX_NAME_CHARS), readBy: "server", description: "Displayed server name (default: the pushed name, else ip_address, else \"Minecraft Server\", or \"Hytale Server\" for Hytale)" },
  ip_address: { type: text(MAX_ADDRESS_CHARS), readBy: "server", description: "Server address, host[:port]; required when data_mode=query" },
  edition: {
    type: choice<Edition>(EDITIONS),
    readBy: "server",
    description: "The server's game: java or bedrock (Minecraft) or hytale. How data_mode=query looks it up; its default port, left out of the address drawn; " +
      "its fallback icon and name. Default: the edition a pushed server sent (data_mode=plugin), else java",
  },
  server_uuid: { type: uuid, readBy: "server", description: "data_mode=plugin: the UUID the server's plugin pushes as" },
  network: { type: networkSlug, readBy: "server", description: "data_mode=network: the network's slug (PUT /api/networks/{slug})" },
  online_players: { type: wholeNumber(MAX_PLAYERS), readBy: "server", description: "Players online; overrides looked-up or pushed values" },
  max_players: { type: wholeNumber(MAX_PLAYERS), readBy: "server", description: "Player slots; overrides looked-up or pushed values" },
  server_status: { type: choice<ServerStatus>(["online", "offline"]), readBy: "server", description: "Overrides the looked-up or pushed status" },
  motd_line_1: { type: text(MAX_MOTD_LINE_CHARS), readBy: "server", description: "First MOTD line (§ colour codes allowed)" },
  motd_line_2: { type: text(MAX_MOTD_LINE_CHARS), readBy: "server", description: "Second MOTD line" },
  range: {
    type: choice(Object.keys(SPARKLINE_RANGES) as SparklineRange[]),
    default: "24h",
    readBy: "server",
    onlyWhereUsed: "history",
    description: "The span the player chart covers (data_mode=plugin): 24h from the minute samples, 7d or 30d from the history roll-ups (docs/history.md)",
  },
  plugin_uuid: { type: uuid, readBy: "plugin", description: "Plugin templates: the plugin record's UUID" },
  stats: { type: counterNames, readBy: "plugin", description: `The counters to draw, in order, comma-separated (at most ${MAX_SHOWN_COUNTERS}); a name the record lacks is drawn as "—". Default: the first ${MAX_SHOWN_COUNTERS} pushed, in push order` },
  numbers: {
    type: choice<NumberStyle>(["compact", "full"]), default: "compact", readBy: ["plugin", "market"],
    description: "compact: 1.3k, 35k (as badges); full: every digit, 1 284, 35 210",
  },
  site: {
    type: choice<MarketSite>(MARKET_SITES),
    readBy: "market",
    description: "Market templates: the site the project is on (docs/markets.md)",
  },
  project: {
    type: text(MAX_MARKET_REF_CHARS),
    readBy: "market",
    description: "Market templates: the project, as the site names it (Modrinth's id or slug, Spigot's or CurseForge's or Polymart's resource id, Hangar's owner/slug); or give author",
  },
  author: {
    type: text(MAX_MARKET_REF_CHARS),
    readBy: "market",
    description: "Market templates, instead of project: an author, whose projects on the site are totalled (as docs/markets.md names them for each site)",
  },
} satisfies Record<string, BannerParameter<unknown>>;

type Table = typeof BANNER_PARAMETERS;
export type ParameterName = keyof Table;
export type ParameterValue<N extends ParameterName> = Table[N]["type"] extends QueryType<infer T> ? T : never;

const ENTRIES = Object.entries(BANNER_PARAMETERS) as Array<[ParameterName, BannerParameter<unknown>]>;

/** Whether a parameter read by `readBy` is read by the templates of `kind`. */
function readsKind(readBy: BannerParameter<unknown>["readBy"], kind: TemplateKind): boolean {
  return readBy === "every" || readBy === kind || (Array.isArray(readBy) && readBy.includes(kind));
}

/** The parameters `template` reads, in table order. */
export function parametersReadBy(template: Pick<TemplateInfo, "kind" | "uses">): ParameterName[] {
  return ENTRIES.filter(([, { readBy, onlyWhereUsed }]) =>
    readsKind(readBy, template.kind) && (onlyWhereUsed === undefined || template.uses.includes(onlyWhereUsed))).map(([name]) => name);
}

const templatesWhere = (test: (info: TemplateInfo) => boolean) => [...templates.values()].filter(test).map((info) => info.key).join(", ");

/** The description in the docs: the table's words, the bounds, the default, and who reads it. */
function documented({ type, description, default: absent, readBy, onlyWhereUsed }: BannerParameter<unknown>): string {
  const sentences = [type.bounds ? `${description}; ${type.bounds}` : description];
  if (absent !== undefined) sentences.push(`Default: ${absent}`);
  if (readBy !== "every") {
    const kinds: readonly TemplateKind[] = typeof readBy === "string" ? [readBy] : readBy;
    sentences.push(`Read by the ${kinds.join(" and ")} templates: ${templatesWhere((info) => kinds.includes(info.kind))}`);
  }
  if (onlyWhereUsed !== undefined) sentences.push(`Read by the templates that draw it: ${templatesWhere((info) => info.uses.includes(onlyWhereUsed))}`);
  return sentences.join(". ");
}

/**
 * The route's query schema. Described, not checked by Elysia: the parser
 * checks every value, so a refusal names the parameter in our words and can
 * be drawn as an image; an empty value counts as absent and unknown ones
 * (cache busters) are ignored. No `default` keyword: Elysia would fill it in
 * for a parameter left out, even in a schema it does not enforce.
 */
export const BANNER_QUERY = t.NoValidate(
  t.Object(Object.fromEntries(ENTRIES.map(([name, parameter]) => [name, t.Optional(t.String({ ...parameter.type.schema, description: documented(parameter) }))]))),
);

/** What a form needs to offer each parameter: its choices (`enum`) or length limit, and its default. */
export function parameterInputs(): Record<string, QueryType<unknown>["schema"] & { default?: string }> {
  return Object.fromEntries(ENTRIES.map(([name, parameter]) => [name, { ...parameter.type.schema, ...(parameter.default === undefined ? {} : { default: parameter.default }) }]));
}
