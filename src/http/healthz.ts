// GET /healthz: 200 while the database can be read and the last write
// succeeded; 503 with the reason otherwise (a full disk fails every push
// while reads still work, so reads alone would say "ok").

import { Type } from "@sinclair/typebox";
import { Elysia } from "elysia";
import type { Db } from "../store/database.ts";
import { errorBody } from "./errors.ts";
import { errorSchema, jsonSuccess } from "./openapi/responses.ts";

const UNHEALTHY = Type.Object({ ok: Type.Literal(false), error: errorSchema(["database_unavailable"]).properties.error });

function databaseProblem(db: Db): string | undefined {
  try {
    db.$client.query("SELECT count(*) FROM __drizzle_migrations").get();
  } catch (error) {
    return `the database cannot be read: ${(error as Error).message}`;
  }
  const failure = db.writes.lastFailure();
  if (failure) return `writes are failing since ${new Date(failure.since).toISOString()}: ${failure.message}`;
  return undefined;
}

export function healthRoute(db: Db) {
  return new Elysia().get(
    "/healthz",
    ({ set }) => {
      set.headers["cache-control"] = "no-store";
      const problem = databaseProblem(db);
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
