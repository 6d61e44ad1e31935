// GET /api/banner (the image) and GET /api/templates (what can be drawn).
// Parses parameters and plans the banner with src/banner; the image pipeline
// (image-pipeline.ts) answers it. Errors are an image stating the problem
// when the client asked for an image (an <img> tag shows it), the JSON error
// shape otherwise.

import { Elysia } from "elysia";
import type { BannerService, PreparedBanner } from "../banner/banner-service.ts";
import { MarketRefusal } from "../banner/resolve-resource.ts";
import type { BannerSize } from "../banner/model.ts";
import { HttpError } from "./errors.ts";
import { BANNER_QUERY } from "./banner-parameters.ts";
import { errorImageSize, parseBannerQuery } from "./banner-query.ts";
import type { HistoryChargeFor } from "./history-charge.ts";
import type { ImageRoute, PlannedImage } from "./image-pipeline.ts";
import { NOT_MODIFIED, errorResponses, imageSuccess, jsonSuccess } from "./openapi/responses.ts";
import { TEMPLATE_LIST, TEMPLATE_LIST_SCHEMA } from "./template-list.ts";

export const BANNER_PATH = "/api/banner";

export interface BannerRouteDeps {
  banners: BannerService;
  /** The pipeline's route for BANNER_PATH: per-request budget, errors as images for <img> tags. */
  images: ImageRoute;
  /** What reading a chart's history costs the client (history-charge.ts). */
  historyCharge: HistoryChargeFor;
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
 * How the pipeline treats a banner: one its query alone decides is cached a
 * day and answered again without parsing or resolving (its URL cannot come
 * to mean another image); one of a lookup alone likewise while the lookup's
 * answer is still the one cached (stillCurrent: its minute at most); pushed
 * data is planned per request.
 */
function planned(banner: PreparedBanner): PlannedImage {
  if (banner.byQueryAlone) return { image: banner, status: 200, cacheControl: CACHE_CONTROL.byQueryAlone, reuseForMs: MAX_AGE_SECONDS.byQueryAlone * 1000 };
  const { stillCurrent } = banner;
  return stillCurrent
    ? { image: banner, status: 200, cacheControl: CACHE_CONTROL.live, reuseForMs: MAX_AGE_SECONDS.live * 1000, stillCurrent }
    : { image: banner, status: 200, cacheControl: CACHE_CONTROL.live, reuseForMs: 0 };
}

/**
 * A market banner with nothing to draw: an unknown project or author is a
 * 404 and a malformed one a 400 (an image saying so where an <img> asked,
 * the JSON error otherwise); a site unreachable with nothing cached, or the
 * marketplaces off, an image saying "unavailable" (200, never kept: the next
 * request asks the site again), as shields answers, never a 5xx.
 */
function refused(refusal: MarketRefusal, banners: BannerService, size: BannerSize): PlannedImage {
  const { answer, target, message } = refusal;
  if (answer.status === "not_found") throw new HttpError(404, "project" in target ? "unknown_project" : "unknown_author", message);
  if (answer.status === "invalid") throw new HttpError(400, "invalid_request", message);
  return { image: banners.errorImage(message, size), status: 200, cacheControl: "no-store", reuseForMs: 0 };
}

export function bannerRoutes(deps: BannerRouteDeps) {
  return new Elysia({ name: "pennant/banners" })
    .get(
      BANNER_PATH,
      ({ query, request, server }) =>
        deps.images.answer(
          request,
          server,
          async () => {
            try {
              return planned(await deps.banners.prepare(parseBannerQuery(query), deps.historyCharge(request, server)));
            } catch (error) {
              if (error instanceof MarketRefusal) return refused(error, deps.banners, errorImageSize(query));
              throw error;
            }
          },
          (failure) => deps.banners.errorImage(failure.message, errorImageSize(query)),
        ),
      {
        query: BANNER_QUERY,
        detail: {
          summary: "A banner image of a Minecraft server, a plugin, or a marketplace's project or author (PNG, WebP or GIF)",
          description:
            "Manual values override looked-up or pushed ones. Strong ETag and 304; cached a day when the query alone decides the image, " +
            "a minute otherwise. Limited per client IP (PENNANT_RATE_LIMIT), with RateLimit-* headers. " +
            "The resource template (site=, project= or author=): an unknown project or author is a 404; a site unreachable with nothing cached " +
            "(or PENNANT_MARKETS=off) answers 200 with an image saying unavailable, never kept.",
          tags: ["banners"],
          responses: {
            200: imageSuccess("The banner", ["image/png", "image/webp", "image/gif"]),
            304: NOT_MODIFIED,
            ...errorResponses(
              { 400: ["invalid_request"], 404: ["unknown_project", "unknown_author"], 429: ["rate_limited"], 503: ["database_unavailable", "draw_queue_full"] },
              { statuses: { 400: "also", 404: "also", 429: "also", 503: "also" }, when: "A client whose Accept names image/* (an <img> tag) gets a PNG stating the problem" },
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
