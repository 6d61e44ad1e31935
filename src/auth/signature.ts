// Request signatures: hex HMAC-SHA256 keyed with the request's own token.
//
// Request scheme (X-Signature-Version: 2): HMAC(token, method + " " + target + "\n" + timestamp + "." + raw body),
//   the target being the request line's path and query as sent. A signature
//   names its method and path, so it is usable on no other route (issue 38).
// Standard scheme (no version header): HMAC(token, timestamp + "." + raw body).
// Legacy scheme (deployed plugin builds, /api/server/update only): HMAC(token, raw body).
// The last two name no route: an empty body's signature is the same on every
// route, so they are accepted only where the route cannot be mistaken for
// another one that changes something (the plugin's reads and pushes, whose
// bodies must be JSON), and replay.ts remembers every push. The legacy scheme
// does not cover the timestamp either, so a captured request can be sent
// again later with a fresh X-Timestamp; replay.ts says what is refused.
//
// The three messages cannot be mistaken for one another: the request scheme's
// starts with a method's capital letters, the standard's with the
// timestamp's digits, and a legacy body is JSON ("{").

import { createHmac, timingSafeEqual } from "node:crypto";

export type SignatureScheme = "request" | "standard" | "legacy";

/** The header that names the request scheme; without it a request is read under the older ones. */
export const SIGNATURE_VERSION_HEADER = "X-Signature-Version";

/** The one value of X-Signature-Version: the request scheme. */
export const REQUEST_SCHEME_VERSION = "2";

/** What a signature covers besides the token that keys it. */
export interface SignedMessage {
  method: string;
  /** The request line's path and query, exactly as sent ("/api/networks/blocky"). */
  target: string;
  /** X-Timestamp exactly as sent. */
  timestamp: string;
  /** The raw body bytes, never a re-encoded string. */
  body: Uint8Array;
}

const HEX_SHA256 = /^[0-9a-fA-F]{64}$/;

/** Decodes a signature header; null when it is not 64 hex digits (either case). */
export function decodeSignature(header: string): Buffer | null {
  const trimmed = header.trim();
  return HEX_SHA256.test(trimmed) ? Buffer.from(trimmed, "hex") : null;
}

/** The HMAC of a scheme that names no route, over the body's raw bytes (also what signs webhook deliveries). */
export function sign(scheme: Exclude<SignatureScheme, "request">, token: string, timestamp: string, body: Uint8Array): Buffer {
  const hmac = createHmac("sha256", token);
  if (scheme === "standard") hmac.update(`${timestamp}.`, "utf8");
  return hmac.update(body).digest();
}

/** The HMAC of the request scheme: method and target, then what the standard scheme signs. */
export function signRequest(token: string, message: SignedMessage): Buffer {
  return createHmac("sha256", token).update(`${message.method} ${message.target}\n${message.timestamp}.`, "utf8").update(message.body).digest();
}

/** Which accepted scheme produced the signature, or null when none did. */
export function matchSignature(
  token: string,
  message: SignedMessage,
  signature: Buffer,
  schemes: readonly SignatureScheme[],
): SignatureScheme | null {
  let matched: SignatureScheme | null = null;
  // Every scheme is computed and compared, so timing does not reveal which one matched.
  for (const scheme of schemes) {
    const expected = scheme === "request" ? signRequest(token, message) : sign(scheme, token, message.timestamp, message.body);
    if (timingSafeEqual(expected, signature) && matched === null) matched = scheme;
  }
  return matched;
}
