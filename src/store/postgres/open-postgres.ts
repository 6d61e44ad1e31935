// Opens a PostgreSQL database from a postgres:// URL with Bun's own client
// and brings its schema up to date.

import { SQL } from "bun";
import { drizzle, type BunSQLDatabase } from "drizzle-orm/bun-sql";
import type { MigrationConfig, MigrationMeta } from "drizzle-orm/migrator";
import { withoutPassword } from "../service-url.ts";
import { pgEmbeddedMigrations } from "./postgres-migrations.ts";
import pushFunctions from "./push-functions.sql" with { type: "text" };

export type PgDb = BunSQLDatabase & { $client: SQL };

export interface PgTimeouts {
  /** How long opening a connection may take, TCP and handshake, before it fails. */
  connectMs: number;
  /** How long one statement may run, waits on locks included: PostgreSQL cancels it then. */
  statementMs: number;
  /** How long start-up may wait for another instance's migrations, and each migration statement may run. */
  migrationMs: number;
  /**
   * How long one store call may take in all, as the client measures it:
   * waiting for a pooled connection and every statement of a push. A
   * connection whose server vanished without a word would otherwise wait
   * for ever (Bun's client has no per-query timeout).
   */
  callMs: number;
}

/**
 * A push is one statement (a call of the push function, pg-push.ts) and
 * takes 1-3 ms on a loaded 2-core machine (measured on loopback): a statement
 * still running after 5 s is stuck on something that will not resolve soon,
 * and the caller answers 503 rather than hold the request.
 * Migrations may rewrite whole tables, and a second instance waits for the
 * first one's: two minutes. A call is given a second more than a statement,
 * so that PostgreSQL's own cancel, which leaves nothing half-done, usually
 * comes first.
 */
export const PG_TIMEOUTS: PgTimeouts = { connectMs: 5_000, statementMs: 5_000, migrationMs: 120_000, callMs: 6_000 };

/**
 * The key of the session-level advisory lock held while migrations run, the
 * same in every instance: drizzle's migrator takes no lock, and two instances
 * starting at once on an empty database would both run CREATE TABLE, one
 * failing. ("pnnt" in ASCII; advisory locks are keyed by any 64-bit number.)
 */
export const MIGRATION_LOCK = 0x706e6e74;

/** The database could not be reached or brought up to date; the message names it (without its password) and says why. */
export class PgOpenError extends Error {
  constructor(url: string, reason: string) {
    super(`cannot open database ${withoutPassword(url)}: ${reason}`);
    this.name = "PgOpenError";
  }
}

export async function openPostgres(url: string, timeouts: PgTimeouts = PG_TIMEOUTS): Promise<PgDb> {
  const client = new SQL(url, {
    connectionTimeout: timeouts.connectMs / 1000,
    connection: { statement_timeout: timeouts.statementMs },
  });
  try {
    const db = drizzle({ client });
    await migrate(db, pgEmbeddedMigrations(), timeouts.migrationMs);
    return db;
  } catch (error) {
    await client.close({ timeout: 0 });
    throw new PgOpenError(url, openFailureReason(error, timeouts));
  }
}

/** The part of drizzle's internals its own bun-sql migrator uses (hidden from its types). */
interface MigratorInternals {
  dialect: { migrate(migrations: MigrationMeta[], session: unknown, config: MigrationConfig): Promise<void> };
  session: unknown;
}

/**
 * Applies the migrations not yet applied, then the push functions
 * (push-functions.sql, CREATE OR REPLACE: the live definition is always the
 * file's), on one reserved connection that holds MIGRATION_LOCK throughout:
 * a second instance waits for the first and then finds nothing left to do.
 * The lock belongs to the connection, so a process that dies while holding it
 * releases it with its connection.
 */
async function migrate(db: PgDb, migrations: MigrationMeta[], timeoutMs: number): Promise<void> {
  const connection = await db.$client.reserve();
  try {
    await connection.unsafe(`SET statement_timeout = ${Math.round(timeoutMs)}`);
    await connection`SELECT pg_advisory_lock(${MIGRATION_LOCK})`;
    try {
      // drizzle's dialect records the entries in drizzle.__drizzle_migrations, exactly like its folder migrator.
      const internals = drizzle({ client: connection }) as unknown as MigratorInternals;
      await internals.dialect.migrate(migrations, internals.session, { migrationsFolder: "(embedded)" });
      for (const statement of pushFunctions.split("--> statement-breakpoint")) await connection.unsafe(statement);
    } finally {
      await connection`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`;
    }
    await connection`RESET statement_timeout`;
  } finally {
    await connection.release();
  }
}

function openFailureReason(error: unknown, timeouts: PgTimeouts): string {
  // drizzle wraps a failed statement in an error that repeats the query; PostgreSQL's own words are its cause.
  const { code = "", message = String(error) } = ((error as { cause?: unknown }).cause ?? error) as { code?: string; message?: string };
  if (code === "ERR_POSTGRES_CONNECTION_REFUSED") return "connection refused (is PostgreSQL running, and on this host and port?)";
  if (code === "ERR_POSTGRES_CONNECTION_TIMEOUT") return `no answer within ${timeouts.connectMs} ms (is this the right host and port?)`;
  return message;
}
