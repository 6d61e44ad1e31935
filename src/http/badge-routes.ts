// Public badges: GET /shields/plugins/{plugin_uuid}/{metric}.png|.json and
// /shields/servers/{server_uuid}/{metric}.png|.json. This file parses the
// path and query, sets headers and hands over to src/badge.
//
// Cost control: a badge is known by what it shows, so a request whose ETag
// the client holds gets a 304 without a draw, and a badge already drawn is
// served from the render cache. Only a draw (a cache miss) spends the
// client's badge budget, a per-address budget of its own the size of
// PENNANT_RATE_LIMIT: README images come through a few proxy addresses
// (GitHub's camo) that must not be refused for serving cached badges, while
// one address varying label or colour to force draws is stopped.

import { Elysia, t } from "elysia";
import pkg from "../../package.json" with { type: "json" };
import { badgeColor } from "../badge/colors.ts";
import { BadgeImages, drawKey } from "../badge/images.ts";
import type { BadgeContent } from "../badge/layout.ts";
import { badgeOptions, type BadgeOptions } from "../badge/options.ts";
import { endpointJson, pluginBadge, serverBadge, type BadgeAnswer } from "../badge/resolve.ts";
import type { Config } from "../config.ts";
import type { ServiceMetrics } from "../metrics/service.ts";
import type { ImageCacheEvents } from "../ttl-cache.ts";
import type { Db } from "../store/database.ts";
import { HttpError, errorBody } from "./errors.ts";
import { etagOf, imageResponse, matchesEtag } from "./image-response.ts";
import { spendIpBudget } from "./ip-rate-limit.ts";
import { RateLimiter } from "./rate-limit.ts";
import { parseUuid } from "./uuid.ts";

export interface BadgeRouteDeps {
  config: Config;
  db: Db;
  now: () => number;
  metrics: ServiceMetrics;
  imageEvents: ImageCacheEvents;
}

interface SocketInfo {
  requestIP(request: Request): { address: string } | null;
}

const CORS = { "Access-Control-Allow-Origin": "*" };
/** The last path segment: the metric and the format. */
const METRIC_FILE = /^([a-z0-9-]{1,64})\.(png|json)$/;
const NO_BYTES = new Uint8Array(0);

const cacheControl = (seconds: number) => `public, max-age=${seconds}, s-maxage=${seconds}`;

/** ETags change with the release, so a drawing changed by an upgrade is fetched again. */
const pngEtag = (content: BadgeContent, scale: number) => etagOf(["badge", pkg.version, drawKey(content, scale)]);

/** One per style: what a client past its draw budget sees. */
const rateLimited = (options: BadgeOptions): BadgeContent =>
  ({ label: "badge", message: "rate limited", color: badgeColor("red"), style: options.style });

export function badgeRoutes(deps: BadgeRouteDeps) {
  const images = new BadgeImages(deps.now, undefined, deps.imageEvents);
  deps.metrics.watchCache("badge_images", () => images.stats);
  const drawLimiter = new RateLimiter(deps.config.rateLimit, 100_000, deps.now);
  const staleAfterMs = deps.config.staleAfterSeconds * 1000;

  function png(request: Request, server: SocketInfo | null, answer: BadgeAnswer, options: BadgeOptions): Response {
    const headers = { ...CORS, "Cache-Control": cacheControl(answer.maxAge) };
    const etag = pngEtag(answer.content, options.scale);
    // The client holds this very badge: no draw, no budget.
    if (answer.status === 200 && matchesEtag(request, etag)) {
      return imageResponse(request, { bytes: NO_BYTES, contentType: "image/png", etag }, headers);
    }
    try {
      const spend = () => spendIpBudget(drawLimiter, request, server, deps.config.trustProxy, CORS);
      const bytes = images.png(answer.content, options.scale, spend);
      return imageResponse(request, { bytes, contentType: "image/png", etag }, headers, answer.status);
    } catch (error) {
      if (!(error instanceof HttpError) || error.status !== 429) throw error;
      // Drawn once per style and scale: refusing costs no draw.
      const limited = rateLimited(options);
      const image = { bytes: images.png(limited, options.scale), contentType: "image/png" as const, etag: pngEtag(limited, options.scale) };
      return imageResponse(request, image, { ...error.headers, "Cache-Control": "no-store" }, 429);
    }
  }

  function json(request: Request, answer: BadgeAnswer, options: BadgeOptions): Response {
    const headers = { ...CORS, "Cache-Control": cacheControl(answer.maxAge) };
    if (answer.error) return Response.json(errorBody(answer.error.code, answer.error.message), { status: answer.status, headers });
    const body = JSON.stringify(endpointJson(answer, options));
    const etag = etagOf(["badge.json", body]);
    if (matchesEtag(request, etag)) return new Response(null, { status: 304, headers: { ...headers, ETag: etag } });
    return new Response(body, { headers: { ...headers, "Content-Type": "application/json", ETag: etag } });
  }

  function serve(
    request: Request, server: SocketInfo | null, segment: string,
    resolve: (metric: string, options: BadgeOptions) => BadgeAnswer,
  ): Response {
    const options = badgeOptions(new URL(request.url).searchParams);
    const file = METRIC_FILE.exec(segment);
    // Without .png or .json it is no badge address; the metric is unknown either way.
    const answer = resolve(file?.[1] ?? "", options);
    return file?.[2] === "json" ? json(request, answer, options) : png(request, server, answer, options);
  }

  const detail = (subject: string) => ({
    summary: `A shields-style badge of one metric of a ${subject}, as PNG or shields.io endpoint JSON`,
    description: "Unknown subjects and metrics answer 404 with a 'not found' badge (JSON error for .json).",
    tags: ["badges"],
  });

  return new Elysia()
    .get(
      "/shields/plugins/:plugin_uuid/:metric",
      ({ params, request, server }) =>
        serve(request, server, params.metric, (metric, options) =>
          pluginBadge(deps.db, parseUuid(params.plugin_uuid), metric, options, deps.now())),
      { params: t.Object({ plugin_uuid: t.String(), metric: t.String() }), detail: detail("plugin") },
    )
    .get(
      "/shields/servers/:server_uuid/:metric",
      ({ params, request, server }) =>
        serve(request, server, params.metric, (metric, options) =>
          serverBadge(deps.db, parseUuid(params.server_uuid), metric, options, deps.now(), staleAfterMs)),
      { params: t.Object({ server_uuid: t.String(), metric: t.String() }), detail: detail("server") },
    );
}
