// GET /api/banner (the image) and GET /api/templates (what can be drawn).
// Parses parameters and sets headers; src/banner does the rest. Errors are
// an image stating the problem when the client asked for an image (an <img>
// tag shows it), the JSON error shape otherwise.

import { Elysia, t } from "elysia";
import type { BannerService, PreparedBanner } from "../banner/service.ts";
import { BANNER_SIZES } from "../banner/model.ts";
import { DEFAULT_TEMPLATE, templates } from "../banner/templates/index.ts";
import type { Config } from "../config.ts";
import { TtlCache } from "../ttl-cache.ts";
import { errorImageSize, parseBannerQuery, type BannerQuery } from "./banner-query.ts";
import { HttpError } from "./errors.ts";
import { acceptsImage, etagOf, imageResponse, matchesEtag } from "./image-response.ts";
import { spendIpBudget } from "./ip-rate-limit.ts";
import type { RateLimiter } from "./rate-limit.ts";

export interface BannerRouteDeps {
  config: Config;
  banners: BannerService;
  ipLimiter: RateLimiter;
  now: () => number;
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

/**
 * Banners decided by their query alone, by query string: a popular manual
 * banner then costs a map lookup instead of parsing, resolving and hashing.
 * An entry holds its query string, the parsed request and the resolved data
 * (a few times the length of what is drawn, counted generously).
 */
const KNOWN_QUERY_BYTES = 8 * 1024 * 1024;
const KNOWN_QUERY_ENTRY_BYTES = 1_024;

const text = (description: string) => t.Optional(t.String({ description }));

/**
 * Every value is a string to Elysia, so its own validation never answers:
 * parseBannerQuery checks them and errors keep the image-or-JSON choice.
 */
const BANNER_QUERY = t.Object({
  server_name: text("Displayed server name (default: the pushed name, else ip_address, else \"Minecraft Server\")"),
  ip_address: text("Server address, host[:port]; required when data_mode=query"),
  online_players: text("Players online (whole number); overrides looked-up or pushed values"),
  max_players: text("Player slots (whole number); overrides looked-up or pushed values"),
  server_status: text("online or offline; overrides the looked-up or pushed status"),
  motd_line_1: text("First MOTD line (§ colour codes allowed)"),
  motd_line_2: text("Second MOTD line"),
  template_key: text(`Template (default ${DEFAULT_TEMPLATE}); GET /api/templates lists them`),
  theme: text("light or dark (default: the template's own)"),
  width: text("Banner width; with height, one of the supported sizes"),
  height: text("Banner height"),
  size: text(`WIDTHxHEIGHT: ${BANNER_SIZES.map((size) => `${size.width}x${size.height}`).join(", ")} (default 468x60)`),
  format: text("png (default) or webp"),
  data_mode: text("manual (default), query (live lookup of ip_address) or plugin (the record pushed for server_uuid)"),
  server_uuid: text("data_mode=plugin: the UUID the server's plugin pushes as"),
  plugin_uuid: text("Plugin templates: the plugin record's UUID"),
  edition: text("data_mode=query: java (default) or bedrock"),
  scale: text("1 (default) or 2: twice the pixels, same layout (Hi-DPI)"),
  accent: text("Accent colour, hex (RGB, RRGGBB or RRGGBBAA; # optional)"),
  background: text("Background colour, hex (alpha allowed: a transparent banner)"),
});

/** Query parameters every template reads, and those of each kind. */
const COMMON_PARAMETERS = ["template_key", "size", "width", "height", "theme", "format", "scale", "accent", "background"];
const KIND_PARAMETERS = {
  server: ["data_mode", "server_name", "ip_address", "edition", "server_uuid", "online_players", "max_players", "server_status", "motd_line_1", "motd_line_2"],
  plugin: ["plugin_uuid"],
};

const TEMPLATE_LIST = {
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
    uses: info.uses,
    parameters: [...COMMON_PARAMETERS, ...KIND_PARAMETERS[info.kind]],
  })),
};

const NO_BYTES = new Uint8Array(0);

interface Prepared {
  banner: PreparedBanner;
  etag: string;
}

function queryString(request: Request): string {
  const at = request.url.indexOf("?");
  return at < 0 ? "" : request.url.slice(at + 1);
}

export function bannerRoutes(deps: BannerRouteDeps) {
  const known = new TtlCache<Prepared>({
    maxBytes: KNOWN_QUERY_BYTES,
    sizeOf: ({ banner }) => KNOWN_QUERY_ENTRY_BYTES + 8 * banner.parts.reduce((sum, part) => sum + part.length, 0),
    sweepEveryMs: 60_000,
    now: deps.now,
  });

  async function prepare(request: Request, query: BannerQuery): Promise<Prepared> {
    const search = queryString(request);
    const seen = known.get(search);
    if (seen) return seen;
    const banner = await deps.banners.prepare(parseBannerQuery(query));
    const prepared = { banner, etag: etagOf(banner.parts) };
    if (banner.byQueryAlone) known.set(search, prepared, MAX_AGE_SECONDS.byQueryAlone * 1000);
    return prepared;
  }

  return new Elysia({ name: "pennant/banners" })
    .get(
      "/api/banner",
      async ({ query, request, server }) => {
        let budget: Record<string, string> = {};
        try {
          budget = spendIpBudget(deps.ipLimiter, request, server, deps.config.trustProxy);
          const { banner, etag } = await prepare(request, query);
          const headers = { ...budget, "Cache-Control": banner.byQueryAlone ? CACHE_CONTROL.byQueryAlone : CACHE_CONTROL.live };
          // A client holding this ETag gets its 304 without the banner being drawn.
          const bytes = matchesEtag(request, etag) ? NO_BYTES : await banner.image(etag);
          return imageResponse(request, { bytes, contentType: banner.contentType, etag }, headers);
        } catch (error) {
          if (!(error instanceof HttpError)) throw error;
          const headers = { ...budget, ...error.headers, "Cache-Control": "no-store", Vary: "Accept" };
          if (!acceptsImage(request)) throw new HttpError(error.status, error.code, error.message, headers);
          const bytes = await deps.banners.errorImage(error.message, errorImageSize(query));
          return new Response(bytes, { status: error.status, headers: { ...headers, "Content-Type": "image/png" } });
        }
      },
      {
        query: BANNER_QUERY,
        detail: {
          summary: "A banner image of a Minecraft server or plugin (PNG or WebP)",
          description:
            "Manual values override looked-up or pushed ones. Errors are a PNG stating the problem when Accept names image/*, JSON otherwise. " +
            "Strong ETag and 304; limited per client IP (PENNANT_RATE_LIMIT).",
          tags: ["banners"],
        },
      },
    )
    .get(
      "/api/templates",
      ({ set }) => {
        set.headers["cache-control"] = "public, max-age=300";
        return TEMPLATE_LIST;
      },
      { detail: { summary: "The banner templates: sizes, themes and the parameters each one uses", tags: ["banners"] } },
    );
}
