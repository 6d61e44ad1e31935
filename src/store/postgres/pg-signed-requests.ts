// The replay memory's part in a signed request other than a push (a webhook
// subscription, a network), inside the request's own transaction: its key is
// remembered with its write, so a refused request leaves no key behind.

import { eq, sql } from "drizzle-orm";
import { isDuplicate, type ReplayRecord, type ReplayStatus } from "../../auth/replay.ts";
import { REPLAY_MEMORY_ROW } from "../replay-memory.ts";
import { ReplayError } from "../write-refusals.ts";
import type { PgDb } from "./open-postgres.ts";
import { pgReplayMemory, pgUsedSignatures } from "./postgres-schema.ts";

export type PgTx = Parameters<Parameters<PgDb["transaction"]>[0]>[0];

/** Remembers the request's key: "duplicate" when an exact resend of one accepted, ReplayError when its signature was used for another. */
export async function pgRememberRequest(tx: PgTx, replay: ReplayRecord, now: number): Promise<ReplayStatus> {
  // The largest window any instance recorded keeps the key (../replay-memory.ts keyExpiry); an expired key is taken over.
  const window = sql`coalesce((SELECT ${pgReplayMemory.clockSkewMs} FROM ${pgReplayMemory} WHERE ${pgReplayMemory.id} = ${REPLAY_MEMORY_ROW}), 0)`;
  const expiresAt = sql`greatest(${replay.expiresAt}::int8, ${replay.timestampMs}::int8 + ${window})`;
  const remembered = await tx
    .insert(pgUsedSignatures)
    .values({ signature: replay.key, expiresAt: sql`${expiresAt}` as unknown as number, fingerprint: replay.fingerprint })
    .onConflictDoUpdate({
      target: pgUsedSignatures.signature,
      set: { expiresAt: sql`excluded.expires_at`, fingerprint: replay.fingerprint },
      setWhere: sql`${pgUsedSignatures.expiresAt} < ${now}::int8`,
    })
    .returning({ key: pgUsedSignatures.signature });
  if (remembered.length > 0) return "new";
  const [held] = await tx.select({ fingerprint: pgUsedSignatures.fingerprint }).from(pgUsedSignatures).where(eq(pgUsedSignatures.signature, replay.key));
  if (isDuplicate(replay, held?.fingerprint ?? null)) return "duplicate";
  throw new ReplayError();
}
