// PostgreSQL's tables: the store's tables (../store-tables.ts) built with
// PostgreSQL's columns. drizzle-kit generates the SQL in migrations-pg/ from
// this file (`npm run db:generate:pg`), reading the tables it exports by name.
//
// Times are milliseconds since the epoch: bigint, read back as numbers (Bun's
// client returns int8 as a string otherwise). SQLite's real is 8 bytes, so
// decimals are double precision, not PostgreSQL's 4-byte real. Row ids are
// identities "by default", so that a copy from SQLite can keep its ids.

import { sql, type SQL } from "drizzle-orm";
import { bigint, boolean, customType, doublePrecision, index, integer, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { storeTables, type ColumnKit } from "../store-tables.ts";

/**
 * A jsonb column that holds the value itself. drizzle's own jsonb() hands the
 * driver JSON text, which Bun's client sends as a string: PostgreSQL then
 * keeps a JSON string (jsonb_typeof says 'string', `->>` finds nothing;
 * drizzle issue 5287). Bun's client encodes an object or an array as jsonb.
 */
function jsonb(name: string) {
  return customType<{ data: unknown; driverData: unknown }>({ dataType: () => "jsonb", toDriver: (value) => value })(name);
}

/** An int8 read back as a number: ids, and times in milliseconds. */
function int8(name: string) {
  return bigint(name, { mode: "number" });
}

const PG_COLUMNS = {
  table: pgTable,
  index,
  uniqueIndex,
  primaryKey,
  text,
  int: integer,
  int8,
  rowId: (name: string) => int8(name).primaryKey().generatedByDefaultAsIdentity(),
  double: doublePrecision,
  bool: boolean,
  json: jsonb,
  jsonOr: (name: string, empty: "{}" | "[]") => jsonb(name).notNull().default(sql.raw(`'${empty}'::jsonb`)),
  // PostgreSQL (before 18) stores a generated column.
  computedInt8: (name: string, expression: SQL) => int8(name).generatedAlwaysAs(expression),
} satisfies Record<keyof ColumnKit, unknown>;

/** PostgreSQL's tables, typed as SQLite's (see ../store-tables.ts). */
export const PG_TABLES = storeTables(PG_COLUMNS as unknown as ColumnKit);

export const {
  tokens: pgTokens, servers: pgServers, serverSamples: pgServerSamples, serverHistory: pgServerHistory, historyMarks: pgHistoryMarks,
  plugins: pgPlugins, replayMemory: pgReplayMemory, usedSignatures: pgUsedSignatures, webhooks: pgWebhooks, webhookStates: pgWebhookStates,
  webhookDeliveries: pgWebhookDeliveries, networks: pgNetworks, networkMembers: pgNetworkMembers, pushRefusals: pgPushRefusals,
} = PG_TABLES;
