// Accepting a signed push: the request is remembered for the replay guard, an
// open-registration token is created, and the record is written, all in one
// transaction, so that a rejected request (replay, not the owner, over a
// limit, a failed write) stores nothing.

import { eq, lt } from "drizzle-orm";
import type { ReplayRecord } from "../auth/replay.ts";
import type { Db, Tx } from "./database.ts";
import { ReplayError } from "./errors.ts";
import { tokens, usedSignatures } from "./schema.ts";

export interface PushCredentials {
  /** Null for an unknown token that open registration lets in. */
  tokenId: number | null;
  tokenHash: string;
}

export function acceptPush<T>(
  db: Db,
  credentials: PushCredentials,
  replay: ReplayRecord,
  now: number,
  write: (tx: Tx, tokenId: number) => T,
): T {
  return db.transaction((tx) => {
    tx.delete(usedSignatures).where(lt(usedSignatures.expiresAt, now)).run();
    const consumed = tx
      .insert(usedSignatures)
      .values({ signature: replay.key, expiresAt: replay.expiresAt })
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

/** Whether a replay key is remembered and its request's timestamp still inside the window. */
export function isReplayKeyUsed(db: Db, key: string, now: number): boolean {
  const row = db
    .select({ expiresAt: usedSignatures.expiresAt })
    .from(usedSignatures)
    .where(eq(usedSignatures.signature, key))
    .get();
  return row !== undefined && row.expiresAt >= now;
}
