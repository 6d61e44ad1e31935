// A consistent copy of the database while the server runs. SQLite's
// VACUUM INTO reads one snapshot (WAL readers do not block the writer, nor it
// them) and writes a compact, self-contained file: no -wal beside it, nothing
// half-written from a push in progress. A plain file copy of a WAL database
// misses what is still in the -wal file and may catch a page mid-checkpoint.

import { existsSync, mkdirSync, statSync } from "node:fs";
import { dirname } from "node:path";
import type { Db } from "./database.ts";

/** The copy could not be made; the message names the file and why. */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BackupError";
  }
}

/** Writes a copy of `db` to `target` (a new file; its folder is created) and returns its size in bytes. */
export function backupDatabase(db: Db, target: string): number {
  // Never overwrite: a mistyped name must not replace the last good backup.
  if (existsSync(target)) throw new BackupError(`${target} already exists; give the backup a new name`);
  try {
    mkdirSync(dirname(target), { recursive: true });
    db.$client.run("VACUUM INTO ?", [target]);
  } catch (error) {
    throw new BackupError(`cannot write ${target}: ${(error as Error).message}`);
  }
  return statSync(target).size;
}
