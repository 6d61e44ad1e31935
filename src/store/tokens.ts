// Queries on API tokens.

import { and, eq, isNull } from "drizzle-orm";
import type { TokenScope } from "../auth/token.ts";
import type { Db } from "./database.ts";
import { tokens } from "./schema.ts";

export type TokenRow = typeof tokens.$inferSelect;

export function createToken(
  db: Db,
  input: { hash: string; scope: TokenScope; label: string; now: number },
): TokenRow {
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

/** The token with this hash, revoked or not (a revoked token may not be claimed again). */
export function findTokenByHash(db: Db, hash: string): TokenRow | undefined {
  return db.select().from(tokens).where(eq(tokens.hash, hash)).get();
}
