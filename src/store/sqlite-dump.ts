// Dump and load (dump.ts) on SQLite. A dump reads one snapshot on a read-only
// connection of its own (a WAL reader blocks no writer), so the store's own
// connection serves on while it runs. A load writes every batch inside one
// transaction of the store's connection: a failure half-way leaves the file as
// empty as it was.

import { Database } from "bun:sqlite";
import { and, count, getTableColumns, gt, gte, type SQL } from "drizzle-orm";
import { drizzle } from "drizzle-orm/bun-sqlite";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "./database.ts";
import { BATCH_ROWS, DATA_KINDS, emptyCounts, inPages, StoreNotEmptyError, type RowBatch, type RowCounts, type RowKind } from "./dump.ts";
import { plugins, replayMemory, serverSamples, servers, tokens, usedSignatures } from "./schema.ts";

const TABLES = {
  tokens,
  servers,
  plugins,
  samples: serverSamples,
  replayKeys: usedSignatures,
  replayCoverage: replayMemory,
} satisfies Record<RowKind, SQLiteTable>;

/** A sample's columns but `minute`, which SQLite computes from `at`. */
const SAMPLE_COLUMNS = {
  id: serverSamples.id,
  serverUuid: serverSamples.serverUuid,
  at: serverSamples.at,
  playersOnline: serverSamples.playersOnline,
  playersMax: serverSamples.playersMax,
  tps: serverSamples.tps,
};

/** Every row of `db`'s file, and the replay keys still inside their window at `now`, in batches. */
export async function* dumpSqlite(db: Db, now: number): AsyncGenerator<RowBatch> {
  const reader = new Database(db.$client.filename, { readonly: true, strict: true });
  try {
    reader.run("BEGIN");
    const snapshot = drizzle({ client: reader });
    /** The rows of `table` after `after` in the order of its key `keyName`, BATCH_ROWS at a time, among those `where` keeps. */
    const page = (kind: RowKind, table: SQLiteTable, keyName: string, { columns, where }: { columns?: Record<string, SQLiteColumn>; where?: SQL } = {}) => {
      const key = getTableColumns(table)[keyName]!;
      const read = (after: unknown) => {
        const query = columns ? snapshot.select(columns).from(table) : snapshot.select().from(table);
        return query.where(and(where, after === undefined ? undefined : gt(key, after))).orderBy(key).limit(BATCH_ROWS).all();
      };
      return inPages(kind, keyName, read);
    };
    yield* page("tokens", tokens, "id");
    yield* page("servers", servers, "uuid");
    yield* page("plugins", plugins, "uuid");
    yield* page("samples", serverSamples, "id", { columns: SAMPLE_COLUMNS });
    yield* page("replayKeys", usedSignatures, "signature", { where: gte(usedSignatures.expiresAt, now) });
    yield* page("replayCoverage", replayMemory, "id");
    reader.run("COMMIT");
  } finally {
    reader.close();
  }
}

/** How many rows of each data kind `db` holds, the kinds with none left out. */
function heldRows(db: Db): Partial<RowCounts> {
  const held: Partial<RowCounts> = {};
  for (const kind of DATA_KINDS) {
    const n = db.select({ n: count() }).from(TABLES[kind]).get()?.n ?? 0;
    if (n > 0) held[kind] = n;
  }
  return held;
}

/**
 * Writes `batches` into `db` in one transaction and returns how many rows of
 * each kind it wrote; StoreNotEmptyError (nothing written) when `db` holds
 * data. The transaction spans the awaits between batches: the caller must be
 * the only user of this store until it ends (`pennant copy` is).
 */
export async function loadSqlite(db: Db, batches: AsyncIterable<RowBatch>): Promise<RowCounts> {
  const sqlite = db.$client;
  // IMMEDIATE: the write lock from the start, so that no other process writes between the check and the rows.
  sqlite.run("BEGIN IMMEDIATE");
  try {
    const held = heldRows(db);
    if (Object.keys(held).length > 0) throw new StoreNotEmptyError(held);
    const counts = emptyCounts();
    for await (const batch of batches) {
      if (batch.kind === "replayCoverage") {
        // A target that was served once keeps a window of its own; the copied keys were kept for the source's.
        for (const row of batch.rows) db.insert(replayMemory).values(row).onConflictDoUpdate({ target: replayMemory.id, set: row }).run();
      } else {
        db.insert(TABLES[batch.kind] as SQLiteTable).values(batch.rows as never).run();
      }
      counts[batch.kind] += batch.rows.length;
    }
    sqlite.run("COMMIT");
    return counts;
  } catch (error) {
    sqlite.run("ROLLBACK");
    throw error;
  }
}
