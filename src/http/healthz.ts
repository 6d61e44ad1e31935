// GET /healthz: 200 while the database can be read and the last write
// succeeded; 503 with the reason otherwise (a full disk fails every push
// while reads still work, so reads alone would say "ok").

import { Type } from "@sinclair/typebox";
import { Elysia } from "elysia";
import type { Store } from "../store/store.ts";
import { errorBody } from "./errors.ts";
import { errorSchema, jsonSuccess } from "./openapi/responses.ts";

const UNHEALTHY = Type.Object({ ok: Type.Literal(false), error: errorSchema(["database_unavailable"]).properties.error });

export function healthRoute(store: Store) {
  return new Elysia().get(
    "/healthz",
    async ({ set }) => {
      set.headers["cache-control"] = "no-store";
      const problem = await store.problem();
      if (!problem) return { ok: true };
      set.status = 503;
      return { ok: false, ...errorBody("database_unavailable", problem) };
    },
    {
      detail: {
        summary: "Health: the database can be read and the last write succeeded",
        tags: ["service"],
        responses: {
          200: jsonSuccess("Healthy", Type.Object({ ok: Type.Literal(true) })),
          503: jsonSuccess("The database cannot be read, or writes are failing (the message says since when)", UNHEALTHY),
        },
      },
    },
  );
}
