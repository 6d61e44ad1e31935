// GET /api/banner (the image) and GET /api/templates (what can be drawn).
// Parses parameters and plans the banner with src/banner; the image pipeline
// (image-pipeline.ts) answers it. Errors are an image stating the problem
// when the client asked for an image (an <img> tag shows it), the JSON error
// shape otherwise.

import { Type, type Static } from "@sinclair/typebox";
import { Elysia, t } from "elysia";
import type { BannerService, PreparedBanner } from "../banner/service.ts";
import { BANNER_SIZES } from "../banner/model.ts";
import { DEFAULT_TEMPLATE, templates } from "../banner/templates/index.ts";
import { BANNER_LIMITS, errorImageSize, parseBannerQuery } from "./banner-query.ts";
import type { ImageRoute, PlannedImage } from "./image-pipeline.ts";
import { choice } from "./openapi/parameters.ts";
import { NOT_MODIFIED, errorResponses, imageSuccess, jsonSuccess, literals } from "./openapi/responses.ts";

export const BANNER_PATH = "/api/banner";

export interface BannerRouteDeps {
  banners: BannerService;
  /** The pipeline's route for BANNER_PATH: per-request budget, errors as images for <img> tags. */
  images: ImageRoute;
}

/**
 * How long clients and proxies may keep a banner: a day when the query alone
 * decides it; a minute for live and pushed data (the lookup cache's own
 * lifetime, and a fifth of the EzBanners plugin's fastest sync).
 */
export const MAX_AGE_SECONDS = { byQueryAlone: 86_400, live: 60 };
const CACHE_CONTROL = {
  byQueryAlone: `public, max-age=${MAX_AGE_SECONDS.byQueryAlone}`,
  live: `public, max-age=${MAX_AGE_SECONDS.live}`,
};

const SIZE_NAMES = BANNER_SIZES.map((size) => `${size.width}x${size.height}`);
const text = (description: string, options: { maxLength?: number } = {}) => t.Optional(t.String({ description, ...options }));
const wholeNumber = (description: string) => t.Optional(t.String({ pattern: "^[0-9]{1,10}$", description }));
const hexColor = (description: string) => t.Optional(t.String({ pattern: "^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$", description }));

/**
 * Described, not checked by Elysia: parseBannerQuery checks every value, so a
 * refusal names the parameter in our words and can be drawn as an image; an
 * empty value counts as absent and unknown ones (cache busters) are ignored.
 */
const BANNER_QUERY = t.NoValidate(
  t.Object({
    server_name: text("Displayed server name (default: the pushed name, else ip_address, else \"Minecraft Server\")", { maxLength: BANNER_LIMITS.name }),
    ip_address: text("Server address, host[:port]; required when data_mode=query", { maxLength: BANNER_LIMITS.address }),
    online_players: wholeNumber(`Players online, 0 to ${BANNER_LIMITS.players}; overrides looked-up or pushed values`),
    max_players: wholeNumber(`Player slots, 0 to ${BANNER_LIMITS.players}; overrides looked-up or pushed values`),
    server_status: choice(["online", "offline"], "Overrides the looked-up or pushed status"),
    motd_line_1: text("First MOTD line (§ colour codes allowed)", { maxLength: BANNER_LIMITS.motdLine }),
    motd_line_2: text("Second MOTD line", { maxLength: BANNER_LIMITS.motdLine }),
    template_key: choice([...templates.keys()], `Template (default ${DEFAULT_TEMPLATE}); GET /api/templates describes them`),
    theme: choice(["light", "dark"], "Default: the template's own theme"),
    width: wholeNumber("Banner width; with height, one of the supported sizes"),
    height: wholeNumber("Banner height"),
    size: choice(SIZE_NAMES, `WIDTHxHEIGHT (default ${SIZE_NAMES[0]}); or width and height`),
    format: choice(["png", "webp"], "png (default) or webp"),
    data_mode: choice(["manual", "query", "plugin"], "manual (default), query (live lookup of ip_address) or plugin (the record pushed for server_uuid)"),
    server_uuid: t.Optional(t.String({ format: "uuid", description: "data_mode=plugin: the UUID the server's plugin pushes as" })),
    plugin_uuid: t.Optional(t.String({ format: "uuid", description: "Plugin templates: the plugin record's UUID" })),
    edition: choice(["java", "bedrock"], "data_mode=query: java (default) or bedrock"),
    scale: choice(["1", "2"], "1 (default) or 2: twice the pixels, same layout (Hi-DPI)"),
    accent: hexColor("Accent colour, hex (RGB, RRGGBB or RRGGBBAA; # optional)"),
    background: hexColor("Background colour, hex (alpha allowed: a transparent banner)"),
  }),
);

