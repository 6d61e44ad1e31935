// GET /api/banner (the image) and GET /api/templates (what can be drawn).
// Parses parameters and sets headers; src/banner does the rest. Errors are
// an image stating the problem when the client asked for an image (an <img>
// tag shows it), the JSON error shape otherwise.

import { Elysia } from "elysia";
import type { BannerService, PreparedBanner } from "../banner/service.ts";
import type { Config } from "../config.ts";
import { TtlCache } from "../ttl-cache.ts";
import { BANNER_QUERY } from "./banner-parameters.ts";
import { errorImageSize, parseBannerQuery, type BannerQuery } from "./banner-query.ts";
import type { RouteFailures } from "./error-handling.ts";
import { HttpError } from "./errors.ts";
import { acceptsImage, etagOf, imageResponse, matchesEtag, NO_BYTES } from "./image-response.ts";
import { spendIpBudget } from "./ip-rate-limit.ts";
import { NOT_MODIFIED, errorResponses, imageSuccess, jsonSuccess } from "./openapi/responses.ts";
import type { RateLimiter } from "./rate-limit.ts";
import { TEMPLATE_LIST, TEMPLATE_LIST_SCHEMA } from "./template-list.ts";

export interface BannerRouteDeps {
  config: Config;
  banners: BannerService;
  known: KnownBanners;
  ipLimiter: RateLimiter;
  failures: RouteFailures;
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

/** A known query string's entry holds it, the parsed request and the resolved data (a few times the length of what is drawn, counted generously). */
const KNOWN_QUERY_BYTES = 8 * 1024 * 1024;
const KNOWN_QUERY_ENTRY_BYTES = 1_024;

export interface KnownBanner {
  banner: PreparedBanner;
  etag: string;
}

/** The query string of a request URL, without the "?". */
export function queryString(request: Request): string {
  const at = request.url.indexOf("?");
  return at < 0 ? "" : request.url.slice(at + 1);
}

/**
 * Banners decided by their query alone, by query string: a popular manual
 * banner then costs a map lookup instead of parsing, resolving and hashing
 * (and, drawn already, is answered by banner-hot-path.ts). Bounded in bytes.
 */
export class KnownBanners {
  private readonly entries: TtlCache<KnownBanner>;

  constructor(now: () => number) {
    this.entries = new TtlCache<KnownBanner>({
      maxBytes: KNOWN_QUERY_BYTES,
      sizeOf: ({ banner }) => KNOWN_QUERY_ENTRY_BYTES + 8 * banner.parts.reduce((sum, part) => sum + part.length, 0),
      sweepEveryMs: 60_000,
      now,
    });
  }

  get(search: string): KnownBanner | undefined {
    return this.entries.get(search);
  }

  /** Remembers a banner its query alone decides; others are not kept. */
  remember(search: string, known: KnownBanner): void {
    if (known.banner.byQueryAlone) this.entries.set(search, known, MAX_AGE_SECONDS.byQueryAlone * 1000);
  }
}

/** The answer of a banner: the image, or a 304 when the client holds its ETag; `headers` is completed (imageResponse). */
export function bannerAnswer(request: Request, known: KnownBanner, bytes: Uint8Array, headers: Record<string, string>): Response {
  headers["Cache-Control"] = known.banner.byQueryAlone ? CACHE_CONTROL.byQueryAlone : CACHE_CONTROL.live;
  return imageResponse(request, { bytes, contentType: known.banner.contentType, etag: known.etag }, headers);
}

export function bannerRoutes(deps: BannerRouteDeps) {
  async function prepare(request: Request, query: BannerQuery): Promise<KnownBanner> {
    const search = queryString(request);
    const seen = deps.known.get(search);
    if (seen) return seen;
    const banner = await deps.banners.prepare(parseBannerQuery(query));
    const prepared = { banner, etag: etagOf(banner.parts) };
    deps.known.remember(search, prepared);
    return prepared;
  }

  return new Elysia({ name: "pennant/banners" })
    .get(
      "/api/banner",
      async ({ query, request, server }) => {
        let budget: Record<string, string> = {};
        try {
          budget = spendIpBudget(deps.ipLimiter, request, server, deps.config.trustProxy);
          const known = await prepare(request, query);
          // A client holding this ETag gets its 304 without the banner being drawn.
          const bytes = matchesEtag(request, known.etag) ? NO_BYTES : await known.banner.image(known.etag);
          return bannerAnswer(request, known, bytes, budget);
        } catch (error) {
          // Unexpected failures too (a database fault): an <img> shows what went wrong.
          const failure = error instanceof HttpError ? error : deps.failures.explain(error, request);
          if (!failure) throw error;
          const headers = { ...budget, ...failure.headers, "Cache-Control": "no-store", Vary: "Accept" };
          if (!acceptsImage(request)) throw new HttpError(failure.status, failure.code, failure.message, headers);
          deps.failures.note(request, failure.code);
          const bytes = await deps.banners.errorImage(failure.message, errorImageSize(query));
          return new Response(bytes, { status: failure.status, headers: { ...headers, "Content-Type": "image/png" } });
        }
      },
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
