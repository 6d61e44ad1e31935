// The HTTP application: one Elysia plugin per area, composed here. Routes only
// translate HTTP to calls into the domain modules and back.

import { Elysia } from "elysia";
import pkg from "../../package.json" with { type: "json" };
import { AlertSweep } from "../alerts/alert-sweep.ts";
import { DISCORD_API } from "../alerts/discord-api.ts";
import { BannerService } from "../banner/banner-service.ts";
import { CacheBudget } from "../cache/budget.ts";
import type { Config, RateLimitSetting } from "../config.ts";
import { createLogger, type Logger } from "../log.ts";
import { countLookups } from "../metrics/lookups.ts";
import { ServiceMetrics } from "../metrics/service-metrics.ts";
import { PeriodicTask } from "../periodic-task.ts";
import { ServerHistories, UNCHARGED } from "../store/history-ranges.ts";
import type { ServerRow } from "../store/records.ts";
import type { Store } from "../store/store.ts";
import { routeTable, type RouteEntry } from "../http/allowed-methods.ts";
import { apiDocs } from "../http/api-docs.ts";
import type { DescribedRoute } from "../http/openapi/document.ts";
import { BADGE_PATHS, MARKET_BADGE_PATHS, badgeRoutes } from "../http/badge-routes.ts";
import { BANNER_PATH, bannerRoutes } from "../http/banner-routes.ts";
import { BODY_DEADLINE_MS } from "../http/body-deadline.ts";
import { bodyLimit } from "../http/body-limit.ts";
import { designerRoute } from "../http/designer-route.ts";
import { chargedDraws } from "../http/drawing/charged-draws.ts";
import { makeDrawer } from "./drawing/choose-drawer.ts";
import { DrawQueue } from "../http/drawing/draw-queue.ts";
import { errorHandling, lastResortAnswer, routeFailures } from "../http/error-handling.ts";
import { healthRoute } from "../http/healthz.ts";
import { ImageCache, type ImageCacheSettings } from "../http/image-cache.ts";
import { imagePipeline } from "../http/image-pipeline.ts";
import type { Resolver } from "../lookup/dns.ts";
import { LookupService } from "../lookup/lookup-service.ts";
import { MARKET_SITES, type MarketSite } from "../market/market-project.ts";
import { MarketCache, marketUserAgent, MARKET_TIMEOUT_MS } from "../market/market-service.ts";
import { ProjectIcons } from "../market/project-icon.ts";
import { targetAddress } from "../lookup/target-address.ts";
import { lookupRoutes } from "../http/lookup-routes.ts";
import { marketRoutes } from "../http/market-routes.ts";
import { metricsRoute } from "../http/metrics-route.ts";
import { networkRoutes } from "../http/network-routes.ts";
import { historyCharges } from "../http/history-charge.ts";
import { historyRoutes } from "../http/history-routes.ts";
import { HEAP_WATCH_INTERVAL_MS, HeapWatch } from "./heap-watch.ts";
import { startHistorySweeper } from "./history-sweeper.ts";
import { REFUSAL_FLUSH_EVERY_MS, RefusalTally } from "./refusal-tally.ts";
import { observeRequests } from "../http/observe.ts";
import { PAGE_PATHS, pageRoutes } from "../http/page-routes.ts";
import { pageHistories, serverPageView } from "../page/page-view.ts";
import { pageSwitchRoute } from "../http/page-switch-route.ts";
import { BANNER_SIZES } from "../banner/model.ts";
import { pluginRoutes } from "../http/plugin-routes.ts";
import { ELYSIA_HANDLER, hostHandling } from "../http/request-url.ts";
import { LARGER_BODIES, serverRoutes } from "../http/server-routes.ts";
import { inProcessLimits, redisLimits } from "./shared-limits.ts";
import { MAX_BODY_BYTES } from "../http/signed-request.ts";
import { ThrottledLog } from "../http/throttled-log.ts";
import { webhookRoutes } from "../http/webhook-routes.ts";
import { TEST_RATE_LIMIT, webhookTestRoute } from "../http/webhook-test-route.ts";
import { tokenRoutes } from "../http/token-routes.ts";
import { adminRoutes } from "../http/admin-routes.ts";
import { ADMIN_RATE_LIMIT } from "../http/admin-request.ts";
import { consoleRoute } from "../http/console-route.ts";

