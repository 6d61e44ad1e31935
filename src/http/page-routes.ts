// The public pages (issue 42): GET /s/{server_uuid}, a pushed server's page,
// with its chart alone as /s/{uuid}/chart.svg and chart.png, its link
// preview's card /s/{uuid}/og.png and its widget /s/{uuid}/widget; GET
// /n/{slug}, a network's page; and the pages' stylesheet and script. This
// file reads the record and its history, hands them to src/page to write or
// plan, and answers: the pages here (page-answers.ts), the images through the
// image pipeline (ETag, 304, the per-client budget, the draw budget and
// queue, errors as images for an <img>).
//
// A server only ever looked up has no record, so no page. An unknown server,
// one whose owner switched its page off and a malformed UUID are the same
// plain 404 (the images' the same "not found"): nothing tells them apart.
// Links the pages give out are absolute under PENNANT_PUBLIC_URL, never under
// the request's Host header; root-relative while it is unset.

import { Type } from "@sinclair/typebox";
import { Elysia, t } from "elysia";
import type { Config } from "../config.ts";
import type { ImagePlan } from "../image-plan.ts";
import { layoutChart, type ChartFrame, type ChartLayout } from "../page/chart-layout.ts";
import { CHART_THEMES } from "../page/chart-palette.ts";
import { CHART_CSS } from "../page/chart-svg.ts";
import { missingPage } from "../page/missing-page.ts";
import { networkPage } from "../page/network-page.ts";
import { cardChart, cardText } from "../page/card-frame.ts";
import { cardImage, CHART_IMAGE_FRAME, chartPngImage, chartSvgImage } from "../page/page-images.ts";
import type { PageAssets } from "../page/page-document.ts";
import { serverPage, type ServerPageLinks } from "../page/server-page.ts";
import { pageHistories, serverPageView } from "../page/page-view.ts";
import { widgetPage } from "../page/widget-page.ts";
import { HISTORY_RANGES, isHistoryRange, RANGE_STEPS, type HistoryRange, type ReadCharge, type ServerHistories, type ServerHistory } from "../store/history-ranges.ts";
import { canonicalSlug } from "../store/network-records.ts";
import type { ServerRow } from "../store/records.ts";
import type { Store } from "../store/store.ts";
import type { SocketInfo } from "./client-ip.ts";
import type { DrawJob } from "./drawing/drawer.ts";
import { HttpError } from "./errors.ts";
import type { HistoryChargeFor } from "./history-charge.ts";
import type { ImageRoute, PlannedImage } from "./image-pipeline.ts";
import { spendIpBudget } from "./ip-rate-limit.ts";
import { choiceParameter } from "./openapi/parameters.ts";
import { NOT_MODIFIED, errorResponses, imageSuccess } from "./openapi/responses.ts";
import { pageAnswer, type Framing } from "./page-answers.ts";
import styles from "./page-assets/page.css" with { type: "text" };
import script from "./page-assets/page.js" with { type: "text" };
import type { Limiter } from "./rate-limit.ts";
import { parseUuid } from "./uuid.ts";

export const PAGE_PATHS = {
  server: "/s/:server_uuid",
  chartSvg: "/s/:server_uuid/chart.svg",
  chartPng: "/s/:server_uuid/chart.png",
  card: "/s/:server_uuid/og.png",
  widget: "/s/:server_uuid/widget",
  network: "/n/:slug",
} as const;

/** The stylesheet of every page: its own rules and the chart's; versioned by contents, as the designer's assets. */
const STYLESHEET = `${styles}\n${CHART_CSS}\n`;
const assetVersion = Bun.hash(STYLESHEET + script).toString(36);
export const PAGE_ASSETS: PageAssets = { style: `/page/page.css?v=${assetVersion}`, script: `/page/page.js?v=${assetVersion}` };

/** The chart on the page: laid out for wide screens and for phones (the stylesheet shows one). */
export const PAGE_CHARTS: Readonly<Record<"wide" | "narrow", ChartFrame>> = { wide: { width: 800, height: 280 }, narrow: { width: 340, height: 230 } };
const IMAGE_CHART: ChartFrame = { ...CHART_IMAGE_FRAME, fontSize: 14 };

/** Pages and images of live data: a minute, as a banner of pushed data. */
const LIVE = "public, max-age=60";
/** The 404 is checked again each time: a server's first push makes its page. */
const MISSING = "no-cache";
/** The badges a server's page offers to copy. */
const PAGE_BADGES = ["players", "status", "uptime"] as const;

const NOT_FOUND_MESSAGE = "there is no page here";
const notFound = () => new HttpError(404, "not_found", NOT_FOUND_MESSAGE);

