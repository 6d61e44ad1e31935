// The replay guard of every signed request that changes something (pushes,
// webhooks made or removed, networks named or removed), whatever its body,
// empty included. An accepted one is remembered under its token, its
// X-Timestamp (the instant, in ms) and its signature bytes until that
// timestamp leaves the clock window. The plugin's older schemes sign the
// timestamp and the body only (the legacy scheme the body alone), not the
// route or the UUID header, so the key names neither: the same three are
// never accepted again, on any route, for any server or plugin, under any
// scheme. (The request scheme signs the method and path too, so its
// signature fails on another route before this guard; signature.ts.) After
// the window the timestamp itself is refused.
//
// With the key goes a fingerprint of what the push did: its route, subject
// and body. A request whose key is remembered with the same fingerprint is an
// exact duplicate (a plugin pushing unchanged data twice in one second, a
// delivery retried): it is answered as the first was and changes nothing, not
// refused, since the data it carries is already in. A remembered key with
// another fingerprint is the signature reused elsewhere: replayed_request.
//
// The legacy scheme does not sign X-Timestamp, so keying it by the timestamp
// lets an honest plugin send the same body twice (same state, new time) while
// an exact resend is still caught. Whoever captured such a request can re-send
// its body with a fresh timestamp: only HTTPS prevents the capture.
//
// Reads change nothing and are not remembered: they check signature and clock
// window only.

import { createHash } from "node:crypto";
import { AuthError, type Authenticated } from "./authenticate.ts";

export interface ReplayRecord {
  key: string;
  /** What the push did (route, subject, body): tells an exact duplicate from a reuse elsewhere. */
  fingerprint: string;
  /** The request's X-Timestamp (ms). */
  timestampMs: number;
  /**
   * Last moment (ms) at which the request's timestamp passes this instance's
   * clock window. The store keeps the key at least that long, and as long as
   * the largest window any instance has recorded (store/replay-memory.ts):
   * an instance with a larger PENNANT_CLOCK_SKEW would accept a resend later.
   */
  expiresAt: number;
}

/** A push new to the guard, or an exact duplicate of one it remembers. */
export type ReplayStatus = "new" | "duplicate";

export interface ReplayPolicy {
  /** The earliest timestamp the replay memory vouches for (store/replay-memory.ts); older pushes are refused. */
  coveredSince: number;
  /** The fingerprint remembered under a key whose timestamp is still in the window; undefined when none is. */
  rememberedFingerprint(key: string): Promise<string | null | undefined>;
}

/**
 * The record to remember for a push. `target` is the canonical route and
 * subject, e.g. "POST /api/plugins/:plugin_uuid/data 0b7e3c8e-...", never the
 * raw path, so another spelling of the same request is the same request.
 */
export function replayRecord(target: string, body: Uint8Array, auth: Authenticated, clockSkewSeconds: number): ReplayRecord {
  const key = createHash("sha256").update(`${auth.tokenHash}\n${auth.timestampMs}\n`).update(auth.signature).digest("hex");
  const fingerprint = createHash("sha256").update(`${target}\n`).update(body).digest("hex");
  return { key, fingerprint, timestampMs: auth.timestampMs, expiresAt: auth.timestampMs + clockSkewSeconds * 1000 };
}

/** Whether a push whose key is remembered with `remembered` is an exact duplicate; a reuse elsewhere is not. */
export function isDuplicate(record: ReplayRecord, remembered: string | null): boolean {
  return remembered === record.fingerprint;
}

/** "duplicate" for an exact duplicate of a remembered push; throws replayed_request for its signature reused elsewhere. */
export async function guardReplay(record: ReplayRecord, auth: Authenticated, policy: ReplayPolicy): Promise<ReplayStatus> {
  const remembered = await policy.rememberedFingerprint(record.key);
  if (remembered !== undefined) {
    if (isDuplicate(record, remembered)) return "duplicate";
    throw new AuthError("replayed_request", "this signature was already accepted for another request");
  }
  if (auth.timestampMs < policy.coveredSince) {
    throw new AuthError("stale_timestamp", "X-Timestamp is older than the replay memory reaches since the server restarted with a wider clock window or a new replay key; send a new request");
  }
  return "new";
}
