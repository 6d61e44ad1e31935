// Accepting a signed push: the signature is consumed, an open-registration
// token is created, and the record is written, all in one transaction, so that
// a rejected request (replay, not the owner, a failed write) stores nothing.

import { eq, lt } from "drizzle-orm";
import type { Db, Tx } from "./database.ts";
import { ReplayError } from "./errors.ts";
import { tokens, usedSignatures } from "./schema.ts";

export interface PushCredentials {
  /** Null for an unknown token that open registration lets in. */
  tokenId: number | null;
  tokenHash: string;
  signatureKey: string;
  replayExpiresAt: number;
}

export function acceptPush<T>(
  db: Db,
  credentials: PushCredentials,
  now: number,
  write: (tx: Tx, tokenId: number) => T,
): T {
  return db.transaction((tx) => {
    tx.delete(usedSignatures).where(lt(usedSignatures.expiresAt, now)).run();
    const consumed = tx
      .insert(usedSignatures)
      .values({ signature: credentials.signatureKey, expiresAt: credentials.replayExpiresAt })
      .onConflictDoNothing()
      .returning({ signature: usedSignatures.signature })
      .all();
    if (consumed.length === 0) throw new ReplayError();

    const tokenId = credentials.tokenId ?? registerToken(tx, credentials.tokenHash, now);
    tx.update(tokens).set({ lastUsedAt: now }).where(eq(tokens.id, tokenId)).run();
    return write(tx, tokenId);
  });
}

function registerToken(tx: Tx, hash: string, now: number): number {
  const row = tx
    .insert(tokens)
    .values({ hash, scope: "all", label: "self-registered", origin: "registration", createdAt: now })
    .returning({ id: tokens.id })
    .get();
  return row.id;
}

export function isSignatureUsed(db: Db, signatureKey: string, now: number): boolean {
  const row = db
    .select({ expiresAt: usedSignatures.expiresAt })
    .from(usedSignatures)
    .where(eq(usedSignatures.signature, signatureKey))
    .get();
  return row !== undefined && row.expiresAt >= now;
}