export interface PageRouteDeps {
  config: Pick<Config, "publicUrl" | "trustProxy" | "staleAfterSeconds">;
  store: Store;
  histories: ServerHistories;
  historyCharge: HistoryChargeFor;
  /** The per-client budget of requests, shared with banners and lookups (PENNANT_RATE_LIMIT). */
  ipLimiter: Limiter;
  now: () => number;
  /** The pipeline's routes for the images: per-request budget, errors as images for an <img>. */
  images: { chartSvg: ImageRoute; chartPng: ImageRoute; card: ImageRoute };
  /** The image stating a failure (a banner's error image). */
  errorImage: (message: string) => ImagePlan<DrawJob>;
}


export function pageRoutes(deps: PageRouteDeps) {
  const staleAfterMs = deps.config.staleAfterSeconds * 1000;
  const at = (path: string) => `${deps.config.publicUrl ?? ""}${path}`;
  const missing = missingPage(PAGE_ASSETS);

  /** The record behind a page, or undefined for every kind of missing page. */
  async function pagedServer(raw: string | null): Promise<ServerRow | undefined> {
    const uuid = parseUuid(raw ?? "");
    const row = uuid === null ? undefined : await deps.store.servers.get(uuid);
    return row && row.pageEnabled ? row : undefined;
  }

  const historiesOf = (row: ServerRow, now: number, charge: ReadCharge) => pageHistories(deps.histories, row, now, charge);

  function answerPage(request: Request, document: Parameters<typeof pageAnswer>[1], shown: Record<string, string>, framing: Framing, withScript: boolean): Response {
    return pageAnswer(request, document, { status: 200, cacheControl: LIVE, framing, script: withScript, headers: shown });
  }

  const answerMissing = (request: Request, shown: Record<string, string> = {}) =>
    pageAnswer(request, missing, { status: 404, cacheControl: MISSING, framing: "none", script: false, headers: shown });

  /** The chart's range from the query: 24h when absent; a 400 naming the choices otherwise. */
  function rangeOf(query: Record<string, string | undefined>): HistoryRange {
    const range = query.range ?? "24h";
    if (!isHistoryRange(range)) throw new HttpError(400, "invalid_range", `"range" must be one of ${HISTORY_RANGES.join(", ")}`);
    return range;
  }

  async function viewOf(request: Request, server: SocketInfo | null, row: ServerRow, now: number) {
    const histories = await historiesOf(row, now, deps.historyCharge(request, server));
    return { histories, view: serverPageView(row, histories, now, staleAfterMs) };
  }

  /** A planned image of one of the server's images; a 404 for every kind of missing page. */
  function image(request: Request, server: SocketInfo | null, route: ImageRoute, uuid: string | null, plan: (row: ServerRow, now: number) => Promise<ImagePlan<DrawJob>>) {
    return route.answer(request, server, async (): Promise<PlannedImage> => {
      const row = await pagedServer(uuid);
      if (!row) throw notFound();
      return { image: await plan(row, deps.now()), status: 200, cacheControl: LIVE, reuseForMs: 0 };
    }, (failure) => deps.errorImage(failure.message));
  }

  return new Elysia({ name: "pennant/pages" })
    .get(
      PAGE_PATHS.server,
      async ({ params, query, request, server }) => {
        const shown = await spendIpBudget(deps.ipLimiter, request, server, deps.config.trustProxy);
        const row = await pagedServer(params.server_uuid);
        if (!row) return answerMissing(request, shown);
        const range = rangeOf(query);
        const now = deps.now();
        const { histories, view } = await viewOf(request, server, row, now);
        const charts = { wide: historyChart(histories[range], row, now, PAGE_CHARTS.wide), narrow: historyChart(histories[range], row, now, PAGE_CHARTS.narrow) };
        const page = serverPage({ view, range, charts, links: serverPageLinks(deps.config.publicUrl, row.uuid, range), assets: PAGE_ASSETS, now });
        return answerPage(request, page, shown, "none", true);
      },
      {
        params: SERVER_PARAMS,
        query: RANGE_QUERY,
        detail: {
          summary: "A pushed server's public page: state, MOTD, players, join address, the players chart, uptime and peak, snippets to copy",
          description:
            "HTML complete without script, under a strict Content-Security-Policy; link preview tags (Open Graph, Twitter) name /s/{server_uuid}/og.png, " +
            "absolute under PENNANT_PUBLIC_URL. Strong ETag and 304; cached a minute. Limited per client IP with banners (PENNANT_RATE_LIMIT); " +
            "history read from the database spends the draw budget (PENNANT_DRAW_BUDGET). An unknown server, a page switched off (PUT /api/server/page) " +
            "and a malformed UUID are the same plain 404 page.",
          tags: ["pages"],
          responses: pageResponses("The page"),
        },
      },
    )
    .get(
      PAGE_PATHS.widget,
      async ({ params, request, server }) => {
        const shown = await spendIpBudget(deps.ipLimiter, request, server, deps.config.trustProxy);
        const row = await pagedServer(params.server_uuid);
        if (!row) return answerMissing(request, shown);
        const now = deps.now();
        const { view } = await viewOf(request, server, row, now);
        return answerPage(request, widgetPage(view, at(`/s/${row.uuid}`), PAGE_ASSETS, now), shown, "anyone", false);
      },
      {
        params: SERVER_PARAMS,
        detail: {
          summary: "A small status box of a pushed server, for an <iframe> on any site",
          description: "The one page any site may frame (frame-ancestors *); it runs no script and reloads itself once a minute. Otherwise as the server's page.",
          tags: ["pages"],
          responses: pageResponses("The widget"),
        },
      },
    )
    .get(
      PAGE_PATHS.chartSvg,
      ({ params, query, request, server }) =>
        image(request, server, deps.images.chartSvg, params.server_uuid, async (row, now) => {
          const range = rangeOf(query);
          const history = await deps.histories.read(row, range, now, deps.historyCharge(request, server));
          return chartSvgImage(historyChart(history, row, now, IMAGE_CHART));
        }),
      {
        params: SERVER_PARAMS,
        query: RANGE_QUERY,
        detail: {
          summary: "A pushed server's players chart as SVG: the min-max band, the mean line, offline stretches shaded",
          description: "Follows the reader's light or dark scheme. Strong ETag and 304; cached a minute; limited per client IP with banners.",
          tags: ["pages"],
          responses: chartResponses("The chart", "image/svg+xml"),
        },
      },
    )
    .get(
      PAGE_PATHS.chartPng,
      ({ params, query, request, server }) =>
        image(request, server, deps.images.chartPng, params.server_uuid, async (row, now) => {
          const range = rangeOf(query);
          const theme = choice(query, "theme", CHART_THEMES, "light");
          const scale = choice(query, "scale", ["1", "2"] as const, "1") === "2" ? 2 : 1;
          const history = await deps.histories.read(row, range, now, deps.historyCharge(request, server));
          return chartPngImage(historyChart(history, row, now, IMAGE_CHART), theme, scale);
        }),
      {
        params: SERVER_PARAMS,
        query: PNG_QUERY,
        detail: {
          summary: "A pushed server's players chart as PNG (800x300, or 1600x600 at scale 2), drawn by Pennant's engine",
          description: "Strong ETag and 304; cached a minute; limited per client IP with banners; a new chart spends the draw budget (PENNANT_DRAW_BUDGET).",
          tags: ["pages"],
          responses: chartResponses("The chart", "image/png"),
        },
      },
    )
    .get(
      PAGE_PATHS.card,
      ({ params, request, server }) =>
        image(request, server, deps.images.card, params.server_uuid, async (row, now) => {
          const { histories, view } = await viewOf(request, server, row, now);
          const card = cardText(view, now);
          return cardImage(card, historyChart(histories["24h"], row, now, cardChart(card.motd.length > 0)));
        }),
      {
        params: SERVER_PARAMS,
        detail: {
          summary: "A pushed server's link preview card: a 1200x630 PNG of its state, MOTD, players and last day's chart",
          description: "What the page's og:image and twitter:image name. Strong ETag and 304; cached a minute; limited per client IP with banners.",
          tags: ["pages"],
          responses: chartResponses("The card", "image/png"),
        },
      },
    )
    .get(
      PAGE_PATHS.network,
      async ({ params, request, server }) => {
        const shown = await spendIpBudget(deps.ipLimiter, request, server, deps.config.trustProxy);
        const slug = canonicalSlug(params.slug ?? "");
        const network = slug === null ? undefined : await deps.store.networks.get(slug);
        if (!network) return answerMissing(request, shown);
        const page = networkPage({
          network,
          links: {
            page: at(`/n/${network.slug}`),
            banner: at(`/api/banner?data_mode=network&network=${network.slug}`),
            server: (row) => (row.pageEnabled ? `/s/${row.uuid}` : null),
          },
          assets: PAGE_ASSETS, now: deps.now(), staleAfterMs,
        });
        return answerPage(request, page, shown, "none", true);
      },
      {
        params: NETWORK_PARAMS,
        detail: {
          summary: "A network's public page: its servers with their states and players, and the total",
          description: "As a server's page: HTML complete without script, strict Content-Security-Policy, ETag and 304; an unknown or malformed slug is the plain 404 page.",
          tags: ["pages"],
          responses: pageResponses("The page"),
        },
      },
    )
    .get("/page/page.css", () => asset(STYLESHEET, "text/css; charset=utf-8"), assetDetail("The public pages' stylesheet", "text/css"))
    .get("/page/page.js", () => asset(script, "text/javascript; charset=utf-8"), assetDetail("The public pages' script: copy buttons and a refresh once a minute", "text/javascript"));
}

