// The HTTP application: one Elysia plugin per area, composed here. Routes only
// translate HTTP to calls into the domain modules and back.

import { openapi } from "@elysiajs/openapi";
import { Elysia } from "elysia";
import pkg from "../../package.json" with { type: "json" };
import { RenderCache, type RenderCacheSettings } from "../banner/render-cache.ts";
import { BannerService } from "../banner/service.ts";
import type { Config, RateLimitSetting } from "../config.ts";
import type { Db } from "../store/database.ts";
import { allowedMethods, type RouteEntry } from "./allowed-methods.ts";
import { bannerRoutes } from "./banner-routes.ts";
import { bodyLimit } from "./body-limit.ts";
import { errorHandling } from "./error-handling.ts";
import { healthRoute } from "./healthz.ts";
import { LookupService } from "../lookup/service.ts";
import { lookupRoutes } from "./lookup-routes.ts";
import { pluginRoutes } from "./plugin-routes.ts";
import { RateLimiter } from "./rate-limit.ts";
import { serverRoutes } from "./server-routes.ts";
import { MAX_BODY_BYTES } from "./signed-request.ts";
import { ThrottledLog } from "./throttled-log.ts";

export interface AppContext {
  config: Config;
  db: Db;
  /** Milliseconds since the epoch; injectable so tests can move the clock. */
  now: () => number;
  /** Overrides TOKEN_RATE_LIMIT (tests). */
  tokenRateLimit?: RateLimitSetting;
  /** The live lookup service (tests pass one with a stub resolver). */
  lookup?: LookupService;
  /** The banner render cache's bound and a hook called per drawing (tests). */
  renderCache?: Partial<Pick<RenderCacheSettings, "maxBytes" | "onRender">>;
}

/** Signed pushes per token: plugins push every few seconds at most, networks share a token. */
export const TOKEN_RATE_LIMIT = { count: 600, windowSeconds: 60 };

/** A failing database is logged at most once a minute per kind of fault. */
const STORE_LOG_INTERVAL_MS = 60_000;

export function createApp(ctx: AppContext) {
  const signed = {
    ...ctx,
    tokenLimiter: new RateLimiter(ctx.tokenRateLimit ?? TOKEN_RATE_LIMIT, 100_000, ctx.now),
    pushLimiter: new RateLimiter(ctx.config.pushRateLimit, 100_000, ctx.now),
    registrationLimiter: new RateLimiter(ctx.config.registrationLimit, 100_000, ctx.now),
  };
  // One per-IP budget for every public endpoint that costs real work.
  const ipLimiter = new RateLimiter(ctx.config.rateLimit, 100_000, ctx.now);
  const lookup = ctx.lookup ?? new LookupService({ allowPrivate: ctx.config.lookupPrivate });
  const cache = new RenderCache({ ...ctx.renderCache, now: ctx.now });
  const banners = new BannerService({ db: ctx.db, lookup, now: ctx.now, staleAfterMs: ctx.config.staleAfterSeconds * 1000, cache });
  // strictPath: one spelling per route; "/api/server/update/" is a 404, not a
  // second door to the same handler.
  const app = new Elysia({ name: "pennant", strictPath: true })
    .use(
      errorHandling({
        allowedMethods: allowedMethods((): readonly RouteEntry[] => app.routes),
        storeLog: new ThrottledLog(STORE_LOG_INTERVAL_MS, ctx.now),
      }),
    )
    .use(bodyLimit(MAX_BODY_BYTES))
    .use(
      openapi({
        path: "/openapi",
        documentation: {
          info: { title: "Pennant", version: pkg.version, description: "Banner and badge server for Minecraft servers and plugins" },
        },
      }),
    )
    .use(healthRoute(ctx.db))
    .use(serverRoutes(signed))
    .use(pluginRoutes(signed))
    .use(lookupRoutes({ config: ctx.config, lookup, ipLimiter }))
    .use(bannerRoutes({ config: ctx.config, banners, ipLimiter, now: ctx.now }));
  return app;
}

export type App = ReturnType<typeof createApp>;
