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

import { Type } from "@sinclair/typebox";
import { Elysia, t } from "elysia";
import pkg from "../../package.json" with { type: "json" };
import { badgeColor } from "../badge/colors.ts";
import type { BadgeCaches } from "../badge/badge-caches.ts";
import { BadgeImages, drawKey } from "../badge/images.ts";
import type { BadgeContent } from "../badge/layout.ts";
import { MAX_CACHE_SECONDS, MAX_LABEL_CHARACTERS, badgeOptions, type BadgeOptions } from "../badge/options.ts";
import { PLUGIN_METRICS } from "../badge/plugin-metrics.ts";
import { SERVER_METRICS } from "../badge/server-metrics.ts";
import { STYLE_NAMES } from "../badge/styles.ts";
import { endpointJson, pluginBadge, serverBadge, type BadgeAnswer } from "../badge/resolve.ts";
import type { Config } from "../config.ts";
import type { ServiceMetrics } from "../metrics/service.ts";
import type { ImageCacheEvents } from "../ttl-cache.ts";
import type { Db } from "../store/database.ts";
import type { SocketInfo } from "./client-ip.ts";
import type { RouteFailures } from "./error-handling.ts";
import { HttpError, errorBody } from "./errors.ts";
import { etagOf, imageResponse, matchesEtag, NO_BYTES } from "./image-response.ts";
import { spendIpBudget } from "./ip-rate-limit.ts";
import { choice } from "./openapi/parameters.ts";
import { NOT_MODIFIED, errorResponses, imageSuccess, literals } from "./openapi/responses.ts";
import { RateLimiter } from "./rate-limit.ts";
import { parseUuid } from "./uuid.ts";

export interface BadgeRouteDeps {
  config: Config;
  db: Db;
  now: () => number;
  metrics: ServiceMetrics;
  imageEvents: ImageCacheEvents;
  failures: RouteFailures;
  /** What drawing keeps between badges (the app's, from its cache budget). */
  drawing: BadgeCaches;
}

const CORS = { "Access-Control-Allow-Origin": "*" };
/** The last path segment: the metric and the format. */
const METRIC_FILE = /^([a-z0-9-]{1,64})\.(png|json)$/;
const cacheControl = (seconds: number) => `public, max-age=${seconds}, s-maxage=${seconds}`;

/** ETags change with the release, so a drawing changed by an upgrade is fetched again. */
const pngEtag = (content: BadgeContent, scale: number) => etagOf(["badge", pkg.version, drawKey(content, scale)]);

/** The badge that says why there is none: few of them, so each is drawn once per style and scale. */
const refusal = (message: string, options: BadgeOptions): BadgeContent =>
  ({ label: "badge", message, color: badgeColor("red"), style: options.style });

const FAILURE_MESSAGES: Record<number, string> = { 429: "rate limited", 503: "database unavailable" };

/**
 * Described, not checked by Elysia: an unknown subject or metric is a "not
 * found" badge and an invalid option is ignored (a badge in a README must not
 * turn into an error over a typo), which a validation error would break.
 */
const SUBJECT_UUID = t.String({ format: "uuid", description: "The UUID the record was pushed under" });
const metricFile = (metrics: ReadonlyMap<string, unknown>) =>
  t.String({
    pattern: METRIC_FILE.source,
    description: `{metric}.png for the image, {metric}.json for shields.io endpoint JSON; metrics: ${[...metrics.keys()].join(", ")}`,
  });
const PLUGIN_PARAMS = t.NoValidate(t.Object({ plugin_uuid: SUBJECT_UUID, metric: metricFile(PLUGIN_METRICS) }));
const SERVER_PARAMS = t.NoValidate(t.Object({ server_uuid: SUBJECT_UUID, metric: metricFile(SERVER_METRICS) }));

const color = (description: string) => t.Optional(t.String({ description: `${description}: a name (brightgreen, red...) or hex without #` }));