export interface AppContext {
  config: Config;
  store: Store;
  /** Milliseconds since the epoch; injectable so tests can move the clock. */
  now: () => number;
  /** Overrides TOKEN_RATE_LIMIT (tests). */
  tokenRateLimit?: RateLimitSetting;
  /** The live lookup service (tests pass one with a stub resolver). */
  lookup?: LookupService;
  /** The operational log; by default JSON lines on stderr at PENNANT_LOG_LEVEL. */
  log?: Logger;
  metrics?: ServiceMetrics;
  /** Overrides BODY_DEADLINE_MS (tests). */
  bodyDeadlineMs?: number;
  /** Start the render threads now (serve); by default the first draws start them. */
  startRenderThreads?: boolean;
  /** Watch this thread's heap and collect it in full when it grows (serve; heap-watch.ts). */
  watchHeap?: boolean;
  /** Roll up the servers' history every minute (serve); tests sweep the store themselves. */
  sweepHistory?: boolean;
  /** The banner image cache's bound and a hook called per drawing (tests). */
  renderCache?: { maxBytes?: number; onRender?: ImageCacheSettings["onRender"] };
  /** Awaited by each draw in its queue slot before it draws (tests: a render thread kept busy). */
  holdDraws?: () => Promise<void>;
  /** Run the alert sweep every this many ms (serve: SWEEP_INTERVAL_MS); without it, no alerts are sent by this app. */
  alertIntervalMs?: number;
  /** Where webhooks' host names are resolved (tests: a DNS server of their own); by default the system's DNS servers. */
  webhookResolver?: Resolver;
  /** How long a webhook receiver has to answer (serve: DELIVERY_TIMEOUT_MS; tests shorten it). */
  alertDeliveryTimeoutMs?: number;
  /**
   * Where live Discord messages are sent: Discord's API (DISCORD_API) unless
   * a test hands its stand-in. Code only, never a setting or a request's: no
   * one but the program that starts the app can point it elsewhere.
   */
  discordApi?: string;
  /** How long a marketplace's API has to answer one request (tests shorten it; MARKET_TIMEOUT_MS otherwise). */
  marketTimeoutMs?: number;
}

/** How long resolving a webhook's host may take, at subscription and at each delivery. */
const WEBHOOK_RESOLVE_MS = 5_000;

/** Signed pushes per token: plugins push every few seconds at most, networks share a token. */
export const TOKEN_RATE_LIMIT = { count: 600, windowSeconds: 60 };

/** A failing database is logged at most once a minute per kind of fault. */
const STORE_LOG_INTERVAL_MS = 60_000;

