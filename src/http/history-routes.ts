// GET /api/servers/{server_uuid}/history: a pushed server's player count and
// uptime over a range, as JSON, open to any website and limited per client IP
// with the banners.

import { Type, type Static } from "@sinclair/typebox";
import { Elysia, t } from "elysia";
import type { Config } from "../config.ts";
import { HISTORY_RANGES, isHistoryRange, type ServerHistories } from "../store/history-ranges.ts";
import type { Store } from "../store/store.ts";
import { HttpError } from "./errors.ts";
import type { HistoryChargeFor } from "./history-charge.ts";
import { spendIpBudget } from "./ip-rate-limit.ts";
import { choiceParameter } from "./openapi/parameters.ts";
import { errorResponses, jsonSuccess, literals, nullable } from "./openapi/responses.ts";
import type { Limiter } from "./rate-limit.ts";
import { malformedUuidMessage, parseUuid } from "./uuid.ts";

export const HISTORY_PATH = "/api/servers/:server_uuid/history";

/** How long a client or proxy may keep an answer: what the sweep has not rolled up yet is read again each minute (history-ranges.ts). */
const MAX_AGE_SECONDS = 60;

export interface HistoryDeps {
  config: Config;
  store: Store;
  histories: ServerHistories;
  /** What reading a history costs the client (history-charge.ts). */
  historyCharge: HistoryChargeFor;
  now: () => number;
  ipLimiter: Limiter;
}

/** Described, not checked by Elysia: the route checks them itself so that a refusal names the parameter in our words. */
const PARAMS = t.NoValidate(t.Object({ server_uuid: t.String({ format: "uuid", description: "The UUID the server pushed under" }) }));
const QUERY = t.NoValidate(t.Object({ range: choiceParameter(HISTORY_RANGES, "24h (default), 7d, 30d or 1y") }));

const fraction = (description: string) => Type.Number({ minimum: 0, maximum: 1, description });
const players = (description: string) => nullable(Type.Number({ minimum: 0, description: `${description}; null when the step holds no update` }));

export const HISTORY_RESPONSE = Type.Object(
  {
    uuid: Type.String({ format: "uuid" }),
    range: literals(HISTORY_RANGES),
    step_seconds: Type.Integer({ description: "Time between points: 300 (24h), 3600 (7d), 10800 (30d), 86400 (1y)" }),
    points: Type.Array(
      Type.Object({
        t: Type.String({ format: "date-time", description: "The step's start" }),
        min: players("Fewest players online in an update of the step"),
        avg: players("Mean players online over the step's updates"),
        max: players("Most players online in an update of the step"),
        online: fraction("Fraction of the step the server was online"),
      }),
      { description: "Oldest first; a step without a point was offline throughout; empty when the range holds no data" },
    ),
    uptime: nullable(fraction("Fraction of the range (from the server's first push, if later) to now it was online; null at the instant of the first push")),
    peak: nullable(Type.Integer({ minimum: 0, description: "Most players online at once in the range; null when the range holds no update" })),
  },
  { title: "ServerHistory" },
);

export function historyRoutes(deps: HistoryDeps) {
  return new Elysia().get(
    HISTORY_PATH,
    async ({ params, query, request, server, set }): Promise<Static<typeof HISTORY_RESPONSE>> => {
      await spendIpBudget(deps.ipLimiter, request, server, deps.config.trustProxy);
      const uuid = parseUuid(params.server_uuid);
      if (uuid === null) throw new HttpError(400, "invalid_server_uuid", malformedUuidMessage("server", params.server_uuid));
      const range = (query as { range?: string }).range ?? "24h";
      if (!isHistoryRange(range)) throw new HttpError(400, "invalid_range", `"range" must be one of ${HISTORY_RANGES.join(", ")}`);
      const row = await deps.store.servers.get(uuid);
      if (!row) throw new HttpError(404, "unknown_server", "no server with this UUID has pushed data");
      const history = await deps.histories.read(row, range, deps.now(), deps.historyCharge(request, server));
      set.headers["Cache-Control"] = `public, max-age=${MAX_AGE_SECONDS}`;
      return {
        uuid,
        range,
        step_seconds: history.stepMs / 1000,
        points: history.points.map((point) => ({ t: new Date(point.at).toISOString(), min: point.min, avg: point.avg, max: point.max, online: point.online })),
        uptime: history.uptime,
        peak: history.peak,
      };
    },
    {
      params: PARAMS,
      query: QUERY,
      detail: {
        summary: "A pushed server's players and uptime over a range",
        description:
          "Read from the roll-ups the history sweep writes every minute (docs/history.md): full resolution is kept a day, 5-minute buckets 30 days, " +
          "hourly buckets a year; the minutes not rolled up yet from the samples, so an answer reaches the present. Online: from each accepted update until PENNANT_STALE_AFTER passes without another. Open to any website (CORS); " +
          "limited per client IP with banners (PENNANT_RATE_LIMIT); a history read from the database rather than the cache also spends the client's " +
          "draw budget (PENNANT_DRAW_BUDGET), a unit per 720 buckets read.",
        responses: {
          200: jsonSuccess(`The server's history; cached ${MAX_AGE_SECONDS} s`, HISTORY_RESPONSE),
          ...errorResponses({ 400: ["invalid_server_uuid", "invalid_range"], 404: ["unknown_server"], 429: ["rate_limited"] }),
        },
        tags: ["history"],
      },
    },
  );
}
