// What drizzle's migrators read from a migrations folder, built from SQL that
// was embedded by import instead: drizzle's folder-reading migrator cannot see
// files inside the compiled binary. Each dialect's module lists its own files
// (migrations.ts, postgres/postgres-migrations.ts); a test fails if its journal names a
// migration that is not listed.

import { createHash } from "node:crypto";
import type { MigrationMeta } from "drizzle-orm/migrator";

export interface JournalEntry {
  tag: string;
  when: number;
  breakpoints: boolean;
}

/** The same MigrationMeta list drizzle's own readMigrationFiles would build; `listedIn` names the module that embeds them. */
export function migrationMeta(entries: JournalEntry[], sqlByTag: Record<string, string>, listedIn: string): MigrationMeta[] {
  return entries.map((entry) => {
    const sql = sqlByTag[entry.tag];
    if (sql === undefined) throw new Error(`migration ${entry.tag} is not embedded in ${listedIn}`);
    return {
      sql: sql.split("--> statement-breakpoint"),
      bps: entry.breakpoints,
      folderMillis: entry.when,
      hash: createHash("sha256").update(sql).digest("hex"),
    };
  });
}
