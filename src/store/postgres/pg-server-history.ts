// A server's history sweep (../server-history.ts) in PostgreSQL, for instances
// sharing one database: one transaction under a transaction-level advisory
// lock that it only tries, so that while one instance sweeps, another skips
// its turn instead of recomputing the same buckets behind it.

import { drizzle } from "drizzle-orm/bun-sql";
import { sweepHistory } from "../server-history.ts";
import type { PgDb } from "./open-postgres.ts";
import { runPostgres } from "./pg-queries.ts";

/** The sweep's advisory lock key ("hist" in ASCII). */
const SWEEP_LOCK = 0x68697374;

/** One sweep run at `now`; false, having done nothing, when another instance is sweeping. */
export async function pgSweepHistory(db: PgDb, now: number, staleAfterMs: number): Promise<boolean> {
  const connection = await db.$client.reserve();
  try {
    await connection.unsafe("BEGIN");
    try {
      const [lock] = await connection`SELECT pg_try_advisory_xact_lock(${SWEEP_LOCK}) AS taken`;
      const more = (lock as { taken: boolean }).taken ? await runPostgres(drizzle({ client: connection }), (q) => sweepHistory(q, now, staleAfterMs)) : false;
      await connection.unsafe("COMMIT");
      return more;
    } catch (error) {
      await connection.unsafe("ROLLBACK").catch(() => {});
      throw error;
    }
  } finally {
    connection.release();
  }
}
