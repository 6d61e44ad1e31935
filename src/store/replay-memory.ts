// What the replay memory reaches when the clock window changes. Rows of
// used_signatures are kept until their timestamp leaves the window in force
// when they were written, then swept. Raising PENNANT_CLOCK_SKEW across a
// restart would re-open every push swept under the smaller window whose
// timestamp the larger one accepts again: an exact resend of it would pass.
// So a raise extends the rows still held to the new window, and pushes older
// than what the old window had kept are refused until the new window has
// moved past them. Lowering the window only keeps rows a little longer.
//
// Instances sharing one database may run with different windows (a rolling
// change of PENNANT_CLOCK_SKEW, a mistake): a push accepted by one with a
// small window would be swept early, and one with a larger window would then
// accept a resend of it. So the recorded window only grows (the largest any
// instance has started with), and every key is kept for it (keyExpiry), by
// whichever instance wrote it.
//
// The same holds across the upgrade that changed the replay key (from route,
// subject and scheme to token; src/auth/replay.ts): rows kept under the
// earlier key, which have no fingerprint, cannot be found by the new one. They
// are dropped, and pushes timestamped up to the newest of them are refused
// until the window has moved past it.

import { eq, isNull, max, sql } from "drizzle-orm";
import type { ReplayRecord } from "../auth/replay.ts";
import { first, runIfAny, run, type QueryContext, type Steps } from "./query-steps.ts";

/** The replay memory's one row. */
export const REPLAY_MEMORY_ROW = 1;

/** The window the replay memory's rows were kept for, and the earliest push timestamp it vouches for. */
export interface ReplayCoverage {
  clockSkewMs: number;
  coveredSince: number;
}

/** When a push's replay key may be swept: its own window's end, or the recorded (largest) window's if later. */
export function keyExpiry(replay: Pick<ReplayRecord, "timestampMs" | "expiresAt">, recordedWindowMs: number): number {
  return Math.max(replay.expiresAt, replay.timestampMs + recordedWindowMs);
}

/**
 * What the replay memory vouches for once `clockSkewMs` is in force from
 * `now`: `previous` is the recorded coverage (undefined in a database from
 * before this record, taken to have used the same window), and
 * `newestEarlierExpiry` the latest expiry among rows kept under the earlier
 * key (null when there are none; the caller drops them). A raise means the
 * caller extends every row held by `extendBy`.
 */
export function nextCoverage(
  previous: ReplayCoverage | undefined,
  newestEarlierExpiry: number | null | undefined,
  clockSkewMs: number,
  now: number,
): { coveredSince: number; extendBy: number } {
  const { clockSkewMs: previousSkew, coveredSince: previousCover } = previous ?? { clockSkewMs, coveredSince: 0 };
  let coveredSince = previousCover;
  // A row's timestamp is its expiry less the window it was kept for.
  if (newestEarlierExpiry != null) coveredSince = Math.max(coveredSince, newestEarlierExpiry - previousSkew + 1);
  const extendBy = Math.max(0, clockSkewMs - previousSkew);
  // Rows swept before now had timestamps before now - previous window.
  if (extendBy > 0) coveredSince = Math.max(coveredSince, now - previousSkew);
  return { coveredSince, extendBy };
}

/** The key of the advisory lock held while a window is adopted ("pnnm" in ASCII; see MIGRATION_LOCK): instances starting together each read the coverage the one before recorded. */
const REPLAY_MEMORY_LOCK = 0x706e6e6d;

/**
 * Records `clockSkewMs` as the window in force from `now` and returns the
 * earliest push timestamp the replay memory can vouch for (0: all of them).
 * Runs in one transaction.
 */
export function* adoptClockSkew({ db, tables: { replayMemory, usedSignatures }, dialect }: QueryContext, clockSkewMs: number, now: number): Steps<number> {
  yield* runIfAny(dialect.advisoryLock(REPLAY_MEMORY_LOCK));
  const previous = yield* first(db.select().from(replayMemory).where(eq(replayMemory.id, REPLAY_MEMORY_ROW)));
  const earlierKeys = isNull(usedSignatures.fingerprint);
  const newestExpiry = (yield* first(db.select({ at: max(usedSignatures.expiresAt) }).from(usedSignatures).where(earlierKeys)))?.at ?? null;
  const { coveredSince, extendBy } = nextCoverage(previous, newestExpiry, clockSkewMs, now);
  if (newestExpiry !== null) yield* run(db.delete(usedSignatures).where(earlierKeys));
  if (extendBy > 0) yield* run(db.update(usedSignatures).set({ expiresAt: sql`${usedSignatures.expiresAt} + ${extendBy}` }));
  // The largest window any instance has started with (see the top of this file).
  const window = Math.max(previous?.clockSkewMs ?? 0, clockSkewMs);
  yield* run(
    db
      .insert(replayMemory)
      .values({ id: REPLAY_MEMORY_ROW, clockSkewMs: window, coveredSince })
      .onConflictDoUpdate({ target: replayMemory.id, set: { clockSkewMs: window, coveredSince } }),
  );
  return coveredSince;
}
