// Queries on API tokens, in PostgreSQL. Open registration's count and its
// sweep of idle tokens run under one transaction-level advisory lock, so two
// instances registering at once cannot both take the last slot.

import { and, count, eq, inArray, isNull, sql } from "drizzle-orm";
import { idleRegistration, type TokenRow } from "../records.ts";
import type { NewToken } from "../store.ts";
import type { PgDb, PgTx } from "./open-postgres.ts";
import { plugins, servers, tokens } from "./postgres-schema.ts";

/**
 * The key of the advisory lock held by a transaction that counts or sweeps
 * open registration's tokens ("pnnr" in ASCII; see MIGRATION_LOCK).
 */
export const REGISTRATION_LOCK = 0x706e6e72;

export async function createToken(db: PgDb, input: NewToken): Promise<TokenRow> {
  const [row] = await db
    .insert(tokens)
    .values({ hash: input.hash, scope: input.scope, label: input.label, origin: "cli", createdAt: input.now })
    .returning();
  return row!;
}

export function listTokens(db: PgDb): Promise<TokenRow[]> {
  return db.select().from(tokens).orderBy(tokens.id);
}

/** Revokes a token; false when there is no such active token. */
export async function revokeToken(db: PgDb, id: number, now: number): Promise<boolean> {
  const revoked = await db
    .update(tokens)
    .set({ revokedAt: now })
    .where(and(eq(tokens.id, id), isNull(tokens.revokedAt)))
    .returning({ id: tokens.id });
  return revoked.length > 0;
}

/** The token with this hash, revoked or not (a revoked token may not be claimed again). */
export async function findTokenByHash(db: PgDb | PgTx, hash: string): Promise<TokenRow | undefined> {
  const [row] = await db.select().from(tokens).where(eq(tokens.hash, hash));
  return row;
}

/** Holds REGISTRATION_LOCK until the transaction ends (taking it again in the same transaction is free). */
export async function lockRegistrations(tx: PgTx): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${REGISTRATION_LOCK})`);
}

/** Tokens open registration has made and not yet expired, revoked ones included; under REGISTRATION_LOCK. */
export async function countRegisteredTokens(tx: PgTx): Promise<number> {
  const [row] = await tx.select({ n: count() }).from(tokens).where(eq(tokens.origin, "registration"));
  return row?.n ?? 0;
}

/**
 * Deletes the tokens open registration made that have not pushed for
 * REGISTRATION_IDLE_MS, with their records, as tokens.ts does for SQLite.
 * The idle tokens are locked first (FOR UPDATE reads a row again once a
 * push that held it commits), so a token that pushed meanwhile is kept.
 */
export async function expireIdleRegistrations(tx: PgTx, now: number): Promise<number> {
  await lockRegistrations(tx);
  const idle = (
    await tx
      .select({ id: tokens.id })
      .from(tokens)
      .where(idleRegistration(tokens, now))
      .for("update")
  ).map((row) => row.id);
  if (idle.length === 0) return 0;
  await tx.delete(plugins).where(inArray(plugins.tokenId, idle));
  await tx.delete(servers).where(inArray(servers.tokenId, idle));
  await tx.delete(tokens).where(inArray(tokens.id, idle));
  return idle.length;
}