const BADGE_QUERY = t.NoValidate(
  t.Object({
    label: t.Optional(t.String({ maxLength: MAX_LABEL_CHARACTERS, description: "Replaces the left label (empty: none)" })),
    color: color("Badge colour"),
    labelColor: color("Label colour"),
    colorB: color("Older name of color"),
    colorA: color("Older name of labelColor"),
    style: choice(STYLE_NAMES, "flat (default), flat-square, plastic, for-the-badge or social"),
    scale: choice(["1", "2"], "1 (default) or 2: twice the pixels (Hi-DPI), PNG only"),
    cacheSeconds: t.Optional(t.String({ pattern: "^[0-9]{1,9}$", description: `Seconds it may be cached, when longer than the metric's own (at most ${MAX_CACHE_SECONDS})` })),
  }),
);

const ENDPOINT_JSON = Type.Object(
  {
    schemaVersion: Type.Literal(1),
    label: Type.String(),
    message: Type.String(),
    color: Type.String(),
    labelColor: Type.Optional(Type.String()),
    style: Type.Optional(literals(STYLE_NAMES, { description: "Present when the query named one" })),
  },
  { title: "ShieldsEndpoint", description: "shields.io endpoint badge JSON" },
);

const BADGE_RESPONSES = {
  200: imageSuccess("The badge (.png), or its shields.io endpoint JSON (.json)", ["image/png"], { "application/json": { schema: ENDPOINT_JSON } }),
  304: NOT_MODIFIED,
  ...errorResponses(
    { 404: ["unknown_plugin", "unknown_server", "unknown_metric"], 429: ["rate_limited"], 503: ["database_unavailable"] },
    { statuses: { 404: "also", 429: "only" }, when: ".png answers with a badge image saying so (a .png draw beyond the per-IP budget: a \"rate limited\" badge)" },
  ),
};

export function badgeRoutes(deps: BadgeRouteDeps) {
  const maxBytes = deps.config.cacheBytes.badge_images;
  const images = new BadgeImages(deps.now, maxBytes, deps.imageEvents, deps.drawing);
  deps.metrics.watchCache("badge_images", () => ({ ...images.stats, maxBytes }));
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
      return failurePng(request, error, options);
    }
  }

  /** A badge stating `failure` (a spent budget, a database fault...), with its status; it spends no budget. */
  function failurePng(request: Request, failure: HttpError, options: BadgeOptions): Response {
    const content = refusal(FAILURE_MESSAGES[failure.status] ?? "server error", options);
    const image = { bytes: images.png(content, options.scale), contentType: "image/png" as const, etag: pngEtag(content, options.scale) };
    return imageResponse(request, image, { ...CORS, ...failure.headers, "Cache-Control": "no-store" }, failure.status);
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
    const asJson = file?.[2] === "json";
    let answer: BadgeAnswer;
    try {
      // Without .png or .json it is no badge address; the metric is unknown either way.
      answer = resolve(file?.[1] ?? "", options);
    } catch (error) {
      // A failure reading the record (a database fault): a .png is still an image, saying so.
      const failure = asJson ? null : deps.failures.explain(error, request);
      if (!failure) throw error;
      deps.failures.note(request, failure.code);
      return failurePng(request, failure, options);
    }
    return asJson ? json(request, answer, options) : png(request, server, answer, options);
  }

  const detail = (subject: "plugin" | "server") => ({
    summary: `A shields-style badge of one metric of a ${subject}, as PNG or shields.io endpoint JSON`,
    description:
      "Open to any website (CORS). Unknown subjects and metrics answer 404 with a 'not found' badge (JSON error for .json). " +
      "Strong ETag and 304; a badge drawn anew spends the client's per-IP draw budget (PENNANT_RATE_LIMIT), a cached one does not.",
    tags: ["badges"],
    responses: BADGE_RESPONSES,
  });

  return new Elysia()
    .get(
      "/shields/plugins/:plugin_uuid/:metric",
      ({ params, request, server }) =>
        serve(request, server, params.metric, (metric, options) =>
          pluginBadge(deps.db, parseUuid(params.plugin_uuid), metric, options, deps.now())),
      { params: PLUGIN_PARAMS, query: BADGE_QUERY, detail: detail("plugin") },
    )
    .get(
      "/shields/servers/:server_uuid/:metric",
      ({ params, request, server }) =>
        serve(request, server, params.metric, (metric, options) =>
          serverBadge(deps.db, parseUuid(params.server_uuid), metric, options, deps.now(), staleAfterMs)),
      { params: SERVER_PARAMS, query: BADGE_QUERY, detail: detail("server") },
    );
}
