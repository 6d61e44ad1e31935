// Opens the SQLite database and brings its schema up to date.

import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import type { MigrationConfig, MigrationMeta } from "drizzle-orm/migrator";
import { embeddedMigrations } from "./migrations.ts";
import * as schema from "./schema.ts";

export type Db = BunSQLiteDatabase<typeof schema> & { $client: Database };

export function openDatabase(path: string): Db {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const sqlite = new Database(path, { create: true, strict: true });
  // WAL lets banner reads run beside pushes; synchronous=FULL makes an
  // acknowledged push durable even across a power cut, not only a crash.
  sqlite.run("PRAGMA journal_mode = WAL");
  sqlite.run("PRAGMA synchronous = FULL");
  sqlite.run("PRAGMA foreign_keys = ON");
  sqlite.run("PRAGMA busy_timeout = 5000");
  const db = drizzle({ client: sqlite, schema });
  migrate(db);
  return db;
}

/** The part of drizzle's internals its own bun-sqlite migrator uses (hidden from its types). */
interface MigratorInternals {
  dialect: { migrate(migrations: MigrationMeta[], session: unknown, config: MigrationConfig): void };
  session: unknown;
}

export function migrate(db: Db): void {
  // drizzle's dialect runs the not-yet-applied entries in one transaction and
  // records them in __drizzle_migrations, exactly like its folder migrator.
  const internals = db as unknown as MigratorInternals;
  internals.dialect.migrate(embeddedMigrations(), internals.session, { migrationsFolder: "(embedded)" });
}

/** A transaction handle; every write of a push goes through one. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
