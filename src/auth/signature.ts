// Request signatures: hex HMAC-SHA256 keyed with the request's own token.
//
// Standard scheme: HMAC(token, timestamp + "." + raw body).
// Legacy scheme (deployed plugin builds, /api/server/update only): HMAC(token, raw body).
// The legacy scheme does not cover the timestamp, so a captured request can be
// sent again later with a fresh X-Timestamp; replay.ts says what is refused.

import { createHmac, timingSafeEqual } from "node:crypto";

export type SignatureScheme = "standard" | "legacy";

const HEX_SHA256 = /^[0-9a-fA-F]{64}$/;

/** Decodes a signature header; null when it is not 64 hex digits (either case). */
export function decodeSignature(header: string): Buffer | null {
  const trimmed = header.trim();
  return HEX_SHA256.test(trimmed) ? Buffer.from(trimmed, "hex") : null;
}

/** The HMAC of one scheme, over the body's raw bytes (never a re-encoded string). */
export function sign(scheme: SignatureScheme, token: string, timestamp: string, body: Uint8Array): Buffer {
  const hmac = createHmac("sha256", token);
  if (scheme === "standard") hmac.update(`${timestamp}.`, "utf8");
  return hmac.update(body).digest();
}

/** Which accepted scheme produced the signature, or null when none did. */
export function matchSignature(
  token: string,
  timestamp: string,
  body: Uint8Array,
  signature: Buffer,
  schemes: readonly SignatureScheme[],
): SignatureScheme | null {
  let matched: SignatureScheme | null = null;
  // Every scheme is computed and compared, so timing does not reveal which one matched.
  for (const scheme of schemes) {
    const expected = sign(scheme, token, timestamp, body);
    if (timingSafeEqual(expected, signature) && matched === null) matched = scheme;
  }
  return matched;
}
