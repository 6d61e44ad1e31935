// Dump and load (dump.ts) on SQLite. A dump reads one snapshot on a read-only
// connection of its own (a WAL reader blocks no writer), so the store's own
// connection serves on while it runs. A load writes every batch inside one
// transaction of the store's connection: a failure half-way leaves the file as
// empty as it was.

import { Database } from "bun:sqlite";
import { count } from "drizzle-orm";
import { drizzle } from "drizzle-orm/bun-sqlite";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "./database.ts";
import { BATCH_ROWS, dumpTables, loadBatches, SETTING_KINDS, tablesByKind, type RowBatch, type RowCounts, type TablesByKind } from "./dump.ts";
import { SQLITE_TABLES } from "./schema.ts";

const TABLES: TablesByKind<SQLiteTable, SQLiteColumn> = tablesByKind(SQLITE_TABLES);

/** Every row of `db`'s file, and the replay keys still inside their window at `now`, in batches. */
export async function* dumpSqlite(db: Db, now: number): AsyncGenerator<RowBatch> {
  const reader = new Database(db.$client.filename, { readonly: true, strict: true });
  try {
    reader.run("BEGIN");
    const snapshot = drizzle({ client: reader });
    yield* dumpTables<SQLiteTable, SQLiteColumn>(TABLES, now, ({ table, keys, columns, where }) =>
      (columns ? snapshot.select(columns) : snapshot.select()).from(table).where(where).orderBy(...keys).limit(BATCH_ROWS).all(),
    );
    reader.run("COMMIT");
  } finally {
    reader.close();
  }
}

/**
 * Writes `batches` into `db` in one transaction and returns how many rows of
 * each kind it wrote; StoreNotEmptyError (nothing written) when `db` holds
 * data. SQLite's AUTOINCREMENT moves past the ids written by itself. The transaction spans the awaits between batches: the caller must be
 * the only user of this store until it ends (`pennant copy` is).
 */
export async function loadSqlite(db: Db, batches: AsyncIterable<RowBatch>): Promise<RowCounts> {
  const sqlite = db.$client;
  // IMMEDIATE: the write lock from the start, so that no other process writes between the check and the rows.
  sqlite.run("BEGIN IMMEDIATE");
  try {
    const counts = await loadBatches(
      batches,
      (kind) => db.select({ n: count() }).from(TABLES[kind]).get()?.n ?? 0,
      (batch) => {
        const table = TABLES[batch.kind] as typeof SQLITE_TABLES.replayMemory;
        if (!SETTING_KINDS.has(batch.kind)) return db.insert(table).values(batch.rows as never).run();
        // A target that was served once keeps settings of its own; the copied rows were kept under the source's.
        for (const row of batch.rows) db.insert(table).values(row as never).onConflictDoUpdate({ target: table.id, set: row as never }).run();
      },
    );
    sqlite.run("COMMIT");
    return counts;
  } catch (error) {
    sqlite.run("ROLLBACK");
    throw error;
  }
}