/** A server's history of one range at `now`, laid out in `frame`: the chart of its page, its images and its owner's console. */
export function historyChart(history: ServerHistory, row: ServerRow, now: number, frame: ChartFrame): ChartLayout {
  return layoutChart({ range: history.range, stepMs: history.stepMs, points: history.points, from: now - RANGE_STEPS[history.range].spanMs, to: now, dataFrom: row.firstSeen }, frame);
}

/** The addresses a server's page names (its console's snippets too): absolute under PENNANT_PUBLIC_URL, root-relative while it is unset. */
export function serverPageLinks(publicUrl: string | null, uuid: string, range: HistoryRange): ServerPageLinks {
  const at = (path: string) => `${publicUrl ?? ""}${path}`;
  const path = `/s/${uuid}`;
  return {
    page: at(path),
    banner: at(`/api/banner?data_mode=plugin&server_uuid=${uuid}`),
    badges: PAGE_BADGES.map((metric) => ({ label: metric, url: at(`/shields/servers/${uuid}/${metric}.svg`) })),
    chartSvg: at(`${path}/chart.svg?range=${range}`),
    chartPng: at(`${path}/chart.png?range=${range}`),
    widget: at(`${path}/widget`),
    card: at(`${path}/og.png`),
    range: (other) => `${path}?range=${other}`,
  };
}

