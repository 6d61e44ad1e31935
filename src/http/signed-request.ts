// The common front half of every signed endpoint: content type, bounded body,
// authentication, per-token rate limit, JSON parsing. Each step refuses with
// the JSON error shape; nothing is written here.

import { AuthError, authenticate, type Authenticated, type SignedRequest } from "../auth/authenticate.ts";
import type { SignatureScheme } from "../auth/signature.ts";
import type { Config } from "../config.ts";
import type { Db } from "../store/database.ts";
import { NotOwnerError, ReplayError } from "../store/errors.ts";
import { isSignatureUsed } from "../store/push.ts";
import { findTokenByHash } from "../store/tokens.ts";
import { HttpError } from "./errors.ts";
import { PayloadError, checkBounds } from "./payloads/reader.ts";
import type { RateLimiter } from "./rate-limit.ts";

export const MAX_BODY_BYTES = 64 * 1024;

/** What the signed routes need from the application. */
export interface SignedDeps {
  config: Config;
  db: Db;
  now: () => number;
  tokenLimiter: RateLimiter;
}

export interface SignedInput {
  scope: "server" | "plugin";
  /** The record the request acts on (server or plugin UUID), part of the replay key. */
  subject: string;
  tokenHeader: "X-Server-Token" | "X-Plugin-Token";
  schemes: readonly SignatureScheme[];
  /** POST bodies must be JSON; GET has no body. */
  hasBody: boolean;
}

export interface VerifiedRequest {
  auth: Authenticated;
  /** The parsed JSON body (undefined for GET). */
  json: unknown;
  now: number;
}

const AUTH_STATUS: Record<AuthError["code"], number> = {
  missing_headers: 401,
  invalid_timestamp: 401,
  stale_timestamp: 401,
  unknown_token: 401,
  bad_signature: 401,
  replayed_request: 401,
  wrong_scope: 403,
};

export async function verifySignedRequest(
  request: Request,
  input: SignedInput,
  deps: SignedDeps,
): Promise<VerifiedRequest> {
  if (input.hasBody) requireJson(request);
  const body = input.hasBody ? await readBoundedBody(request, MAX_BODY_BYTES) : new Uint8Array();
  const now = deps.now();
  const signed: SignedRequest = {
    token: request.headers.get(input.tokenHeader),
    timestamp: request.headers.get("x-timestamp"),
    signature: request.headers.get("x-signature"),
    body,
    scope: input.scope,
    schemes: input.schemes,
    tokenHeader: input.tokenHeader,
    target: `${request.method} ${new URL(request.url).pathname} ${input.subject}`,
  };
  let auth: Authenticated;
  try {
    auth = authenticate(signed, {
      now,
      clockSkewSeconds: deps.config.clockSkewSeconds,
      registration: deps.config.registration,
      findToken: (hash) => {
        const row = findTokenByHash(deps.db, hash);
        return row && { id: row.id, hash: row.hash, scope: row.scope, revoked: row.revokedAt !== null };
      },
      isSignatureUsed: (key) => isSignatureUsed(deps.db, key, now),
    });
  } catch (error) {
    if (error instanceof AuthError) throw new HttpError(AUTH_STATUS[error.code], error.code, error.message);
    throw error;
  }

  const decision = deps.tokenLimiter.take(auth.tokenHash);
  if (!decision.allowed) {
    throw new HttpError(429, "rate_limited", "too many requests for this token; slow down", {
      "Retry-After": String(decision.retryAfterSeconds),
    });
  }

  return { auth, json: input.hasBody ? parseJsonBody(body) : undefined, now };
}

function requireJson(request: Request): void {
  const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (type !== "application/json") {
    throw new HttpError(415, "unsupported_media_type", "the body must be sent as Content-Type: application/json");
  }
}

function tooLarge(): HttpError {
  return new HttpError(413, "payload_too_large", `the body must be at most ${MAX_BODY_BYTES} bytes`);
}

/** Reads the raw body, stopping as soon as it passes the limit. */
export async function readBoundedBody(request: Request, limit: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) throw tooLarge();
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

function parseJsonBody(body: Uint8Array): unknown {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body));
  } catch {
    throw new HttpError(400, "invalid_json", "the body is not valid UTF-8 JSON");
  }
  try {
    checkBounds(json);
  } catch (error) {
    throw asHttpError(error);
  }
  return json;
}

/** Maps payload and store refusals onto HTTP errors; anything else is rethrown. */
export function asHttpError(error: unknown): unknown {
  if (error instanceof PayloadError) return new HttpError(400, "invalid_payload", error.message);
  if (error instanceof NotOwnerError) return new HttpError(403, "not_owner", `${error.message}; nothing was changed`);
  if (error instanceof ReplayError) return new HttpError(401, "replayed_request", error.message);
  return error;
}
