// PostgreSQL's faults that no request can fix but time or the operator can,
// as StoreUnavailableError (HTTP answers 503 with Retry-After): the server
// cannot be reached or went away, or it did not answer in time. Anything else
// (a refusal of ours, a bug) passes through as it was thrown.
//
// Bun's client has no per-query timeout, and a connection whose peer vanished
// without a word waits for ever: every call races a timer (withDeadline).

import { SQL } from "bun";
import { StoreUnavailableError, type StoreFailureKind } from "../unavailable.ts";

/** SQLSTATEs (or their two-character class) that say the database cannot serve now. */
const KIND_BY_SQLSTATE: ReadonlyMap<string, StoreFailureKind> = new Map([
  ["08", "unreachable"], // connection exception
  ["57P01", "unreachable"], // admin_shutdown: the server is stopping
  ["57P02", "unreachable"], // crash_shutdown
  ["57P03", "unreachable"], // cannot_connect_now: starting up or recovering
  ["53300", "unreachable"], // too_many_connections
  ["57014", "timeout"], // query_canceled: statement_timeout ran out
  ["55P03", "timeout"], // lock_not_available
  ["40P01", "timeout"], // deadlock_detected: one of the transactions was cancelled
  ["40001", "timeout"], // serialization_failure
  ["53100", "full"], // disk_full
  ["53200", "full"], // out_of_memory
  ["25006", "unwritable"], // read_only_sql_transaction: a standby, or default_transaction_read_only
]);

/** The kind of a fault Bun's client raises itself (no SQLSTATE): a connection refused, closed or timed out. */
function clientFaultKind(code: string): StoreFailureKind | undefined {
  if (code.startsWith("ERR_POSTGRES_CONNECTION") || code === "ERR_POSTGRES_IDLE_TIMEOUT" || code === "ERR_POSTGRES_LIFETIME_TIMEOUT") {
    return "unreachable";
  }
  if (code === "ERR_POSTGRES_QUERY_CANCELLED") return "timeout";
  return undefined;
}

/** The error as a StoreUnavailableError when it is one of those faults, else undefined. */
export function pgUnavailable(error: unknown): StoreUnavailableError | undefined {
  if (error instanceof StoreUnavailableError) return error;
  // drizzle wraps a failed statement in an error that repeats the query; the client's error is its cause.
  const pg = error instanceof SQL.PostgresError ? error : (error as { cause?: unknown } | null)?.cause;
  if (!(pg instanceof SQL.PostgresError)) return undefined;
  const kind = pg.errno ? (KIND_BY_SQLSTATE.get(pg.errno) ?? KIND_BY_SQLSTATE.get(pg.errno.slice(0, 2))) : clientFaultKind(pg.code);
  return kind && new StoreUnavailableError(kind, `${pg.errno ? `SQLSTATE ${pg.errno}` : pg.code}: ${pg.message}`);
}

/**
 * Settles like `work`, or rejects with a "timeout" StoreUnavailableError once
 * `ms` have passed. The work itself goes on (a statement reaching the server
 * is bounded there by statement_timeout); a push it commits after all is what
 * the client's retry then finds as an exact duplicate, accepted as done.
 */
export async function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: Timer | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StoreUnavailableError("timeout", `no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
