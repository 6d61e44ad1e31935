// Queries on API tokens.

import { and, count, eq, inArray, isNull } from "drizzle-orm";
import type { Db, Tx } from "./database.ts";
import { idleRegistration, type TokenRow } from "./records.ts";
import { sqlitePlugins, sqliteServers, sqliteTokens } from "./schema.ts";
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

/** Tokens open registration has made and not yet expired, revoked ones included (a revoked token is never expired: it may not be claimed again). */
export function countRegisteredTokens(db: Db | Tx): number {
  return db.select({ n: count() }).from(sqliteTokens).where(eq(sqliteTokens.origin, "registration")).get()?.n ?? 0;
}

/**
 * Deletes the tokens open registration made that have not pushed for
 * REGISTRATION_IDLE_MS, with every record they own (and those servers'
 * history); their slots under PENNANT_REGISTRATION_MAX come free and the same
 * token may register again. Tokens of `token create` and revoked ones stay.
 * Returns how many tokens were deleted. The tokens table is small (bounded by
 * PENNANT_REGISTRATION_MAX plus the operator's), so the scan is cheap.
 */
export function sqliteExpireIdleRegistrations(db: Db | Tx, now: number): number {
  const idle = db
    .select({ id: sqliteTokens.id })
    .from(sqliteTokens)
    .where(idleRegistration(sqliteTokens, now))
    .all()
    .map((row) => row.id);
  if (idle.length === 0) return 0;
  db.delete(sqlitePlugins).where(inArray(sqlitePlugins.tokenId, idle)).run();
  db.delete(sqliteServers).where(inArray(sqliteServers.tokenId, idle)).run();
  db.delete(sqliteTokens).where(inArray(sqliteTokens.id, idle)).run();
  return idle.length;
}
