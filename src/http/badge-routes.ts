// Public badges: GET /shields/plugins/{plugin_uuid}/{metric}.png|.svg|.json,
// /shields/servers/{server_uuid}/{metric}.png|.svg|.json,
// /shields/networks/{slug}/{metric}.png|.svg|.json and a marketplace
// project's /shields/{site}/{project}/{metric}.png|.svg|.json (Hangar's
// project as two segments, /shields/hangar/{owner}/{slug}/..., as its
// address shows it: no escaped slash to type). This file parses the path
// and query and asks src/badge what the badge shows; the image pipeline
// (image-pipeline.ts) answers a .png or .svg, this file the .json. The format
// is read from the path in one place (serve), so every subject served through
// it has all three.
//
// Cost control: a badge is known by what it shows, so a request whose ETag
// the client holds gets a 304 without a draw, and a badge already drawn is
// served from the pipeline's cache. Only a draw (a cache miss no drawing in
// flight covers: a request for a badge being drawn waits for it) spends the
// client's badge budget, a per-address budget of its own the size of
// PENNANT_RATE_LIMIT (app.ts): README images come through a few proxy
// addresses (GitHub's camo) that must not be refused for serving cached
// badges, while one address varying label or colour to force draws is
// stopped.

import { Type } from "@sinclair/typebox";
import { Elysia, t } from "elysia";
import { badgeColor } from "../badge/colors.ts";
import { badgeImageIn, type BadgeFormat, type BadgeJob, type BadgeSvgJob } from "../badge/images.ts";
import { MAX_CACHE_SECONDS, MAX_LABEL_CHARACTERS, badgeOptions, type BadgeOptions } from "../badge/options.ts";
import { PLUGIN_METRICS } from "../badge/plugin-metrics.ts";
import { SERVER_METRICS } from "../badge/server-metrics.ts";
import { STYLE_NAMES } from "../badge/styles.ts";
import { endpointJson, malformedSlug, malformedUuid, marketBadge, networkBadge, pluginBadge, serverBadge, type BadgeAnswer } from "../badge/badge-answers.ts";
import { MARKET_METRICS } from "../badge/market-metrics.ts";
import { NETWORK_METRICS } from "../badge/network-metrics.ts";
import { imageKey, type ImagePlan } from "../image-plan.ts";
import { MARKET_SITE_INFO, MARKET_SITES, type MarketService, type MarketSite } from "../market/market-project.ts";
import { HISTORY_RANGES, type ServerHistories } from "../store/history-ranges.ts";
import type { HistoryChargeFor } from "./history-charge.ts";
import { canonicalSlug, SLUG_RULE } from "../store/network-records.ts";
import type { Store } from "../store/store.ts";
import type { SocketInfo } from "./client-ip.ts";
import { errorBody, type HttpError } from "./errors.ts";
import type { ImageRoute, PlannedImage } from "./image-pipeline.ts";
import { matchesEtag } from "./image-response.ts";
import { choiceParameter } from "./openapi/parameters.ts";
import { NOT_MODIFIED, errorResponses, imageSuccess, literals } from "./openapi/responses.ts";
import { malformedUuidMessage, parseUuid } from "./uuid.ts";

export const BADGE_PATHS = {
  plugin: "/shields/plugins/:plugin_uuid/:metric", server: "/shields/servers/:server_uuid/:metric", network: "/shields/networks/:slug/:metric",
};

/** A marketplace project's badge path per site: Hangar's project is owner/slug, two segments. */
export const MARKET_BADGE_PATHS: Readonly<Record<MarketSite, string>> = Object.fromEntries(
  MARKET_SITES.map((site) => [site, site === "hangar" ? "/shields/hangar/:owner/:slug/:metric" : `/shields/${site}/:project/:metric`]),
) as Record<MarketSite, string>;

