// SQLite's side of the queries both backends share (query-steps.ts): its
// tables, its dialect, and an operation's steps run to their end at once, so
// that an operation in a transaction is one synchronous transaction.

import { sql, type SQL } from "drizzle-orm";
import type { Db, Tx } from "./database.ts";
import type { Dialect, QueryContext, QueryStep, Steps } from "./query-steps.ts";
import { SQLITE_TABLES } from "./schema.ts";

/** One writer at a time: no locks to take. */
const SQLITE_DIALECT: Dialect = {
  // SQLite's max() of two is null when either is: each stands in for the other.
  greatest: (a, b) => sql`max(coalesce(${a}, ${b}), coalesce(${b}, ${a}))`,
  int: (value) => sql`${value}`,
  lockRows: () => undefined,
  advisoryLock: () => undefined,
  forUpdate: (select) => select,
};

/** Runs `operation` on `db` (or a transaction of it) to its end. */
export function runSqlite<T>(db: Db | Tx, operation: (q: QueryContext) => Steps<T>): T {
  const steps = operation({ db, tables: SQLITE_TABLES, dialect: SQLITE_DIALECT });
  for (let next = steps.next(); ; next = steps.next(runStep(db, next.value))) if (next.done) return next.value;
}

function runStep(db: Db | Tx, { query, mode }: QueryStep): unknown {
  if (mode === "raw") return db.all(query as SQL);
  const prepared = query as { all(): unknown[]; run(): unknown };
  return mode === "rows" ? prepared.all() : prepared.run();
}

/** Runs `operation` in one transaction of `db`. */
export function sqliteTransaction<T>(db: Db, operation: (q: QueryContext) => Steps<T>): T {
  return db.transaction((tx) => runSqlite(tx, operation));
}
