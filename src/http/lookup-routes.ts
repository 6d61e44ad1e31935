// GET /api/lookup: live status of a game server as JSON, open to any website
// (CORS) and limited per client IP.

import { Elysia, t } from "elysia";
import type { Config } from "../config.ts";
import type { LookupService } from "../lookup/service.ts";
import { lookupJson } from "../lookup/view.ts";
import { HttpError } from "./errors.ts";
import { spendIpBudget } from "./ip-rate-limit.ts";
import type { RateLimiter } from "./rate-limit.ts";

const CORS = { "Access-Control-Allow-Origin": "*" };
const MAX_ADDRESS_LENGTH = 300;

export interface LookupDeps {
  config: Config;
  lookup: LookupService;
  ipLimiter: RateLimiter;
}

function badRequest(message: string): HttpError {
  return new HttpError(400, "invalid_request", message, CORS);
}

export function lookupRoutes(deps: LookupDeps) {
  return new Elysia().get(
    "/api/lookup",
    async ({ query, request, server, set }) => {
      spendIpBudget(deps.ipLimiter, request, server, deps.config.trustProxy, CORS);
      const address = query.address?.trim();
      if (!address) throw badRequest('the query parameter "address" is required, e.g. ?address=play.example.com');
      if (address.length > MAX_ADDRESS_LENGTH) throw badRequest(`"address" must be at most ${MAX_ADDRESS_LENGTH} characters`);
      const edition = query.edition ?? "java";
      if (edition !== "java" && edition !== "bedrock") throw badRequest('"edition" must be java or bedrock');

      const result = await deps.lookup.lookup({ address, edition });
      if (result.error?.code === "invalid_address") throw badRequest(`invalid address: ${result.error.message}`);
      Object.assign(set.headers, CORS, { "Cache-Control": "public, max-age=30" });
      return lookupJson(result);
    },
    {
      query: t.Object({
        address: t.Optional(t.String({ description: "host, host:port, [v6]:port or an IP" })),
        edition: t.Optional(t.String({ description: "java (default) or bedrock" })),
      }),
      detail: {
        summary: "Live status of a Minecraft server (mcstatus.io v2 shape)",
        description: "Blocked or failed lookups answer 200 with online=false and error {code, message}.",
        tags: ["lookup"],
      },
    },
  );
}