export interface BadgeRouteDeps {
  store: Store;
  /** The marketplaces' projects, fetched and cached (src/market). */
  markets: MarketService;
  /** Servers' histories, cached (uptime and peak badges), and what reading them costs a client. */
  histories: ServerHistories;
  historyCharge: HistoryChargeFor;
  now: () => number;
  /** PENNANT_STALE_AFTER in milliseconds. */
  staleAfterMs: number;
  /** The pipeline's routes for BADGE_PATHS: a budget spent by draws only, errors always as badges. */
  images: { plugin: ImageRoute; server: ImageRoute; network: ImageRoute; market: Readonly<Record<MarketSite, ImageRoute>> };
}

/** The last path segment: the metric and the format. */
const METRIC_FILE = /^([a-z0-9-]{1,64})\.(png|svg|json)$/;
const cacheControl = (seconds: number) => `public, max-age=${seconds}, s-maxage=${seconds}`;
/**
 * An image URL's answer (its record read, the metric taken) is reused for this
 * long: a popular badge then costs a map lookup, not a database read. A push
 * or a server going stale shows within it, far inside the minute any badge
 * may be cached by its clients.
 */
const REUSE_MS = 1_000;

const FAILURE_MESSAGES: Record<number, string> = { 429: "rate limited", 503: "database unavailable" };

/** The badge that says why there is none: few of them, so each is drawn once per format, style and scale. */
const refusal = (failure: HttpError, format: BadgeFormat, options: BadgeOptions): ImagePlan<BadgeJob | BadgeSvgJob> => badgeImageIn(
  format,
  { label: "badge", message: FAILURE_MESSAGES[failure.status] ?? "server error", color: badgeColor("red"), style: options.style },
  options.scale,
);

/**
 * Described, not checked by Elysia: a malformed UUID is an "invalid uuid"
 * badge, an unknown subject or metric a "not found" badge, and an invalid
 * option is ignored (a badge in a README must not turn into an error over a
 * typo): a validation error would answer none of them with an image.
 */
const SUBJECT_UUID = t.String({ format: "uuid", description: "The UUID the record was pushed under" });
const metricFile = (metrics: ReadonlyMap<string, unknown>) =>
  t.String({
    pattern: METRIC_FILE.source,
    description: `{metric}.png or {metric}.svg for the image, {metric}.json for shields.io endpoint JSON; metrics: ${[...metrics.keys()].join(", ")}`,
  });
const PLUGIN_PARAMS = t.NoValidate(t.Object({ plugin_uuid: SUBJECT_UUID, metric: metricFile(PLUGIN_METRICS) }));
const SERVER_PARAMS = t.NoValidate(t.Object({ server_uuid: SUBJECT_UUID, metric: metricFile(SERVER_METRICS) }));
const NETWORK_PARAMS = t.NoValidate(t.Object({ slug: t.String({ description: `The network's slug (PUT /api/networks/{slug})` }), metric: metricFile(NETWORK_METRICS) }));

const MARKET_PROJECT = t.String({ description: "The project: Modrinth's id or slug; Spigot's, CurseForge's or Polymart's number (docs/markets.md)" });
const marketParams = (site: MarketSite) => t.NoValidate(site === "hangar"
  ? t.Object({ owner: t.String({ description: "The project's owner, as its Hangar address shows it" }), slug: t.String({ description: "The project's slug" }), metric: metricFile(MARKET_METRICS[site]) })
  : t.Object({ project: MARKET_PROJECT, metric: metricFile(MARKET_METRICS[site]) }));

const color = (description: string) => t.Optional(t.String({ description: `${description}: a name (brightgreen, red...) or hex without #` }));

