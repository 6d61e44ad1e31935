// The HTTP application: one Elysia plugin per area, composed here. Routes only
// translate HTTP to calls into the domain modules and back.

import { Elysia } from "elysia";
import type { Config } from "../config.ts";
import { errorHandling } from "./error-handling.ts";

export interface AppContext {
  config: Config;
  /** Milliseconds since the epoch; injectable so tests can move the clock. */
  now: () => number;
}

export function createApp(ctx: AppContext) {
  return new Elysia({ name: "pennant" })
    .use(errorHandling)
    .get("/healthz", () => ({ ok: true }));
}

export type App = ReturnType<typeof createApp>;
