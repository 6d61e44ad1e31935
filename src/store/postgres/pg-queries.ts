// PostgreSQL's side of the queries both backends share (../query-steps.ts):
// its tables, its dialect (what several instances at once need: row locks,
// advisory locks), and an operation's steps, each awaited.

import { sql, type SQL } from "drizzle-orm";
import type { Dialect, QueryContext, Steps } from "../query-steps.ts";
import type { PgDb } from "./open-postgres.ts";
import { PG_TABLES } from "./postgres-schema.ts";

const PG_DIALECT: Dialect = {
  // greatest() passes over a null.
  greatest: (a, b) => sql`greatest(${a}, ${b})`,
  int: (value) => sql`${value}::int8`,
  lockRows: (table, where) => sql`SELECT 1 FROM ${table} WHERE ${where} FOR UPDATE`,
  advisoryLock: (key) => sql`SELECT pg_advisory_xact_lock(${key})`,
  forUpdate: (select, options) => (select as { for(strength: "update", options?: object): typeof select }).for("update", options),
};

/** Runs `operation` on `db` (a pool, a connection's drizzle or a transaction), awaiting each query. */
export async function runPostgres<T>(db: Pick<PgDb, "execute">, operation: (q: QueryContext) => Steps<T>): Promise<T> {
  const steps = operation({ db: db as unknown as QueryContext["db"], tables: PG_TABLES, dialect: PG_DIALECT });
  for (let next = steps.next(); ; ) {
    if (next.done) return next.value;
    const { query, mode } = next.value;
    next = steps.next(mode === "raw" ? await db.execute(query as SQL) : await (query as PromiseLike<unknown>));
  }
}

/** Runs `operation` in one transaction of `db`. */
export function pgTransaction<T>(db: PgDb, operation: (q: QueryContext) => Steps<T>): Promise<T> {
  return db.transaction((tx) => runPostgres(tx, operation));
}
