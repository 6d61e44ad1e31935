// Opens the SQLite database and brings its schema up to date.

import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import type { MigrationConfig, MigrationMeta } from "drizzle-orm/migrator";
import { sqliteEmbeddedMigrations } from "./migrations.ts";
import { WriteHealth } from "./write-health.ts";

export type Db = BunSQLiteDatabase & {
  $client: Database;
  /** How the last write transaction ended (read by /healthz). */
  writes: WriteHealth;
};

/**
 * How long a statement waits for a lock held by another process. bun:sqlite is
 * synchronous, so the wait blocks every request of this process; this process
 * never contends with itself (one connection, one statement at a time), and the
 * other writers (`token create`, a backup) hold the lock for milliseconds. 200 ms
 * lets those finish, even with a slow fsync, and bounds the stall when something
 * holds the lock for long: the push then answers 503 with Retry-After.
 */
export const BUSY_TIMEOUT_MS = 200;

/** The database could not be opened or created; the message says which file and why. */
export class DatabaseOpenError extends Error {
  constructor(path: string, reason: string) {
    super(`cannot open database ${path}: ${reason}`);
    this.name = "DatabaseOpenError";
  }
}

export function openDatabase(path: string, now: () => number = Date.now): Db {
  let sqlite: Database | undefined;
  try {
    if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
    sqlite = new Database(path, { create: true, strict: true });
    // WAL lets banner reads run beside pushes; synchronous=FULL makes an
    // acknowledged push durable even across a power cut, not only a crash.
    sqlite.run("PRAGMA journal_mode = WAL");
    sqlite.run("PRAGMA synchronous = FULL");
    sqlite.run("PRAGMA foreign_keys = ON");
    sqlite.run(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    keepStatements(sqlite);
    const db = Object.assign(drizzle({ client: sqlite }), { writes: new WriteHealth(now) });
    migrate(db);
    guardTransactions(db);
    return db;
  } catch (error) {
    sqlite?.close();
    throw new DatabaseOpenError(path, openFailureReason(error));
  }
}

/**
 * SQL texts whose compiled statements are kept. Drizzle writes values as
 * parameters, so the texts are the code's own queries (a few dozen); the
 * bound only stops an unforeseen variety (IN lists of every length) from
 * keeping statements without end.
 */
const KEPT_STATEMENTS = 256;

/**
 * Drizzle compiles every statement anew on each call (sqlite.prepare), which
 * was a third of a signed push's CPU. bun:sqlite's query() keeps compiled
 * statements by SQL text and finalizes them on close; drizzle runs each to
 * completion before the next, so sharing one is safe.
 */
function keepStatements(sqlite: Database): void {
  const compile = sqlite.prepare.bind(sqlite);
  const kept = new Set<string>();
  sqlite.prepare = ((sql: string) => {
    if (!kept.has(sql)) {
      if (kept.size >= KEPT_STATEMENTS) return compile(sql);
      kept.add(sql);
    }
    return sqlite.query(sql);
  }) as typeof sqlite.prepare;
}

const WRITABLE_HINT = "the file and its folder must be writable: SQLite adds -wal and -shm files beside it";

function openFailureReason(error: unknown): string {
  const { code = "", message = String(error) } = error as { code?: string; message?: string };
  if (code === "SQLITE_NOTADB") return "the file is not an SQLite database (is this the right path?)";
  if (/^(SQLITE_(CANTOPEN|READONLY|PERM|AUTH)|EACCES$|EPERM$|EROFS$)/.test(code)) return `${message} (${WRITABLE_HINT})`;
  if (code === "EEXIST" || code === "ENOTDIR") return `its folder cannot be created, a file is in the way (${message})`;
  return message;
}

/** Every write of a push goes through db.transaction; its outcome is what /healthz reports. */
function guardTransactions(db: Db): void {
  const transaction = db.transaction.bind(db);
  db.transaction = ((run, config) => db.writes.run(() => transaction(run, config))) as Db["transaction"];
}

/** The part of drizzle's internals its own bun-sqlite migrator uses (hidden from its types). */
interface MigratorInternals {
  dialect: { migrate(migrations: MigrationMeta[], session: unknown, config: MigrationConfig): void };
  session: unknown;
}

/** Applies `migrations` (all of them but in upgrade tests, which build the database of an earlier release). */
export function migrate(db: BunSQLiteDatabase, migrations: MigrationMeta[] = sqliteEmbeddedMigrations()): void {
  // drizzle's dialect runs the not-yet-applied entries in one transaction and
  // records them in __drizzle_migrations, exactly like its folder migrator.
  const internals = db as unknown as MigratorInternals;
  internals.dialect.migrate(migrations, internals.session, { migrationsFolder: "(embedded)" });
}

/** A transaction handle; every write of a push goes through one. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
