// Tokens made on an SQLite file at once, for the tests and benches that seed
// one (the store's own: record-queries.ts).

import type { Db } from "./database.ts";
import type { TokenRow } from "./records.ts";
import { createToken } from "./record-queries.ts";
import { runSqlite } from "./sqlite-queries.ts";
import type { NewToken } from "./store.ts";

export function sqliteCreateToken(db: Db, input: NewToken): TokenRow {
  return runSqlite(db, (q) => createToken(q, input));
}
