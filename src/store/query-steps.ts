// The store's queries are written once for both backends (record-queries.ts,
// webhooks.ts, networks.ts, server-history.ts, replay-memory.ts),
// as generator functions that yield each drizzle query and get its rows back:
// SQLite runs them to their end synchronously (sqlite-queries.ts), so an
// operation stays one synchronous transaction, and PostgreSQL awaits each
// (postgres/pg-queries.ts). What the two dialects write differently (a
// row lock, an advisory lock, greatest, a bigint parameter) is the Dialect
// object's. Every query is built on `QueryContext.db` from `QueryContext.tables`,
// the backend's own drizzle database and tables (store-tables.ts): they are
// typed as SQLite's, and each builds the SQL of its own dialect.

import type { SQL, SQLWrapper } from "drizzle-orm";
import type { ReplayRecord, ReplayStatus } from "../auth/replay.ts";
import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";
import type { StoreTables } from "./store-tables.ts";

/** One query an operation wants run: its rows, its effect only, or raw SQL's rows. */
export interface QueryStep {
  query: unknown;
  mode: "rows" | "run" | "raw";
}

/** An operation (or a part of one): yields the queries it runs, returns its result. */
export type Steps<T> = Generator<QueryStep, T, unknown>;

/** The rows of a select, or of a write with `returning()`. */
export function* rows<T>(query: PromiseLike<T[]>): Steps<T[]> {
  return (yield { query, mode: "rows" }) as T[];
}

/** A write whose rows are not wanted. */
export function* run(query: PromiseLike<unknown>): Steps<void> {
  yield { query, mode: "run" };
}

/** The rows of raw SQL (`sql` of drizzle-orm). */
export function* raw(query: SQL): Steps<unknown[]> {
  return (yield { query, mode: "raw" }) as unknown[];
}

/** The first row of a query, or undefined. */
export function* first<T>(query: PromiseLike<T[]>): Steps<T | undefined> {
  return (yield* rows(query))[0];
}

/** What the two dialects write differently. */
export interface Dialect {
  /** The larger of two values, either standing in for the other when it is null (PostgreSQL's greatest). */
  greatest(a: SQLWrapper, b: SQLWrapper): SQL;
  /** A whole number compared with a bigint column (PostgreSQL: cast to int8). */
  int(value: number): SQL;
  /** Locks the rows of `table` that `where` keeps until the transaction ends; undefined where one writer at a time needs no lock (SQLite). */
  lockRows(table: SQLWrapper, where: SQL): SQL | undefined;
  /** Waits for the transaction-level advisory lock `key`; undefined where there is one writer (SQLite). */
  advisoryLock(key: number): SQL | undefined;
  /** The select taking its rows' locks until the transaction ends (FOR UPDATE, of `of` only, skipping rows locked by others with `skipLocked`); as it is where one writer needs none (SQLite). */
  forUpdate<Q>(select: Q, options?: { of: SQLWrapper; skipLocked: boolean }): Q;
}

/** What a query is written with: the backend's database (or transaction), tables and dialect. */
export interface QueryContext {
  db: BaseSQLiteDatabase<"sync", void>;
  tables: StoreTables;
  dialect: Dialect;
}

/** Runs `statement` when the dialect has one (a lock). */
export function* runIfAny(statement: SQL | undefined): Steps<void> {
  if (statement) yield* raw(statement);
}

/**
 * Remembers a signed request's key in the transaction that writes: "duplicate"
 * for an exact resend of one accepted, ReplayError when its signature was used
 * for another (each backend's: signed-requests.ts, postgres/pg-signed-requests.ts).
 */
export type RememberRequest = (q: QueryContext, replay: ReplayRecord, now: number) => Steps<ReplayStatus>;