/** Query parameters every template reads, and those of each kind. */
const COMMON_PARAMETERS = ["template_key", "size", "width", "height", "theme", "format", "scale", "accent", "background"];
const KIND_PARAMETERS = {
  server: ["data_mode", "server_name", "ip_address", "edition", "server_uuid", "online_players", "max_players", "server_status", "motd_line_1", "motd_line_2"],
  plugin: ["plugin_uuid"],
};

const TEMPLATE_LIST_SCHEMA = Type.Object(
  {
    default_template: Type.String(),
    templates: Type.Array(
      Type.Object({
        key: Type.String(),
        title: Type.String(),
        description: Type.String(),
        kind: literals(["server", "plugin"], { description: "What it draws: a server (three data modes) or a plugin record" }),
        sizes: Type.Array(Type.String({ description: "WIDTHxHEIGHT" })),
        default_size: Type.String(),
        themes: Type.Array(Type.String()),
        default_theme: Type.String(),
        uses: Type.Array(Type.String(), { description: "The fields it draws" }),
        parameters: Type.Array(Type.String(), { description: "The query parameters of GET /api/banner it reads" }),
      }),
    ),
  },
  { title: "TemplateList" },
);

const TEMPLATE_LIST: Static<typeof TEMPLATE_LIST_SCHEMA> = {
  default_template: DEFAULT_TEMPLATE,
  templates: [...templates.values()].map((info) => ({
    key: info.key,
    title: info.title,
    description: info.description,
    kind: info.kind,
    sizes: info.sizes.map((size) => `${size.width}x${size.height}`),
    default_size: `${BANNER_SIZES[0].width}x${BANNER_SIZES[0].height}`,
    themes: ["dark", "light"],
    default_theme: info.defaultTheme,
    uses: [...info.uses],
    parameters: [...COMMON_PARAMETERS, ...KIND_PARAMETERS[info.kind]],
  })),
};

/**
 * How the pipeline treats a banner: one its query alone decides is cached a
 * day and answered again without parsing or resolving (its URL cannot come
 * to mean another image); live and pushed data is planned per request.
 */
function planned(banner: PreparedBanner): PlannedImage {
  return banner.byQueryAlone
    ? { image: banner, status: 200, cacheControl: CACHE_CONTROL.byQueryAlone, reuseForMs: MAX_AGE_SECONDS.byQueryAlone * 1000 }
    : { image: banner, status: 200, cacheControl: CACHE_CONTROL.live, reuseForMs: 0 };
}

export function bannerRoutes(deps: BannerRouteDeps) {
  return new Elysia({ name: "pennant/banners" })
    .get(
      BANNER_PATH,
      ({ query, request, server }) =>
        deps.images.answer(
          request,
          server,
          async () => planned(await deps.banners.prepare(parseBannerQuery(query))),
          (failure) => deps.banners.errorImage(failure.message, errorImageSize(query)),
        ),
      {
        query: BANNER_QUERY,
        detail: {
          summary: "A banner image of a Minecraft server or plugin (PNG or WebP)",
          description:
            "Manual values override looked-up or pushed ones. Strong ETag and 304; cached a day when the query alone decides the image, " +
            "a minute otherwise. Limited per client IP (PENNANT_RATE_LIMIT), with RateLimit-* headers.",
          tags: ["banners"],
          responses: {
            200: imageSuccess("The banner", ["image/png", "image/webp"]),
            304: NOT_MODIFIED,
            ...errorResponses(
              { 400: ["invalid_request"], 429: ["rate_limited"], 503: ["database_unavailable"] },
              { statuses: { 400: "also", 429: "also" }, when: "A client whose Accept names image/* (an <img> tag) gets a PNG stating the problem" },
            ),
          },
        },
      },
    )
    .get(
      "/api/templates",
      ({ set }) => {
        set.headers["cache-control"] = "public, max-age=300";
        return TEMPLATE_LIST;
      },
      {
        detail: {
          summary: "The banner templates: sizes, themes and the parameters each one uses",
          tags: ["banners"],
          responses: { 200: jsonSuccess("The templates", TEMPLATE_LIST_SCHEMA) },
        },
      },
    );
}