/** The app over `ctx.store`, once the store has adopted the clock window (and, under open registration, expired idle tokens). */
export async function createApp(ctx: AppContext) {
  const bodyDeadlineMs = ctx.bodyDeadlineMs ?? BODY_DEADLINE_MS;
  const log = ctx.log ?? createLogger({ level: ctx.config.logLevel });
  // Every rate limit and budget: in this process, or in Redis shared by every instance (shared-limits.ts).
  const { redisUrl } = ctx.config;
  const limits = redisUrl ? await redisLimits(redisUrl, { now: ctx.now, log }) : inProcessLimits(ctx.now);
  // Refused server pushes, counted here and added to the store every few seconds (refusal-tally.ts).
  const refusals = new RefusalTally({ store: ctx.store, now: ctx.now, log });
  refusals.start(REFUSAL_FLUSH_EVERY_MS);
  const signed = {
    ...ctx,
    bodyDeadlineMs,
    tokenLimiter: limits.limiter("token_pushes", ctx.tokenRateLimit ?? TOKEN_RATE_LIMIT),
    pushLimiter: limits.limiter("pushes", ctx.config.pushRateLimit),
    registrationLimiter: limits.limiter("registrations", ctx.config.registrationLimit),
    replayCoveredSince: await ctx.store.replay.adoptClockSkew(ctx.config.clockSkewSeconds * 1000, ctx.now()),
    refusals,
  };
  if (ctx.config.registration === "open") await ctx.store.tokens.expireIdleRegistrations(ctx.now());
  const historySweeper = ctx.sweepHistory
    ? startHistorySweeper({ store: ctx.store, now: ctx.now, staleAfterMs: ctx.config.staleAfterSeconds * 1000, log })
    : null;
  // One per-IP budget for every public endpoint that costs real work.
  const ipLimiter = limits.limiter("requests", ctx.config.rateLimit);
  const metrics = ctx.metrics ?? new ServiceMetrics();
  // Every cache of the app is made from this budget (PENNANT_CACHE_MB) and handed down; /metrics shows each.
  const { maxBytes: bannerImageBytes } = ctx.renderCache ?? {};
  const caches = new CacheBudget(bannerImageBytes === undefined ? ctx.config.cacheBytes : { ...ctx.config.cacheBytes, banner_images: bannerImageBytes });
  metrics.watchCaches(caches);
  // Drawing keeps its caches where it draws: in each render thread, or here (PENNANT_RENDER_THREADS=0).
  const drawer = makeDrawer(ctx.config);
  if (ctx.startRenderThreads) drawer.warm();
  metrics.watchCaches(drawer);
  const heapWatch = ctx.watchHeap ? new HeapWatch() : null;
  const heapChecks = heapWatch && new PeriodicTask(async () => void heapWatch.check(), (error) => log.error("heap watch failed", { error }));
  heapChecks?.start(HEAP_WATCH_INTERVAL_MS);
  if (heapWatch) metrics.watchHeap(() => heapWatch.stats());
  const reportUnexpected = (error: unknown) => log.error("lookup failed unexpectedly", { error });
  const lookup = countLookups(ctx.lookup ?? new LookupService({ allowPrivate: ctx.config.lookupPrivate, reportUnexpected }, caches), metrics);
  const checkTarget = (host: string) => targetAddress(host, { allowPrivate: ctx.config.webhookPrivate, resolver: ctx.webhookResolver, timeoutMs: WEBHOOK_RESOLVE_MS });
  const routes = routeTable((): readonly RouteEntry[] => app.routes);
  const observer = observeRequests({ config: ctx.config, log, metrics, routes, now: ctx.now });
  // Servers' histories, cached by what each is read from: the history API, badges and charts share them.
  const histories = new ServerHistories(ctx.store, caches, ctx.config.staleAfterSeconds * 1000);
  // A live Discord message shows what the server's public page shows: its view, and its uptime over 24 hours.
  const liveView = async (row: ServerRow, now: number) => {
    const view = serverPageView(row, await pageHistories(histories, row, now, UNCHARGED), now, ctx.config.staleAfterSeconds * 1000);
    return { ...view, uptime: view.ranges["24h"].uptime };
  };
  const alerts = new AlertSweep({
    store: ctx.store, now: ctx.now, staleAfterMs: ctx.config.staleAfterSeconds * 1000, resolve: checkTarget, deliveryTimeoutMs: ctx.alertDeliveryTimeoutMs,
    live: { discordApi: ctx.discordApi ?? DISCORD_API, publicUrl: ctx.config.publicUrl, view: liveView },
    reportFailure: (error) => log.error("alert sweep failed", { error }),
  });
  if (ctx.alertIntervalMs !== undefined) alerts.start(ctx.alertIntervalMs);
  // The marketplaces' projects (badges, banners), fetched from each site's API and cached in the budget (src/market).
  const markets = new MarketCache({
    settings: ctx.config.markets, userAgent: marketUserAgent(pkg.version, ctx.config.publicUrl), budget: caches, now: ctx.now,
    timeoutMs: ctx.marketTimeoutMs, reportUnexpected: (error) => log.error("marketplace answer failed unexpectedly", { error }),
  });
  // Projects' icons for the resource banners, fetched as the answers are (the sites' origins only) and kept in the budget.
  const icons = new ProjectIcons(caches.cache("market_icons", { sizeOf: (icon) => icon?.length ?? 0, now: ctx.now }), {
    apiUrls: ctx.config.markets.urls, userAgent: marketUserAgent(pkg.version, ctx.config.publicUrl), timeoutMs: ctx.marketTimeoutMs ?? MARKET_TIMEOUT_MS,
  });
  const banners = new BannerService({
    store: ctx.store, histories, lookup, now: ctx.now, staleAfterMs: ctx.config.staleAfterSeconds * 1000, market: { service: markets, icons },
  });
  const failureDeps = {
    allowedMethods: routes.methodsAt,
    storeLog: new ThrottledLog(STORE_LOG_INTERVAL_MS, ctx.now, (line: string) => log.error(line)),
    logUnexpected: observer.logUnexpected,
    noteErrorCode: observer.noteErrorCode,
  };
  const failures = routeFailures(failureDeps);
  // As many draws run at once as the drawer takes: two a render thread (one drawn, one handed ahead), one on the answering thread.
  const drawQueue = new DrawQueue({ concurrency: drawer.slots, ...ctx.config.drawQueue });
  metrics.watchDrawQueue(() => drawQueue.usage());
  // Draws and history read from the store spend one budget of cost units per client (PENNANT_DRAW_BUDGET).
  const drawUnits = limits.limiter("draw_units", ctx.config.drawBudget);
  const historyCharge = historyCharges(drawUnits, ctx.config.trustProxy);
  const draws = chargedDraws({ budget: drawUnits, queue: drawQueue, drawer, holdDraws: ctx.holdDraws });
  const images = imagePipeline({ config: ctx.config, caches, observer, failures, now: ctx.now, draws });
  const drawnIn = (kind: "banner" | "badge") => (ms: number) => metrics.observeRender(kind, ms);
  const bannerImages = new ImageCache(caches, { name: "banner_images", now: ctx.now, onRender: ctx.renderCache?.onRender, onDrawn: drawnIn("banner") });
  const badgeImages = new ImageCache(caches, { name: "badge_images", now: ctx.now, onDrawn: drawnIn("badge") });
  const bannerRoute = images.route({ path: BANNER_PATH, images: bannerImages, budget: { limiter: ipLimiter, spentBy: "request" }, errorsAsImages: "when accepted" });
  // Badges draw from a per-IP budget of their own, the size of PENNANT_RATE_LIMIT (badge-routes.ts).
  const badgeBudget = { limiter: limits.limiter("badge_draws", ctx.config.rateLimit), spentBy: "draw" } as const;
  const badgeRoute = (path: string) => images.route({ path, images: badgeImages, budget: badgeBudget, errorsAsImages: "always" });
  const badgeImageRoutes = {
    plugin: badgeRoute(BADGE_PATHS.plugin), server: badgeRoute(BADGE_PATHS.server), network: badgeRoute(BADGE_PATHS.network),
    market: Object.fromEntries(MARKET_SITES.map((site) => [site, badgeRoute(MARKET_BADGE_PATHS[site])])) as Record<MarketSite, ReturnType<typeof badgeRoute>>,
  };
  // The pages' images (charts, the link preview's card) are held with the banners and limited per request as they are.
  const pageImageRoute = (path: string) => images.route({ path, images: bannerImages, budget: { limiter: ipLimiter, spentBy: "request" }, errorsAsImages: "when accepted" });
  const pageImageRoutes = { chartSvg: pageImageRoute(PAGE_PATHS.chartSvg), chartPng: pageImageRoute(PAGE_PATHS.chartPng), card: pageImageRoute(PAGE_PATHS.card) };
  // strictPath: one spelling per route; "/api/server/update/" is a 404, not a
  // second door to the same handler. serve.routes puts the image pipeline's
  // first step in Bun's router, in front of Elysia's routes for the same
  // paths. handler and wrap: Elysia finds the path whatever the Host header
  // (request-url.ts). development: false whatever NODE_ENV says, so Bun never
  // answers with its error page of source lines (error-handling.ts).
  const hosts = hostHandling();
  const app = new Elysia({
    name: "pennant",
    strictPath: true,
    handler: ELYSIA_HANDLER,
    serve: {
      development: false,
      error: lastResortAnswer(failureDeps.storeLog),
      routes: images.firstStep((request): Response | Promise<Response> => app.fetch(request)),
    },
  })
    .wrap(hosts.absoluteUrl)
    .use(observer.plugin)
    .use(hosts.refusal)
    .use(
      errorHandling(failureDeps),
    )
    .use(bodyLimit(MAX_BODY_BYTES, LARGER_BODIES, bodyDeadlineMs))
    .use(apiDocs((): readonly DescribedRoute[] => app.routes, pkg.version))
    .use(healthRoute(ctx.store, limits))
    .use(metricsRoute({ metrics, token: ctx.config.metricsToken }))
    .use(serverRoutes(signed))
    .use(webhookRoutes({ ...signed, checkTarget }))
    .use(networkRoutes(signed))
    .use(pageSwitchRoute(signed))
    .use(webhookTestRoute({
      ...signed, resolve: checkTarget, testLimiter: limits.limiter("webhook_tests", TEST_RATE_LIMIT), deliveryTimeoutMs: ctx.alertDeliveryTimeoutMs,
    }))
    .use(tokenRoutes({ ...signed, histories, historyCharge }))
    // The admin endpoints exist only while PENNANT_ADMIN_TOKEN is set: without it they are unknown paths (404).
    .use(ctx.config.adminToken === null ? new Elysia() : adminRoutes({
      ...signed, adminToken: ctx.config.adminToken, adminLimiter: limits.limiter("admin_requests", ADMIN_RATE_LIMIT), log,
    }))
    .use(consoleRoute({ admin: ctx.config.adminToken !== null }))
    .use(pluginRoutes(signed))
    .use(lookupRoutes({ config: ctx.config, lookup, ipLimiter }))
    .use(marketRoutes({ config: ctx.config, markets, ipLimiter }))
    .use(historyRoutes({ config: ctx.config, store: ctx.store, histories, historyCharge, now: ctx.now, ipLimiter }))
    .use(badgeRoutes({
      store: ctx.store, markets, histories, historyCharge, now: ctx.now, staleAfterMs: ctx.config.staleAfterSeconds * 1000, images: badgeImageRoutes,
    }))
    .use(bannerRoutes({ banners, images: bannerRoute, historyCharge }))
    .use(pageRoutes({
      config: ctx.config, store: ctx.store, histories, historyCharge, ipLimiter, now: ctx.now, images: pageImageRoutes,
      errorImage: (message) => banners.errorImage(message, BANNER_SIZES[0]),
    }))
    .use(designerRoute())
    .onStop(async () => {
      await Promise.all([alerts.stop(), historySweeper?.stop(), heapChecks?.stop(), refusals.stop()]);
      drawer.close();
      limits.close();
    });
  return app;
}

export type App = Awaited<ReturnType<typeof createApp>>;
