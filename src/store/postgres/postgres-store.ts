// The store on PostgreSQL (Bun's SQL client through drizzle's bun-sql), for
// several instances sharing one database. Same operations and refusals as
// SqliteStore; what differs is that calls run at the same time (pg-push.ts
// says how a push stays right under that), and that the database is across
// a network: every call has a deadline, and a server that is down, restarting
// or too slow comes out as StoreUnavailableError (pg-faults.ts).

import type { ReplayStatus } from "../../auth/replay.ts";
import { BackupError } from "../backup.ts";
import type { RowBatch, RowCounts } from "../dump.ts";
import type { Push, Store } from "../store.ts";
import { StoreOfParts } from "../store-parts.ts";
import { WriteHealth } from "../write-health.ts";
import { openPostgres, PG_TIMEOUTS, type PgDb, type PgTimeouts } from "./open-postgres.ts";
import { dumpPostgres, loadPostgres } from "./pg-dump.ts";
import { pgUnavailable, withDeadline } from "./pg-faults.ts";
import { acceptPush, pgRememberedFingerprint } from "./pg-push.ts";
import { pgTransaction, runPostgres } from "./pg-queries.ts";
import { pgSweepHistory } from "./pg-server-history.ts";
import { pgRememberRequest } from "./pg-signed-requests.ts";
import { findTokenByHash, pgExpireIdleRegistrations } from "./pg-tokens.ts";

/** How often one store deletes the expired replay keys. */
const SWEEP_EVERY_MS = 1000;

/** Runs one operation within the call deadline; a fault of the database comes out as StoreUnavailableError, anything else as it was thrown. */
function deadlineCall(timeouts: PgTimeouts) {
  return async <T>(operation: () => Promise<T>): Promise<T> => {
    try {
      return await withDeadline(operation(), timeouts.callMs);
    } catch (error) {
      throw pgUnavailable(error) ?? error;
    }
  };
}

export class PostgresStore extends StoreOfParts implements Store {
  /** How the last push ended (read by /healthz). */
  private readonly writes: WriteHealth;
  /** The push time of this instance's last sweep of expired replay keys (acceptPush). */
  private sweptAt = Number.NEGATIVE_INFINITY;
  private readonly call: ReturnType<typeof deadlineCall>;

  /** `db` stays reachable for tests that look into the database. */
  constructor(
    readonly db: PgDb,
    private readonly url: URL,
    timeouts: PgTimeouts = PG_TIMEOUTS,
    now: () => number = Date.now,
  ) {
    const call = deadlineCall(timeouts);
    super(
      { read: (operation) => call(() => runPostgres(db, operation)), transaction: (operation) => call(() => pgTransaction(db, operation)) },
      {
        findTokenByHash: (hash) => call(() => findTokenByHash(db.$client, hash)),
        expireIdleRegistrations: (now) => call(() => pgExpireIdleRegistrations(db.$client, now)),
        rememberedFingerprint: (key, now) => call(() => pgRememberedFingerprint(db.$client, key, now)),
        rememberRequest: pgRememberRequest,
        sweepHistory: (now, staleAfterMs) => call(() => pgSweepHistory(db, now, staleAfterMs)),
      },
    );
    this.call = call;
    this.writes = new WriteHealth(now);
  }

  async push(push: Push): Promise<ReplayStatus> {
    try {
      // Once a second at most: every instance sweeps, and a sweep takes rows other pushes may want.
      const sweep = Math.abs(push.now - this.sweptAt) >= SWEEP_EVERY_MS;
      if (sweep) this.sweptAt = push.now;
      const status = await this.call(() => acceptPush(this.db.$client, push, sweep));
      this.writes.succeeded();
      return status;
    } catch (error) {
      const unavailable = pgUnavailable(error);
      if (unavailable) this.writes.failed(unavailable);
      throw error;
    }
  }

  async problem(): Promise<string | undefined> {
    try {
      await this.call(() => this.db.$client`SELECT count(*) FROM drizzle.__drizzle_migrations`);
    } catch (error) {
      return `the database cannot be read: ${(error as Error).message}`;
    }
    return this.writes.problem();
  }

  dump(now: number): AsyncIterable<RowBatch> {
    return dumpPostgres(this.db, now);
  }

  /** Not bound by the call deadline: a large store takes longer to load than any one call may (each statement still is, by statement_timeout). */
  async load(batches: AsyncIterable<RowBatch>): Promise<RowCounts> {
    try {
      return await loadPostgres(this.db, batches);
    } catch (error) {
      throw pgUnavailable(error) ?? error;
    }
  }

  /** A file copy is SQLite's; PostgreSQL has its own tool, named in one line with this database's address (never its password). */
  async backup(target: string): Promise<number> {
    const { hostname, port, username, pathname } = this.url;
    const args = [`--host=${hostname}`, ...(port ? [`--port=${port}`] : []), ...(username ? [`--username=${decodeURIComponent(username)}`] : [])];
    throw new BackupError(`backup copies SQLite files; back up PostgreSQL with pg_dump: pg_dump --format=custom --file=${target} ${args.join(" ")} ${decodeURIComponent(pathname.slice(1))}`);
  }

  async close(): Promise<void> {
    await this.db.$client.close();
  }
}

/** Opens (creating or upgrading the schema of) the PostgreSQL database at `url`; PgOpenError when it cannot. */
export async function openPostgresStore(url: string, timeouts: PgTimeouts = PG_TIMEOUTS, now: () => number = Date.now): Promise<PostgresStore> {
  return new PostgresStore(await openPostgres(url, timeouts), new URL(url), timeouts, now);
}
