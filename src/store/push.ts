// Accepting a signed push: the request is remembered for the replay guard, an
// open-registration token is created, and the record is written, all in one
// transaction, so that a rejected request (replay, not the owner, over a
// limit, a failed write) stores nothing. The replay key's primary key decides:
// of two identical pushes that both got past the guard's look-up, the one
// whose insert finds the key taken is the duplicate and writes nothing.

import { eq, lt } from "drizzle-orm";
import { isDuplicate, type ReplayRecord, type ReplayStatus } from "../auth/replay.ts";
import type { Db, Tx } from "./database.ts";
import { ReplayError } from "./write-refusals.ts";
import { tokens, usedSignatures } from "./schema.ts";

export interface PushCredentials {
  /** Null for an unknown token that open registration lets in. */
  tokenId: number | null;
  tokenHash: string;
}

/** Remembers the push and runs `write`; "duplicate" (nothing written) when this exact push is already remembered. */
export function acceptPush(
  db: Db,
  credentials: PushCredentials,
  replay: ReplayRecord,
  now: number,
  write: (tx: Tx, tokenId: number) => void,
): ReplayStatus {
  return db.transaction((tx) => {
    tx.delete(usedSignatures).where(lt(usedSignatures.expiresAt, now)).run();
    const consumed = tx
      .insert(usedSignatures)
      .values({ signature: replay.key, fingerprint: replay.fingerprint, expiresAt: replay.expiresAt })
      .onConflictDoNothing()
      .returning({ signature: usedSignatures.signature })
      .all();
    if (consumed.length === 0) {
      if (isDuplicate(replay, rememberedFingerprint(tx, replay.key, now) ?? null)) return "duplicate";
      throw new ReplayError();
    }

    const tokenId = credentials.tokenId ?? registerToken(tx, credentials.tokenHash, now);
    tx.update(tokens).set({ lastUsedAt: now }).where(eq(tokens.id, tokenId)).run();
    write(tx, tokenId);
    return "new";
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

/**
 * The fingerprint remembered under a replay key whose request's timestamp is
 * still inside the window (null for a row kept from before fingerprints);
 * undefined when the key is not remembered.
 */
export function rememberedFingerprint(db: Db | Tx, key: string, now: number): string | null | undefined {
  const row = db
    .select({ fingerprint: usedSignatures.fingerprint, expiresAt: usedSignatures.expiresAt })
    .from(usedSignatures)
    .where(eq(usedSignatures.signature, key))
    .get();
  return row !== undefined && row.expiresAt >= now ? row.fingerprint : undefined;
}
