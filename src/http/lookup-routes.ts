// GET /api/lookup: live status of a game server as JSON, open to any website
// (CORS) and limited per client IP.

import { Type, type Static } from "@sinclair/typebox";
import { Elysia, t } from "elysia";
import type { Config } from "../config.ts";
import { HYTALE_SOURCES } from "../lookup/hytale/hytale-status.ts";
import { DEFAULT_EDITION, EDITIONS } from "../minecraft/edition.ts";
import type { LookupService } from "../lookup/lookup-service.ts";
import { lookupJson } from "../lookup/view.ts";
import { HttpError } from "./errors.ts";
import { spendIpBudget } from "./ip-rate-limit.ts";
import { choiceParameter } from "./openapi/parameters.ts";
import { errorResponses, jsonSuccess, literals, nullable } from "./openapi/responses.ts";
import type { Limiter } from "./rate-limit.ts";

const MAX_ADDRESS_LENGTH = 300;

export interface LookupDeps {
  config: Config;
  lookup: LookupService;
  ipLimiter: Limiter;
}

/**
 * Described, not checked by Elysia: the route checks them itself so that a
 * refusal names the parameter in our words.
 */
const QUERY = t.NoValidate(
  t.Object({
    address: t.String({ maxLength: MAX_ADDRESS_LENGTH, description: "host, host:port, [v6]:port or an IP; the port defaults to 25565 (Java), 19132 (Bedrock) or 5520 (Hytale)" }),
    edition: choiceParameter(EDITIONS, "java (default), bedrock or hytale"),
  }),
);

/** What the route may find in the query: anything, as QUERY is not enforced. */
type LookupQuery = { address?: string; edition?: string };

const text = Type.String();
const rawAndClean = Type.Object({ name_raw: text, name_clean: text });

/** The mcstatus.io v2 shape where it fits, plus edition, latency_ms, protocol_used, source, error, sleeping and sleeping_host. */
export const LOOKUP_RESPONSE = Type.Object(
  {
    online: Type.Boolean(),
    host: text,
    port: Type.Integer({ minimum: 1, maximum: 65_535 }),
    ip_address: nullable(Type.String({ description: "The checked address contacted (or that would have been)" })),
    edition: literals(EDITIONS),
    srv_record: nullable(
      Type.Object({ host: text, port: Type.Integer() }, { description: "The SRV target that answered (when none did, the one whose failure error reports); null when the name itself was used" }),
    ),
    protocol_used: nullable(literals(["modern", "legacy", "bedrock"])),
    source: nullable(literals(HYTALE_SOURCES, { description: "Which way a Hytale server answered (docs/lookups.md); null for Minecraft and when offline" })),
    latency_ms: nullable(Type.Number()),
    version: nullable(Type.Object({ name_raw: text, name_clean: text, protocol: nullable(Type.Integer()) })),
    players: nullable(Type.Object({ online: Type.Integer(), max: Type.Integer(), list: Type.Array(rawAndClean) })),
    motd: nullable(Type.Object({ raw: text, clean: text, html: text })),
    icon: nullable(Type.String({ description: "The favicon as a data:image/png;base64 URL" })),
    software: nullable(text),
    plugins: Type.Array(Type.Object({ name: text, version: nullable(text) })),
    map: nullable(text),
    error: nullable(Type.Object({ code: text, message: text }, { description: "Why the server is offline or was not asked" })),
    sleeping: Type.Boolean({ description: "A host answered for the stopped server with its placeholder (docs/lookups.md): online is false, error.code \"sleeping\"" }),
    sleeping_host: nullable(Type.String({ description: "The host whose placeholder answered (\"Aternos\", \"exaroton\", ...); null unless sleeping" })),
  },
  { title: "ServerLookup" },
);

function badRequest(message: string): HttpError {
  return new HttpError(400, "invalid_request", message);
}

export function lookupRoutes(deps: LookupDeps) {
  return new Elysia().get(
    "/api/lookup",
    async ({ query, request, server, set }): Promise<Static<typeof LOOKUP_RESPONSE>> => {
      await spendIpBudget(deps.ipLimiter, request, server, deps.config.trustProxy);
      const given: LookupQuery = query;
      const address = given.address?.trim();
      if (!address) throw badRequest('the query parameter "address" is required, e.g. ?address=play.example.com');
      if (address.length > MAX_ADDRESS_LENGTH) throw badRequest(`"address" must be at most ${MAX_ADDRESS_LENGTH} characters`);
      const edition = EDITIONS.find((known) => known === (given.edition ?? DEFAULT_EDITION));
      if (!edition) throw badRequest('"edition" must be java, bedrock or hytale');

      const result = await deps.lookup.lookup({ address, edition });
      if (result.error?.code === "invalid_address") throw badRequest(`invalid address: ${result.error.message}`);
      set.headers["Cache-Control"] = "public, max-age=30";
      return lookupJson(result);
    },
    {
      query: QUERY,
      detail: {
        summary: "Live status of a Minecraft or Hytale server (mcstatus.io v2 shape)",
        description:
          "Blocked or failed lookups answer 200 with online=false and error {code, message}. A stopped server whose host answers with its " +
          "placeholder (Aternos, exaroton, Falix, Minehut, sleep proxies: docs/lookups.md) answers online=false, sleeping=true and sleeping_host. Open to any website (CORS); " +
          "limited per client IP with banners (PENNANT_RATE_LIMIT). SRV targets are tried in turn, then the name on port 25565. A Hytale server (edition=hytale) " +
          "is asked every way its query plugins answer at once, the richest answer kept (source says which; docs/lookups.md). Private and loopback " +
          "addresses are not contacted unless PENNANT_LOOKUP_PRIVATE is on: a typed one answers blocked_address, a name (or SRV target) resolving to them reads like one that does not resolve.",
        responses: {
          200: jsonSuccess("The server's status; cached 30 s", LOOKUP_RESPONSE),
          ...errorResponses({ 400: ["invalid_request"], 429: ["rate_limited"] }),
        },
        tags: ["lookup"],
      },
    },
  );
}
