// The HTTP application: one Elysia plugin per area, composed here. Routes only
// translate HTTP to calls into the domain modules and back.

import { openapi } from "@elysiajs/openapi";
import { Elysia } from "elysia";
import pkg from "../../package.json" with { type: "json" };
import type { Config, RateLimitSetting } from "../config.ts";
import type { Db } from "../store/database.ts";
import { errorHandling } from "./error-handling.ts";
import { pluginRoutes } from "./plugin-routes.ts";
import { RateLimiter } from "./rate-limit.ts";
import { serverRoutes } from "./server-routes.ts";

export interface AppContext {
  config: Config;
  db: Db;
  /** Milliseconds since the epoch; injectable so tests can move the clock. */
  now: () => number;
  /** Overrides TOKEN_RATE_LIMIT (tests). */
  tokenRateLimit?: RateLimitSetting;
}

/** Signed pushes per token: plugins push every few seconds at most, networks share a token. */
export const TOKEN_RATE_LIMIT = { count: 600, windowSeconds: 60 };

export function createApp(ctx: AppContext) {
  const signed = { ...ctx, tokenLimiter: new RateLimiter(ctx.tokenRateLimit ?? TOKEN_RATE_LIMIT, 100_000, ctx.now) };
  return new Elysia({ name: "pennant" })
    .use(errorHandling)
    .use(
      openapi({
        path: "/openapi",
        documentation: {
          info: { title: "Pennant", version: pkg.version, description: "Banner and badge server for Minecraft servers and plugins" },
        },
      }),
    )
    .get("/healthz", () => ({ ok: true }), { detail: { summary: "Liveness check", tags: ["service"] } })
    .use(serverRoutes(signed))
    .use(pluginRoutes(signed));
}

export type App = ReturnType<typeof createApp>;
