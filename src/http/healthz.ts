// GET /healthz: 200 while the database can be read and the last write
// succeeded; 503 with the reason otherwise (a full disk fails every push
// while reads still work, so reads alone would say "ok"). With limits shared
// through Redis, the body also says whether they are (`limits`): a Redis that
// does not answer leaves each instance counting alone, which is worth an
// alert but not a 503 (a load balancer would drop every instance at once).

import { Type } from "@sinclair/typebox";
import { Elysia } from "elysia";
import type { Store } from "../store/store.ts";
import { errorBody } from "./errors.ts";
import { errorSchema, jsonSuccess } from "./openapi/responses.ts";

const LIMITS = Type.Optional(
  Type.Object(
    {
      shared: Type.Boolean({ description: "true while every check is counted in Redis" }),
      problem: Type.Optional(Type.String({ description: "Why not, and since when: this instance counts its limits alone meanwhile" })),
    },
    { description: "Present when PENNANT_REDIS_URL is set: whether the rate limits are shared through Redis now" },
  ),
);
const HEALTHY = Type.Object({ ok: Type.Literal(true), limits: LIMITS });
const UNHEALTHY = Type.Object({ ok: Type.Literal(false), error: errorSchema(["database_unavailable"]).properties.error, limits: LIMITS });

/** What /healthz says of the limits when they are meant to be shared (src/serve/shared-limits.ts tells). */
export interface LimitsHealth {
  shared: boolean;
  /** Why they are not, and since when. */
  problem?: string;
}

/** The limits as /healthz asks them: undefined when they are in-process by configuration (no PENNANT_REDIS_URL). */
export interface LimitsHealthSource {
  health(): LimitsHealth | undefined;
}

export function healthRoute(store: Store, limits: LimitsHealthSource) {
  return new Elysia().get(
    "/healthz",
    async ({ set }) => {
      set.headers["cache-control"] = "no-store";
      const problem = await store.problem();
      // Left out, not null, without Redis: the body stays as it always was.
      const shared = limits.health();
      const limitsField = shared ? { limits: shared } : {};
      if (!problem) return { ok: true as const, ...limitsField };
      set.status = 503;
      return { ok: false as const, ...errorBody("database_unavailable", problem), ...limitsField };
    },
    {
      detail: {
        summary: "Health: the database can be read and the last write succeeded",
        tags: ["service"],
        responses: {
          200: jsonSuccess("Healthy (with PENNANT_REDIS_URL: also while Redis does not answer, which limits.problem says)", HEALTHY),
          503: jsonSuccess("The database cannot be read, or writes are failing (the message says since when)", UNHEALTHY),
        },
      },
    },
  );
}