/** A choice of the query, its default when absent; a 400 naming the choices otherwise. */
function choice<T extends string>(query: Record<string, string | undefined>, name: string, choices: readonly T[], fallback: T): T {
  const value = query[name];
  if (value === undefined) return fallback;
  const found = choices.find((option) => option === value);
  if (found === undefined) throw new HttpError(400, "invalid_request", `"${name}" must be one of ${choices.join(", ")}`);
  return found;
}

function asset(body: string, contentType: string): Response {
  return new Response(body, { headers: { "Content-Type": contentType, "Cache-Control": "public, max-age=86400" } });
}

function assetDetail(summary: string, type: string) {
  return { detail: { summary, tags: ["pages"], responses: { 200: { description: summary, content: { [type]: { schema: Type.String() } } } } } };
}

/** Described, not checked by Elysia: a malformed UUID or slug is the plain 404, not a validation error. */
const SERVER_PARAMS = t.NoValidate(t.Object({ server_uuid: t.String({ format: "uuid", description: "The UUID the server pushes as" }) }));
const NETWORK_PARAMS = t.NoValidate(t.Object({ slug: t.String({ description: "The network's slug (PUT /api/networks/{slug})" }) }));
const RANGE = choiceParameter(HISTORY_RANGES, "The chart's range: 24h (default), 7d, 30d or 1y");
const RANGE_QUERY = t.NoValidate(t.Object({ range: RANGE }));
const PNG_QUERY = t.NoValidate(t.Object({
  range: RANGE,
  theme: choiceParameter(CHART_THEMES, "light (default) or dark"),
  scale: choiceParameter(["1", "2"], "1 (default) or 2: twice the pixels"),
}));

const HTML = { "text/html": { schema: Type.String() } };

function pageResponses(description: string) {
  return {
    200: { description, headers: { ETag: { description: "Strong ETag of the page; send it as If-None-Match", schema: Type.String() } }, content: HTML },
    304: NOT_MODIFIED,
    404: { description: "The plain 404 page: no such server or network, its page switched off, or a malformed UUID or slug", content: HTML },
    ...errorResponses({ 400: ["invalid_range"], 429: ["rate_limited"], 503: ["database_unavailable"] }),
  };
}

function chartResponses(description: string, type: "image/png" | "image/svg+xml") {
  return {
    200: imageSuccess(description, [type]),
    304: NOT_MODIFIED,
    ...errorResponses(
      { 400: ["invalid_range", "invalid_request"], 404: ["not_found"], 429: ["rate_limited"], 503: ["database_unavailable", "draw_queue_full"] },
      { statuses: { 400: "also", 404: "also", 429: "also", 503: "also" }, when: "A client whose Accept names image/* (an <img> tag) gets a PNG stating the problem" },
    ),
  };
}