const BADGE_QUERY = t.NoValidate(
  t.Object({
    label: t.Optional(t.String({ maxLength: MAX_LABEL_CHARACTERS, description: "Replaces the left label (empty: none)" })),
    color: color("Badge colour"),
    labelColor: color("Label colour"),
    colorB: color("Older name of color"),
    colorA: color("Older name of labelColor"),
    style: choiceParameter(STYLE_NAMES, "flat (default), flat-square, plastic, for-the-badge or social"),
    scale: choiceParameter(["1", "2"], "1 (default) or 2: twice the pixels (Hi-DPI), PNG only (an SVG is sharp at any size)"),
    cacheSeconds: t.Optional(t.String({ pattern: "^[0-9]{1,9}$", description: `Seconds it may be cached, when longer than the metric's own (at most ${MAX_CACHE_SECONDS})` })),
    range: choiceParameter(HISTORY_RANGES, `The history range of the server metrics uptime and peak: 24h, 7d (default), 30d or 1y`),
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
  200: imageSuccess("The badge (.png, .svg), or its shields.io endpoint JSON (.json)", ["image/png", "image/svg+xml"], { "application/json": { schema: ENDPOINT_JSON } }),
  304: NOT_MODIFIED,
  ...errorResponses(
    {
      400: ["invalid_plugin_uuid", "invalid_server_uuid", "invalid_slug", "invalid_project"],
      404: ["unknown_plugin", "unknown_server", "unknown_network", "unknown_project", "unknown_metric"], 429: ["rate_limited"],
      503: ["database_unavailable", "draw_queue_full"],
    },
    { statuses: { 400: "also", 404: "also", 429: "only", 503: "also" }, when: ".png and .svg answer with a badge image saying so (a draw beyond the per-IP budget: a \"rate limited\" badge)" },
  ),
};

export function badgeRoutes(deps: BadgeRouteDeps) {
  function image(
    request: Request, server: SocketInfo | null, images: ImageRoute, resolve: () => Promise<BadgeAnswer>, format: BadgeFormat, options: BadgeOptions,
  ): Promise<Response> {
    const plan = async (): Promise<PlannedImage> => {
      const answer = await resolve();
      return {
        image: badgeImageIn(format, answer.content, options.scale), status: answer.status, cacheControl: cacheControl(answer.maxAge), reuseForMs: REUSE_MS,
      };
    };
    return images.answer(request, server, plan, (failure) => refusal(failure, format, options));
  }

  function json(request: Request, answer: BadgeAnswer, options: BadgeOptions): Response {
    const headers = { "Cache-Control": cacheControl(answer.maxAge) };
    if (answer.error) return Response.json(errorBody(answer.error.code, answer.error.message), { status: answer.status, headers });
    const body = JSON.stringify(endpointJson(answer, options));
    const etag = `"${imageKey(["badge json", body])}"`;
    if (matchesEtag(request, etag)) return new Response(null, { status: 304, headers: { ...headers, ETag: etag } });
    return new Response(body, { headers: { ...headers, "Content-Type": "application/json", ETag: etag } });
  }

  /**
   * The badge of `subject` `rawUuid` (the path's text) and `segment` ({metric}.png, .svg or .json).
   * Elysia hands a parameter that is not valid percent-encoding ("%z") as null: the path's own text is named then.
   */
  function serve(
    request: Request, server: SocketInfo | null, subject: "plugin" | "server" | "network", images: ImageRoute, decodedUuid: string | null, segment: string,
    resolve: (uuid: string, metric: string, options: BadgeOptions) => Promise<BadgeAnswer>,
  ): Promise<Response> {
    const options = badgeOptions(new URL(request.url).searchParams);
    const file = METRIC_FILE.exec(segment);
    // Without .png, .svg or .json it is no badge address (a "not found" PNG); the metric is unknown either way.
    const metric = file?.[1] ?? "";
    const rawUuid = decodedUuid ?? new URL(request.url).pathname.split("/")[3] ?? "";
    // A network is known by its slug, the others by a UUID.
    const uuid = subject === "network" ? canonicalSlug(rawUuid) : parseUuid(rawUuid);
    const malformed = () => subject === "network"
      ? malformedSlug(`a network's slug is ${SLUG_RULE}`, options)
      : malformedUuid(subject, malformedUuidMessage(subject, rawUuid), options);
    const answer = async (): Promise<BadgeAnswer> => (uuid === null ? malformed() : resolve(uuid, metric, options));
    if (file?.[2] === "json") return answer().then((answered) => json(request, answered, options));
    return image(request, server, images, answer, file?.[2] === "svg" ? "svg" : "png", options);
  }

  /** A marketplace project's badge: `project` as the path names it (Hangar's owner/slug), null when its percent-encoding was not valid. */
  function serveMarket(request: Request, server: SocketInfo | null, site: MarketSite, project: string | null, segment: string): Promise<Response> {
    const options = badgeOptions(new URL(request.url).searchParams);
    const file = METRIC_FILE.exec(segment);
    const answer = () => marketBadge(deps.markets, site, project ?? "", file?.[1] ?? "", options, deps.now());
    if (file?.[2] === "json") return answer().then((answered) => json(request, answered, options));
    return image(request, server, deps.images.market[site], answer, file?.[2] === "svg" ? "svg" : "png", options);
  }

  const marketDetail = (site: MarketSite) => ({
    summary: `A shields-style badge of one metric of a ${MARKET_SITE_INFO[site].title} project, as PNG, SVG or shields.io endpoint JSON`,
    description:
      `Read from ${MARKET_SITE_INFO[site].title}'s public API by this server, cached 15 minutes (docs/markets.md). Open to any website (CORS). ` +
      "A reference of another form answers 400 with an 'invalid project' badge, an unknown project or metric 404 with a 'not found' badge; " +
      "the site unreachable with nothing kept (or PENNANT_MARKETS=off) answers 200 with an 'unavailable' badge; while it is down the last value " +
      "is shown, for up to a day. Strong ETag and 304; a badge drawn anew spends the client's per-IP draw budget.",
    tags: ["badges"],
    responses: BADGE_RESPONSES,
  });

  // One route per site (each its own metrics in OpenAPI); Elysia registers each on the instance itself.
  const marketRoutes = new Elysia();
  for (const site of MARKET_SITES) {
    marketRoutes.get(
      MARKET_BADGE_PATHS[site],
      ({ params, request, server }) => {
        const named = params as Record<string, string | null | undefined>;
        const project = site === "hangar" ? (named.owner == null || named.slug == null ? null : `${named.owner}/${named.slug}`) : named.project ?? null;
        return serveMarket(request, server, site, project, named.metric ?? "");
      },
      { params: marketParams(site), query: BADGE_QUERY, detail: marketDetail(site) },
    );
  }

  const detail = (subject: "plugin" | "server" | "network") => ({
    summary: `A shields-style badge of one metric of a ${subject}, as PNG, SVG or shields.io endpoint JSON`,
    description:
      "Open to any website (CORS). A malformed UUID answers 400 with an 'invalid uuid' badge, unknown subjects and metrics " +
      "404 with a 'not found' badge (JSON errors for .json). " +
      "Strong ETag and 304; a badge drawn anew spends the client's per-IP draw budget (PENNANT_RATE_LIMIT), a cached one does not.",
    tags: ["badges"],
    responses: BADGE_RESPONSES,
  });

  return new Elysia()
    .get(
      BADGE_PATHS.plugin,
      ({ params, request, server }) =>
        serve(request, server, "plugin", deps.images.plugin, params.plugin_uuid, params.metric, (uuid, metric, options) =>
          pluginBadge(deps.store, uuid, metric, options, deps.now())),
      { params: PLUGIN_PARAMS, query: BADGE_QUERY, detail: detail("plugin") },
    )
    .get(
      BADGE_PATHS.server,
      ({ params, request, server }) =>
        serve(request, server, "server", deps.images.server, params.server_uuid, params.metric, (uuid, metric, options) =>
          serverBadge(deps.store, deps.histories, deps.historyCharge(request, server), uuid, metric, options, deps.now(), deps.staleAfterMs)),
      { params: SERVER_PARAMS, query: BADGE_QUERY, detail: detail("server") },
    )
    .get(
      BADGE_PATHS.network,
      ({ params, request, server }) =>
        serve(request, server, "network", deps.images.network, params.slug, params.metric, (slug, metric, options) =>
          networkBadge(deps.store, slug, metric, options, deps.now(), deps.staleAfterMs)),
      { params: NETWORK_PARAMS, query: BADGE_QUERY, detail: detail("network") },
    )
    .use(marketRoutes);
}
