// Queries on API tokens, in PostgreSQL. Open registration's count and its
// sweep of idle tokens run under one transaction-level advisory lock (in the
// functions of migrations-pg/0001_push_function.sql), so two instances
// registering at once cannot both take the last slot.

import { and, eq, isNull } from "drizzle-orm";
import { REGISTRATION_IDLE_MS, type TokenRow } from "../records.ts";
import type { NewToken } from "../store.ts";
import type { PgDb } from "./open-postgres.ts";
import { tokens } from "./postgres-schema.ts";

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
export async function findTokenByHash(db: PgDb, hash: string): Promise<TokenRow | undefined> {
  const [row] = await db.select().from(tokens).where(eq(tokens.hash, hash));
  return row;
}

/**
 * Deletes the tokens open registration made that have not pushed for
 * REGISTRATION_IDLE_MS, with their records, as tokens.ts does for SQLite; returns
 * how many. pennant_expire_idle_registrations (migrations-pg/0001_push_function.sql)
 * does it under the registration lock, the one a push registering a token holds.
 */
export async function expireIdleRegistrations(db: PgDb, now: number): Promise<number> {
  const [row] = await db.$client`SELECT pennant_expire_idle_registrations(${now - REGISTRATION_IDLE_MS}::int8) AS n`;
  return (row as { n: number }).n;
}
