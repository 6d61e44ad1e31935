// Which store the configuration names: PostgreSQL when PENNANT_DATABASE_URL
// is set (for several instances sharing one database), else the SQLite file
// at PENNANT_DB (the default, nothing to install). The one place that
// chooses; every command and `serve` open their store here.

import type { Config } from "../config.ts";
import { openPostgresStore } from "./postgres/postgres-store.ts";
import { withoutPassword } from "./service-url.ts";
import { openSqliteStore } from "./sqlite-store.ts";
import type { Store } from "./store.ts";

export type StoreLocation = Pick<Config, "databaseUrl" | "dbPath">;

/** Opens (creating or upgrading) the configured store; DatabaseOpenError or PgOpenError when it cannot. */
export async function openStore(location: StoreLocation, now: () => number = Date.now): Promise<Store> {
  return location.databaseUrl ? openPostgresStore(location.databaseUrl, undefined, now) : openSqliteStore(location.dbPath, now);
}

/** The configured store as `serve` and the commands name it: the SQLite path, or the PostgreSQL URL without its password. */
export function describeStore(location: StoreLocation): string {
  return location.databaseUrl ? `PostgreSQL ${withoutPassword(location.databaseUrl)}` : location.dbPath;
}
