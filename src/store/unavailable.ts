// Database faults that no request can fix but time or the operator can: the
// file is locked by another process, the disk is full, the file cannot be
// written, or (PostgreSQL, postgres/pg-faults.ts) the server cannot be reached
// or does not answer in time. SQLite's are classified here, in one place, so that HTTP answers them with 503 and
// Retry-After (not 500) and /healthz can report them.

import { SQLiteError } from "bun:sqlite";

export type StoreFailureKind = "busy" | "full" | "unwritable" | "unreachable" | "timeout";

/** Primary SQLite result codes (the low byte of an extended code) that mean "unavailable". */
const KIND_BY_PRIMARY_CODE: ReadonlyMap<number, StoreFailureKind> = new Map([
  [5, "busy"], // SQLITE_BUSY: another connection holds the lock longer than busy_timeout
  [6, "busy"], // SQLITE_LOCKED
  [13, "full"], // SQLITE_FULL: disk full, or max_page_count reached
  [8, "unwritable"], // SQLITE_READONLY: read-only file or folder, or the file was moved
  [14, "unwritable"], // SQLITE_CANTOPEN: the -wal/-shm files cannot be created
  [10, "unwritable"], // SQLITE_IOERR: the disk refused a read or write
]);

const DESCRIPTION: Record<StoreFailureKind, string> = {
  busy: "the database is locked by another process",
  full: "the database or its disk is full",
  unwritable: "the database cannot be written: read-only file or folder, or a disk error",
  unreachable: "the database server cannot be reached",
  timeout: "the database server did not answer in time",
};

/**
 * How long a client should wait: a lock is usually gone in a moment, a full
 * disk needs the operator, a database server restarts in seconds.
 */
const RETRY_AFTER_SECONDS: Record<StoreFailureKind, number> = { busy: 1, full: 60, unwritable: 60, unreachable: 5, timeout: 2 };

export class StoreUnavailableError extends Error {
  readonly retryAfterSeconds: number;

  constructor(
    readonly kind: StoreFailureKind,
    /** The database's own words, e.g. "SQLITE_FULL: database or disk is full". */
    readonly detail: string,
  ) {
    super(`${DESCRIPTION[kind]} (${detail})`);
    this.name = "StoreUnavailableError";
    this.retryAfterSeconds = RETRY_AFTER_SECONDS[kind];
  }

  get description(): string {
    return DESCRIPTION[this.kind];
  }
}

/** The error as a StoreUnavailableError when it is one of those faults, else undefined. */
export function storeUnavailable(error: unknown): StoreUnavailableError | undefined {
  if (error instanceof StoreUnavailableError) return error;
  const sqlite = error instanceof SQLiteError ? error : (error as { cause?: unknown } | null)?.cause;
  if (!(sqlite instanceof SQLiteError)) return undefined;
  const kind = KIND_BY_PRIMARY_CODE.get(sqlite.errno & 0xff);
  return kind && new StoreUnavailableError(kind, `${sqlite.code ?? `SQLite error ${sqlite.errno}`}: ${sqlite.message}`);
}
