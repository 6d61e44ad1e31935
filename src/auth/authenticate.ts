// Authentication of signed requests. Pure apart from the look-ups passed in,
// so the whole rule set is testable without HTTP; the routes map AuthError
// codes onto HTTP statuses. The replay guard of pushes is in replay.ts.

import type { Registration } from "../config.ts";
import { decodeSignature, matchSignature, REQUEST_SCHEME_VERSION, SIGNATURE_VERSION_HEADER, type SignatureScheme } from "./signature.ts";
import { parseTimestamp, withinWindow } from "./timestamp.ts";
import { TOKEN_MAX_LENGTH, TOKEN_MIN_LENGTH, hashToken, isPlausibleToken, sameHash, type TokenScope } from "./token.ts";

export type AuthErrorCode =
  | "missing_headers"
  | "invalid_timestamp"
  | "stale_timestamp"
  | "unknown_token"
  | "bad_signature"
  | "replayed_request"
  | "wrong_scope";

export class AuthError extends Error {
  constructor(
    readonly code: AuthErrorCode,
    message: string,
    /** For the server's log only, never the answer: what the message deliberately does not say. */
    readonly detail?: string,
  ) {
    super(message);
    this.name = "AuthError";
  }
}

export interface StoredToken {
  id: number;
  hash: string;
  scope: TokenScope;
  revoked: boolean;
}

export interface SignedRequest {
  token: string | null;
  timestamp: string | null;
  signature: string | null;
  /** X-Signature-Version: "2" names the request scheme; null reads the signature under the older schemes. */
  version: string | null;
  method: string;
  /** The request line's path and query, as sent. */
  target: string;
  /** The raw body bytes, exactly as received. */
  body: Uint8Array;
  /** The scope the endpoint needs; a token of scope "all" has both. */
  scope: "server" | "plugin";
  /** The schemes the endpoint accepts: "request" on every one, the older ones only where the route cannot be mistaken (signature.ts). */
  schemes: readonly SignatureScheme[];
  /** Header names for messages, e.g. "X-Server-Token". */
  tokenHeader: string;
}

export interface AuthPolicy {
  now: number;
  clockSkewSeconds: number;
  /** "open" only where this request may create a token (pushes, never reads). */
  registration: Registration;
  findToken(hash: string): Promise<StoredToken | undefined>;
}

export interface Authenticated {
  /** Null when open registration lets an unknown token claim what it pushes. */
  tokenId: number | null;
  tokenHash: string;
  scheme: SignatureScheme;
  /** X-Timestamp in milliseconds, whatever unit and spelling the header used. */
  timestampMs: number;
  /** The decoded signature bytes (so either hex case is the same signature). */
  signature: Buffer;
}

/** What each scheme signs, for the refusal's message (docs/signed-api.md). */
const SCHEME_WORDS: Record<SignatureScheme, string> = {
  request: 'hex HMAC-SHA256 of method + " " + path and query + "\\n" + timestamp + "." + body',
  standard: "hex HMAC-SHA256 of timestamp.body",
  legacy: "hex HMAC-SHA256 of the body",
};

/**
 * The schemes the signature is checked under: the request scheme when the
 * request names it, else the older ones the endpoint still accepts. Refused
 * before any HMAC is computed when the endpoint takes none of them, so a
 * client still signing the old way is told what to send.
 */
function schemesNamed(request: SignedRequest): readonly SignatureScheme[] {
  const version = request.version?.trim();
  if (version !== undefined && version !== REQUEST_SCHEME_VERSION) {
    throw new AuthError("bad_signature", `${SIGNATURE_VERSION_HEADER} must be ${REQUEST_SCHEME_VERSION}, or absent for the older schemes the plugin endpoints accept`);
  }
  const named = request.schemes.filter((scheme) => (scheme === "request") === (version !== undefined));
  if (named.length === 0) {
    throw new AuthError("bad_signature", `this endpoint takes only signatures over its method and path: send ${SIGNATURE_VERSION_HEADER}: ${REQUEST_SCHEME_VERSION} (docs/signed-api.md)`);
  }
  return named;
}

/**
 * One message for a token that was revoked and one that never existed: the
 * answer must not tell whoever holds an old token that it was once valid.
 * The log line tells the operator which (AuthError.detail).
 */
const UNKNOWN_TOKEN = "unknown or revoked token";

export async function authenticate(request: SignedRequest, policy: AuthPolicy): Promise<Authenticated> {
  const missing = [
    request.token === null ? request.tokenHeader : null,
    request.timestamp === null ? "X-Timestamp" : null,
    request.signature === null ? "X-Signature" : null,
  ].filter((name) => name !== null);
  if (missing.length > 0) {
    throw new AuthError("missing_headers", `missing header${missing.length > 1 ? "s" : ""}: ${missing.join(", ")}`);
  }
  const token = request.token as string;
  const timestamp = request.timestamp as string;

  const timestampMs = parseTimestamp(timestamp);
  if (timestampMs === null) {
    throw new AuthError("invalid_timestamp", "X-Timestamp must be a Unix time in seconds or milliseconds");
  }
  if (!withinWindow(timestampMs, policy.now, policy.clockSkewSeconds)) {
    throw new AuthError(
      "stale_timestamp",
      `X-Timestamp is more than ${policy.clockSkewSeconds} s away from the server's clock`,
    );
  }

  if (!isPlausibleToken(token)) {
    throw new AuthError(
      "unknown_token",
      policy.registration === "open"
        ? `unknown token; self-registered tokens must be ${TOKEN_MIN_LENGTH} to ${TOKEN_MAX_LENGTH} printable characters without spaces`
        : UNKNOWN_TOKEN,
      "not a token's shape",
    );
  }
  const tokenHash = hashToken(token);
  const stored = await policy.findToken(tokenHash);
  // The database found the row by its hash; the constant-time comparison keeps
  // the rule "secrets are compared in constant time" true whatever the index does.
  const found = stored !== undefined && sameHash(stored.hash, tokenHash);
  if (found && stored.revoked) throw new AuthError("unknown_token", UNKNOWN_TOKEN, "revoked token");
  if (!found && policy.registration !== "open") throw new AuthError("unknown_token", UNKNOWN_TOKEN, "no such token");

  const schemes = schemesNamed(request);
  const signature = decodeSignature(request.signature as string);
  const message = { method: request.method, target: request.target, timestamp, body: request.body };
  const scheme = signature && matchSignature(token, message, signature, schemes);
  if (!signature || !scheme) throw new AuthError("bad_signature", `X-Signature does not match (${SCHEME_WORDS[schemes[0]!]})`);

  if (stored && stored.scope !== "all" && stored.scope !== request.scope) {
    throw new AuthError("wrong_scope", `this token has scope "${stored.scope}", not "${request.scope}"`);
  }

  return { tokenId: stored?.id ?? null, tokenHash, scheme, timestampMs, signature };
}
