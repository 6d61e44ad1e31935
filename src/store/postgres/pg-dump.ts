// Dump and load (../dump.ts) on PostgreSQL. Each runs on a connection
// reserved from the pool for the whole of it: a dump reads one snapshot
// (REPEATABLE READ, read only), a load writes every batch in one transaction
// that holds the tables against other writers from its check that they are
// empty to its commit, so a failure half-way leaves the database as empty as
// it was. Neither is bound by the per-call deadline (a copy of a large store
// takes minutes); each statement still is, by statement_timeout.

import { and, count, getTableColumns, gt, gte, sql, type SQL } from "drizzle-orm";
import { drizzle } from "drizzle-orm/bun-sql";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { BATCH_ROWS, DATA_KINDS, emptyCounts, inPages, StoreNotEmptyError, type RowBatch, type RowCounts, type RowKind } from "../dump.ts";
import type { PgDb } from "./open-postgres.ts";
import { plugins, replayMemory, serverSamples, servers, tokens, usedSignatures } from "./postgres-schema.ts";

const TABLES = {
  tokens,
  servers,
  plugins,
  samples: serverSamples,
  replayKeys: usedSignatures,
  replayCoverage: replayMemory,
} satisfies Record<RowKind, PgTable>;

/** A sample's columns but `minute`, which PostgreSQL computes from `at`. */
const SAMPLE_COLUMNS = {
  id: serverSamples.id,
  serverUuid: serverSamples.serverUuid,
  at: serverSamples.at,
  playersOnline: serverSamples.playersOnline,
  playersMax: serverSamples.playersMax,
  tps: serverSamples.tps,
};

/** Every row of `db`, and the replay keys still inside their window at `now`, in batches. */
export async function* dumpPostgres(db: PgDb, now: number): AsyncGenerator<RowBatch> {
  const connection = await db.$client.reserve();
  let inTransaction = false;
  try {
    await connection.unsafe("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    inTransaction = true;
    const snapshot = drizzle({ client: connection });
    /** The rows of `table` after `after` in the order of its key `keyName`, BATCH_ROWS at a time, among those `where` keeps. */
    const page = (kind: RowKind, table: PgTable, keyName: string, { columns, where }: { columns?: Record<string, PgColumn>; where?: SQL } = {}) => {
      const key = getTableColumns(table)[keyName]!;
      const read = async (after: unknown) => {
        const query = columns ? snapshot.select(columns).from(table) : snapshot.select().from(table);
        return (await query.where(and(where, after === undefined ? undefined : gt(key, after))).orderBy(key).limit(BATCH_ROWS));
      };
      return inPages(kind, keyName, read);
    };
    yield* page("tokens", tokens, "id");
    yield* page("servers", servers, "uuid");
    yield* page("plugins", plugins, "uuid");
    yield* page("samples", serverSamples, "id", { columns: SAMPLE_COLUMNS });
    yield* page("replayKeys", usedSignatures, "signature", { where: gte(usedSignatures.expiresAt, now) });
    yield* page("replayCoverage", replayMemory, "id");
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
 * next token or sample made here takes a new id.
 */
export async function loadPostgres(db: PgDb, batches: AsyncIterable<RowBatch>): Promise<RowCounts> {
  const connection = await db.$client.reserve();
  try {
    await connection.unsafe("BEGIN");
    try {
      const tx = drizzle({ client: connection });
      // Reads go on; a write of another instance waits until the copy is done, so none slips in after the check.
      await connection.unsafe("LOCK TABLE tokens, servers, plugins, server_samples, used_signatures, replay_memory IN EXCLUSIVE MODE");
      const held: Partial<RowCounts> = {};
      for (const kind of DATA_KINDS) {
        const [row] = await tx.select({ n: count() }).from(TABLES[kind]);
        if (row && row.n > 0) held[kind] = row.n;
      }
      if (Object.keys(held).length > 0) throw new StoreNotEmptyError(held);
      const counts = emptyCounts();
      for await (const batch of batches) {
        if (batch.kind === "replayCoverage") {
          // A target that was served once keeps a window of its own; the copied keys were kept for the source's.
          for (const row of batch.rows) await tx.insert(replayMemory).values(row).onConflictDoUpdate({ target: replayMemory.id, set: row });
        } else {
          await tx.insert(TABLES[batch.kind] as PgTable).values(batch.rows as never);
        }
        counts[batch.kind] += batch.rows.length;
      }
      for (const table of ["tokens", "server_samples"]) {
        await tx.execute(sql`SELECT setval(pg_get_serial_sequence(${table}, 'id'), max(id)) FROM ${sql.identifier(table)} HAVING max(id) IS NOT NULL`);
      }
      await connection.unsafe("COMMIT");
      return counts;
    } catch (error) {
      await connection.unsafe("ROLLBACK").catch(() => {});
      throw error;
    }
  } finally {
    connection.release();
  }
}
