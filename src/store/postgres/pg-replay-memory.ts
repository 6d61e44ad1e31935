// The replay memory's clock window (see ../replay-memory.ts), in PostgreSQL:
// instances starting together each adopt their window under one advisory
// lock, so that each reads the coverage the one before it recorded.

import { eq, isNull, max, sql } from "drizzle-orm";
import { nextCoverage, REPLAY_MEMORY_ROW } from "../replay-memory.ts";
import type { PgDb } from "./open-postgres.ts";
import { pgReplayMemory, pgUsedSignatures } from "./postgres-schema.ts";

/** The key of the advisory lock held while a window is adopted ("pnnm" in ASCII; see MIGRATION_LOCK). */
const REPLAY_MEMORY_LOCK = 0x706e6e6d;

/** Records `clockSkewMs` as the window in force from `now` and returns the earliest push timestamp the replay memory can vouch for. */
export function pgAdoptClockSkew(db: PgDb, clockSkewMs: number, now: number): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${REPLAY_MEMORY_LOCK})`);
    const [previous] = await tx.select().from(pgReplayMemory).where(eq(pgReplayMemory.id, REPLAY_MEMORY_ROW));
    const earlierKeys = isNull(pgUsedSignatures.fingerprint);
    const [newest] = await tx.select({ at: max(pgUsedSignatures.expiresAt) }).from(pgUsedSignatures).where(earlierKeys);
    const newestExpiry = newest?.at ?? null;
    const { coveredSince, extendBy } = nextCoverage(previous, newestExpiry, clockSkewMs, now);
    if (newestExpiry !== null) await tx.delete(pgUsedSignatures).where(earlierKeys);
    if (extendBy > 0) await tx.update(pgUsedSignatures).set({ expiresAt: sql`${pgUsedSignatures.expiresAt} + ${extendBy}` });
    // The largest window any instance has started with (../replay-memory.ts).
    const window = Math.max(previous?.clockSkewMs ?? 0, clockSkewMs);
    await tx
      .insert(pgReplayMemory)
      .values({ id: REPLAY_MEMORY_ROW, clockSkewMs: window, coveredSince })
      .onConflictDoUpdate({ target: pgReplayMemory.id, set: { clockSkewMs: window, coveredSince } });
    return coveredSince;
  });
}
