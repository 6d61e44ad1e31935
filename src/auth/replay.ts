// The replay guard of pushes. An accepted push is remembered under its
// canonical route, its subject (lower-case UUID), its X-Timestamp (in ms) and
// its signature until that timestamp leaves the clock window; a request with
// the same four is refused. After the window the timestamp itself is refused.
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
  /** Last moment (ms) at which the request's timestamp passes the clock window. */
  expiresAt: number;
}

export interface ReplayPolicy {
  clockSkewSeconds: number;
  /** The earliest timestamp the replay memory vouches for (store/replay-memory.ts); older pushes are refused. */
  coveredSince: number;
  isUsed(key: string): boolean;
}

/**
 * The record to remember for an accepted push; throws replayed_request when it
 * is already remembered. `target` is the canonical route and subject, e.g.
 * "POST /api/plugins/:plugin_uuid/data 0b7e3c8e-...", never the raw path, so
 * another spelling of the same request is the same request.
 */
export function guardReplay(target: string, auth: Authenticated, policy: ReplayPolicy): ReplayRecord {
  const key = createHash("sha256")
    .update(`${target}\n${auth.scheme}\n${auth.timestampMs}\n`)
    .update(auth.signature)
    .digest("hex");
  if (policy.isUsed(key)) throw new AuthError("replayed_request", "this exact request was already accepted");
  if (auth.timestampMs < policy.coveredSince) {
    throw new AuthError("stale_timestamp", "X-Timestamp is older than the replay memory reaches since the clock window was widened; send a new request");
  }
  return { key, expiresAt: auth.timestampMs + policy.clockSkewSeconds * 1000 };
}
