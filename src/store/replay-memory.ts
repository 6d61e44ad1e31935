// What the replay memory reaches when the clock window changes. Rows of
// used_signatures are kept until their timestamp leaves the window in force
// when they were written, then swept. Raising PENNANT_CLOCK_SKEW across a
// restart would re-open every push swept under the smaller window whose
// timestamp the larger one accepts again: an exact resend of it would pass.
// So a raise extends the rows still held to the new window, and pushes older
// than what the old window had kept are refused until the new window has
// moved past them. Lowering the window only keeps rows a little longer.
//
// The same holds across the upgrade that changed the replay key (from route,
// subject and scheme to token; src/auth/replay.ts): rows kept under the
// earlier key, which have no fingerprint, cannot be found by the new one. They
// are dropped, and pushes timestamped up to the newest of them are refused
// until the window has moved past it.

import { eq, isNull, max, sql } from "drizzle-orm";
import type { Db } from "./database.ts";
import { replayMemory, usedSignatures } from "./schema.ts";

const ROW = 1;

/**
 * Records `clockSkewMs` as the window in force from `now` and returns the
 * earliest push timestamp the replay memory can vouch for (0: all of them).
 * A database from before this record is taken to have used the same window.
 */
export function adoptClockSkew(db: Db, clockSkewMs: number, now: number): number {
  return db.transaction((tx) => {
    const held = tx.select().from(replayMemory).where(eq(replayMemory.id, ROW)).get();
    const previous = held ?? { clockSkewMs, coveredSince: 0 };
    let coveredSince = previous.coveredSince;
    const earlierKeys = isNull(usedSignatures.fingerprint);
    const newestExpiry = tx.select({ at: max(usedSignatures.expiresAt) }).from(usedSignatures).where(earlierKeys).get()?.at;
    if (newestExpiry != null) {
      // A row's timestamp is its expiry less the window it was kept for.
      coveredSince = Math.max(coveredSince, newestExpiry - previous.clockSkewMs + 1);
      tx.delete(usedSignatures).where(earlierKeys).run();
    }
    if (clockSkewMs > previous.clockSkewMs) {
      tx.update(usedSignatures).set({ expiresAt: sql`${usedSignatures.expiresAt} + ${clockSkewMs - previous.clockSkewMs}` }).run();
      // Rows swept before now had timestamps before now - previous window.
      coveredSince = Math.max(coveredSince, now - previous.clockSkewMs);
    }
    tx.insert(replayMemory)
      .values({ id: ROW, clockSkewMs, coveredSince })
      .onConflictDoUpdate({ target: replayMemory.id, set: { clockSkewMs, coveredSince } })
      .run();
    return coveredSince;
  });
}
