// The replay memory's part in a signed request other than a push (a webhook
// subscription, a network), inside the request's own transaction: its key is
// remembered with its write, so a refused request leaves no key behind.

import { eq, sql } from "drizzle-orm";
import { isDuplicate, type ReplayStatus } from "../../auth/replay.ts";
import { first, rows, type RememberRequest, type Steps } from "../query-steps.ts";
import { REPLAY_MEMORY_ROW } from "../replay-memory.ts";
import { ReplayError } from "../write-refusals.ts";

/** Remembers the request's key: "duplicate" when an exact resend of one accepted, ReplayError when its signature was used for another. */
export const pgRememberRequest: RememberRequest = function* ({ db, tables: { replayMemory, usedSignatures } }, replay, now): Steps<ReplayStatus> {
  // The largest window any instance recorded keeps the key (../replay-memory.ts keyExpiry); an expired key is taken over.
  const window = sql`coalesce((SELECT ${replayMemory.clockSkewMs} FROM ${replayMemory} WHERE ${replayMemory.id} = ${REPLAY_MEMORY_ROW}), 0)`;
  const expiresAt = sql`greatest(${replay.expiresAt}::int8, ${replay.timestampMs}::int8 + ${window})`;
  const remembered = yield* rows(
    db
      .insert(usedSignatures)
      .values({ signature: replay.key, expiresAt: sql`${expiresAt}` as unknown as number, fingerprint: replay.fingerprint })
      .onConflictDoUpdate({
        target: usedSignatures.signature,
        set: { expiresAt: sql`excluded.expires_at`, fingerprint: replay.fingerprint },
        setWhere: sql`${usedSignatures.expiresAt} < ${now}::int8`,
      })
      .returning({ key: usedSignatures.signature }),
  );
  if (remembered.length > 0) return "new";
  const held = yield* first(db.select({ fingerprint: usedSignatures.fingerprint }).from(usedSignatures).where(eq(usedSignatures.signature, replay.key)));
  if (isDuplicate(replay, held?.fingerprint ?? null)) return "duplicate";
  throw new ReplayError();
};
