// SQLite's column kit for the store's tables (store-tables.ts): an int8 is
// SQLite's integer, a double its 8-byte real, JSON is text, a boolean 0 or 1.

import { sql, type SQL } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const SQLITE_COLUMNS = {
  table: sqliteTable,
  index,
  uniqueIndex,
  primaryKey,
  text,
  /** A whole number of 4 bytes in PostgreSQL: counts, steps, positions. */
  int: <N extends string>(name: N) => integer(name),
  /** A whole number of 8 bytes in PostgreSQL: times in milliseconds and row ids. */
  int8: <N extends string>(name: N) => integer(name),
  /** A row id the database numbers, the table's key. */
  rowId: <N extends string>(name: N) => integer(name).primaryKey({ autoIncrement: true }),
  double: <N extends string>(name: N) => real(name),
  bool: <N extends string>(name: N) => integer(name, { mode: "boolean" }),
  json: <T, N extends string = string>(name: N) => text(name, { mode: "json" }).$type<T>(),
  /** JSON that is never null, `empty` until written. */
  jsonOr: <T, N extends string = string>(name: N, empty: "{}" | "[]") =>
    text(name, { mode: "json" }).$type<T>().notNull().default(sql.raw(`'${empty}'`)),
  /** An int8 the database computes from the row's other columns (SQLite: when read, not stored). */
  computedInt8: <N extends string>(name: N, expression: SQL) => integer(name).generatedAlwaysAs(expression, { mode: "virtual" }),
};
