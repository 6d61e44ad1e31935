// The store on one SQLite file (bun:sqlite through drizzle): the default,
// nothing to install. bun:sqlite is synchronous, so each operation runs to its
// end inside its async method; pushes are accepted in batches, one
// synchronous transaction each, every push of it in a savepoint that keeps
// every guarantee a push has (sqlite-push.ts). Every operation
// hands SQLite's faults that no request can fix (locked, full, unwritable) out
// as StoreUnavailableError, which is all the layers above look for.

import type { ReplayStatus } from "../auth/replay.ts";
import { backupDatabase } from "./backup.ts";
import { openDatabase, type Db } from "./database.ts";
import type { RowBatch, RowCounts } from "./dump.ts";
import { sweepHistory } from "./server-history.ts";
import { sqliteRememberRequest } from "./signed-requests.ts";
import { dumpSqlite, loadSqlite } from "./sqlite-dump.ts";
import { acceptPushes, PushStatements, sqliteExpireIdleRegistrations, sqliteRememberedFingerprint, type PushOutcome } from "./sqlite-push.ts";
import { runSqlite, sqliteTransaction } from "./sqlite-queries.ts";
import type { Push, Store } from "./store.ts";
import { StoreOfParts } from "./store-parts.ts";
import { storeUnavailable } from "./unavailable.ts";

/** Runs one operation; a fault of the database comes out as StoreUnavailableError, anything else as it was thrown. */
async function classified<T>(operation: () => T): Promise<T> {
  try {
    return operation();
  } catch (error) {
    throw storeUnavailable(error) ?? error;
  }
}

interface WaitingPush {
  push: Push;
  resolve(status: ReplayStatus): void;
  reject(error: unknown): void;
}

export class SqliteStore extends StoreOfParts implements Store {
  /** The push path's statements, compiled once for this database (sqlite-push.ts). */
  readonly #statements: PushStatements;
  /** Pushes waiting for the next batch's commit. */
  readonly #waiting: WaitingPush[] = [];

  /** `db` stays reachable for what only SQLite has: tests and benches that seed the file, look into it or break it on purpose. */
  constructor(readonly db: Db) {
    const statements = new PushStatements(db.$client);
    super(
      { read: (operation) => classified(() => runSqlite(db, operation)), transaction: (operation) => classified(() => sqliteTransaction(db, operation)) },
      {
        findTokenByHash: (hash) => classified(() => statements.tokenByHash(hash)),
        expireIdleRegistrations: (now) => classified(() => sqliteExpireIdleRegistrations(db, now)),
        rememberedFingerprint: (key, now) => classified(() => sqliteRememberedFingerprint(statements, key, now)),
        *rememberRequest(_, replay, now) {
          return sqliteRememberRequest(statements, replay, now);
        },
        // An immediate transaction: a second process sweeping the file waits, then finds the work done.
        sweepHistory: (now, staleAfterMs) => classified(() => db.$client.transaction(() => runSqlite(db, (q) => sweepHistory(q, now, staleAfterMs))).immediate()),
      },
    );
    this.#statements = statements;
  }

  /**
   * Group commit: the pushes that reach the store within one turn of the
   * event loop are accepted in one transaction, one commit and one sync
   * (synchronous=FULL) for all of them, at the start of the next turn. Each
   * push's answer waits for that commit, so an acknowledged push is on disk
   * as before; a lone push is a batch of one.
   */
  push(push: Push): Promise<ReplayStatus> {
    return new Promise((resolve, reject) => {
      if (this.#waiting.push({ push, resolve, reject }) === 1) setImmediate(() => this.#commitWaiting());
    });
  }

  #commitWaiting(): void {
    const batch = this.#waiting.splice(0);
    if (batch.length === 0) return;
    let outcomes: PushOutcome[];
    try {
      outcomes = acceptPushes(this.db, this.#statements, batch.map((waiting) => waiting.push));
    } catch (error) {
      const failure = storeUnavailable(error) ?? error;
      for (const waiting of batch) waiting.reject(failure);
      return;
    }
    batch.forEach((waiting, i) => {
      const outcome = outcomes[i]!;
      if ("status" in outcome) waiting.resolve(outcome.status);
      else waiting.reject(outcome.refusal);
    });
  }

  async problem(): Promise<string | undefined> {
    try {
      this.db.$client.query("SELECT count(*) FROM __drizzle_migrations").get();
    } catch (error) {
      return `the database cannot be read: ${(error as Error).message}`;
    }
    return this.db.writes.problem();
  }

  dump(now: number): AsyncIterable<RowBatch> {
    return dumpSqlite(this.db, now);
  }

  async load(batches: AsyncIterable<RowBatch>): Promise<RowCounts> {
    try {
      return await loadSqlite(this.db, batches);
    } catch (error) {
      throw storeUnavailable(error) ?? error;
    }
  }

  async backup(target: string): Promise<number> {
    return backupDatabase(this.db, target);
  }

  /** Closing commits the pushes still waiting, then checkpoints the WAL into the file and removes it. */
  async close(): Promise<void> {
    this.#commitWaiting();
    this.db.$client.close();
  }
}

/** Opens (creating or upgrading) the SQLite database at `path`; DatabaseOpenError when it cannot. */
export function openSqliteStore(path: string, now: () => number = Date.now): SqliteStore {
  return new SqliteStore(openDatabase(path, now));
}
