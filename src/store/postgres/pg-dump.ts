// Dump and load (../dump.ts) on PostgreSQL. Each runs on one connection of
// the pool for the whole of it: a dump reads one snapshot
// (REPEATABLE READ, read only), a load writes every batch in one transaction
// that holds the tables against other writers from its check that they are
// empty to its commit, so a failure half-way leaves the database as empty as
// it was. Neither is bound by the per-call deadline (a copy of a large store
// takes minutes); each statement still is, by statement_timeout.

import { count, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/bun-sql";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { BATCH_ROWS, dumpTables, loadBatches, SETTING_KINDS, tablesByKind, type RowBatch, type RowCounts, type TablesByKind } from "../dump.ts";
import type { PgDb } from "./open-postgres.ts";
import { PG_TABLES } from "./postgres-schema.ts";

/** PostgreSQL's table of each kind, in PostgreSQL's own types. */
const TABLES = tablesByKind(PG_TABLES) as unknown as TablesByKind<PgTable, PgColumn>;

/** Every row of `db`, and the replay keys still inside their window at `now`, in batches. */
export async function* dumpPostgres(db: PgDb, now: number): AsyncGenerator<RowBatch> {
  const connection = await db.$client.reserve();
  let inTransaction = false;
  try {
    await connection.unsafe("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    inTransaction = true;
    const snapshot = drizzle({ client: connection });
    yield* dumpTables<PgTable, PgColumn>(TABLES, now, ({ table, keys, columns, where }) =>
      (columns ? snapshot.select(columns) : snapshot.select()).from(table).where(where).orderBy(...keys).limit(BATCH_ROWS),
    );
    await connection.unsafe("COMMIT");
    inTransaction = false;
  } finally {
    // A dump left before its end (the load failed) ends its transaction before the connection goes back to the pool.
    if (inTransaction) await connection.unsafe("ROLLBACK").catch(() => {});
    connection.release();
  }
}

/**
 * Writes `batches` into `db` in one transaction and returns how many rows of
 * each kind it wrote; StoreNotEmptyError (nothing written) when `db` holds
 * data. The identity sequences are then set past the copied ids, so that the
 * next token, sample or delivery made here takes a new id.
 */
export function loadPostgres(db: PgDb, batches: AsyncIterable<RowBatch>): Promise<RowCounts> {
  return db.transaction(async (tx) => {
    // Reads go on; a write of another instance waits until the copy is done, so none slips in after the check.
    await tx.execute(sql.raw("LOCK TABLE tokens, servers, plugins, server_samples, server_history, used_signatures, replay_memory, history_marks, webhooks, webhook_states, webhook_deliveries, networks, network_members IN EXCLUSIVE MODE"));
    const counts = await loadBatches(
      batches,
      async (kind) => (await tx.select({ n: count() }).from(TABLES[kind]))[0]?.n ?? 0,
      async (batch) => {
        const table = TABLES[batch.kind] as PgTable & { id: PgColumn };
        if (!SETTING_KINDS.has(batch.kind)) return tx.insert(table).values(batch.rows as never);
        // A target that was served once keeps settings of its own; the copied rows were kept under the source's.
        for (const row of batch.rows) await tx.insert(table).values(row as never).onConflictDoUpdate({ target: table.id, set: row as never });
      },
    );
    for (const table of ["tokens", "server_samples", "webhook_deliveries"]) {
      await tx.execute(sql`SELECT setval(pg_get_serial_sequence(${table}, 'id'), max(id)) FROM ${sql.identifier(table)} HAVING max(id) IS NOT NULL`);
    }
    return counts;
  });
}
