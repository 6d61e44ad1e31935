// Queries on API tokens.

import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "./database.ts";
import type { TokenRow } from "./records.ts";
import { sqliteTokens } from "./schema.ts";
import type { NewToken } from "./store.ts";

export function sqliteCreateToken(db: Db, input: NewToken): TokenRow {
  return db
    .insert(sqliteTokens)
    .values({ hash: input.hash, scope: input.scope, label: input.label, origin: "cli", createdAt: input.now })
    .returning()
    .get();
}

export function sqliteListTokens(db: Db): TokenRow[] {
  return db.select().from(sqliteTokens).orderBy(sqliteTokens.id).all();
}

/** Revokes a token; false when there is no such active token. */
export function sqliteRevokeToken(db: Db, id: number, now: number): boolean {
  const revoked = db
    .update(sqliteTokens)
    .set({ revokedAt: now })
    .where(and(eq(sqliteTokens.id, id), isNull(sqliteTokens.revokedAt)))
    .returning({ id: sqliteTokens.id })
    .all();
  return revoked.length > 0;
}
