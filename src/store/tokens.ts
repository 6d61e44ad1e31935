// Queries on API tokens.

import { and, count, eq, inArray, isNull } from "drizzle-orm";
import type { Db, Tx } from "./database.ts";
import { idleRegistration, type TokenRow } from "./records.ts";
import { plugins, servers, tokens } from "./schema.ts";
import type { NewToken } from "./store.ts";

export function createToken(db: Db, input: NewToken): TokenRow {
  return db
    .insert(tokens)
    .values({ hash: input.hash, scope: input.scope, label: input.label, origin: "cli", createdAt: input.now })
    .returning()
    .get();
}

export function listTokens(db: Db): TokenRow[] {
  return db.select().from(tokens).orderBy(tokens.id).all();
}

/** Revokes a token; false when there is no such active token. */
export function revokeToken(db: Db, id: number, now: number): boolean {
  const revoked = db
    .update(tokens)
    .set({ revokedAt: now })
    .where(and(eq(tokens.id, id), isNull(tokens.revokedAt)))
    .returning({ id: tokens.id })
    .all();
  return revoked.length > 0;
}

/** Tokens open registration has made and not yet expired, revoked ones included (a revoked token is never expired: it may not be claimed again). */
export function countRegisteredTokens(db: Db | Tx): number {
  return db.select({ n: count() }).from(tokens).where(eq(tokens.origin, "registration")).get()?.n ?? 0;
}

/**
 * Deletes the tokens open registration made that have not pushed for
 * REGISTRATION_IDLE_MS, with every record they own (and those servers'
 * history); their slots under PENNANT_REGISTRATION_MAX come free and the same
 * token may register again. Tokens of `token create` and revoked ones stay.
 * Returns how many tokens were deleted. The tokens table is small (bounded by
 * PENNANT_REGISTRATION_MAX plus the operator's), so the scan is cheap.
 */
export function expireIdleRegistrations(db: Db | Tx, now: number): number {
  const idle = db
    .select({ id: tokens.id })
    .from(tokens)
    .where(idleRegistration(tokens, now))
    .all()
    .map((row) => row.id);
  if (idle.length === 0) return 0;
  db.delete(plugins).where(inArray(plugins.tokenId, idle)).run();
  db.delete(servers).where(inArray(servers.tokenId, idle)).run();
  db.delete(tokens).where(inArray(tokens.id, idle)).run();
  return idle.length;
}
