// The replay memory's part in a signed request other than a push (a webhook
// subscription, a network), in SQLite, inside the request's own transaction:
// its key is remembered with its write, so a refused request leaves no key behind.

import { isDuplicate, type ReplayRecord, type ReplayStatus } from "../auth/replay.ts";
import type { PushStatements } from "./sqlite-push.ts";
import { keyExpiry } from "./replay-memory.ts";
import { ReplayError } from "./write-refusals.ts";

/** Remembers the request's key: "duplicate" when an exact resend of one accepted, ReplayError when its signature was used for another. */
export function sqliteRememberRequest(statements: PushStatements, replay: ReplayRecord, now: number): ReplayStatus {
  statements.sweepKeys(now);
  if (statements.rememberKey(replay.key, keyExpiry(replay, statements.recordedWindow()), replay.fingerprint)) return "new";
  if (isDuplicate(replay, statements.rememberedKey(replay.key)?.fingerprint ?? null)) return "duplicate";
  throw new ReplayError();
}
