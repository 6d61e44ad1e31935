// A server's history sweep (../server-history.ts) in PostgreSQL, for instances
// sharing one database: one transaction under a transaction-level advisory
// lock that it only tries, so that while one instance sweeps, another skips
// its turn instead of recomputing the same buckets behind it.

import { sql } from "drizzle-orm";
import { raw } from "../query-steps.ts";
import { sweepHistory } from "../server-history.ts";
import type { PgDb } from "./open-postgres.ts";
import { pgTransaction } from "./pg-queries.ts";

/** The sweep's advisory lock key ("hist" in ASCII). */
const SWEEP_LOCK = 0x68697374;

/** One sweep run at `now`; false, having done nothing, when another instance is sweeping. */
export function pgSweepHistory(db: PgDb, now: number, staleAfterMs: number): Promise<boolean> {
  return pgTransaction(db, function* (q) {
    const [lock] = yield* raw(sql`SELECT pg_try_advisory_xact_lock(${SWEEP_LOCK}) AS taken`);
    return (lock as { taken: boolean }).taken ? yield* sweepHistory(q, now, staleAfterMs) : false;
  });
}
