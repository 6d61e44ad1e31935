// Every signed endpoint: per-address budget, content type, bounded body,
// authentication, then for a push the replay guard, per-token rate limit, JSON
// parsing and the payload's schema, registration budget and the write in one
// transaction. The schema is checked only once the signature over the raw
// bytes holds: an unsigned body learns nothing about what it got wrong.
// Each step refuses with the JSON error shape; a refused request stores nothing.
// An exact duplicate of an accepted push (auth/replay.ts) takes the same steps
// up to the payload, so its answer is built as the first one was, and skips
// the token budget (a resend costs its owner nothing) and everything that writes.

import { Type, type TProperties } from "@sinclair/typebox";
import { t } from "elysia";
import { AuthError, authenticate, type Authenticated, type SignedRequest } from "../auth/authenticate.ts";
import { guardReplay, replayRecord, type ReplayRecord, type ReplayStatus } from "../auth/replay.ts";
import { REQUEST_SCHEME_VERSION, SIGNATURE_VERSION_HEADER, type SignatureScheme } from "../auth/signature.ts";
import type { Config } from "../config.ts";
import type { RecordWrite, Store } from "../store/store.ts";
import { NotOwnerError, RecordLimitError, RegistrationFullError, ReplayError, StorageLimitError } from "../store/write-refusals.ts";
import { BodyDeadline } from "./body-deadline.ts";
import { HttpError } from "./errors.ts";
import { spendIpBudget } from "./ip-rate-limit.ts";
import { codesByStatus, jsonSuccess, mergeCodes, type ErrorStatus } from "./openapi/responses.ts";
import { PayloadError, checkBounds } from "./payloads/json-bounds.ts";
import type { Payload, PayloadRead } from "./payloads/payload.ts";
import type { Limiter } from "./rate-limit.ts";
import { requestTarget } from "./request-url.ts";

/** The body of every signed request but those that set a bound of their own (SignedInput.maxBodyBytes). */
export const MAX_BODY_BYTES = 64 * 1024;

/** What the signed routes need from the application. */
export interface SignedDeps {
  config: Config;
  store: Store;
  now: () => number;
  tokenLimiter: Limiter;
  /** Per client address, every signed request (PENNANT_PUSH_RATE_LIMIT). */
  pushLimiter: Limiter;
  /** Per client address, tokens created by open registration (PENNANT_REGISTRATION_LIMIT). */
  registrationLimiter: Limiter;
  /** How long a body may take to arrive (body-deadline.ts). */
  bodyDeadlineMs: number;
  /** Pushes with an older timestamp are refused (store/replay-memory.ts). */
  replayCoveredSince: number;
  /** Where refused server pushes are counted (countRefusal). */
  refusals: RefusalCounter;
}

/** Counts a refused server push for `pennant servers` (serve's RefusalTally): no more than a map update per request. */
export interface RefusalCounter {
  count(serverUuid: string, code: string, tokenId: number | null, now: number): void;
}

/** How far a signed request got: the subject once past the per-address budget, the token once authenticated. */
interface SignedTrail {
  subject?: string;
  tokenId?: number | null;
}

/** The socket side of a request, as Elysia hands it to a route (null in app.handle). */
export type Socket = Parameters<typeof spendIpBudget>[2];

export interface SignedInput {
  scope: "server" | "plugin";
  tokenHeader: "X-Server-Token" | "X-Plugin-Token";
  /** The signature schemes accepted: "request" everywhere, the older ones only on the plugin's routes (auth/signature.ts). */
  schemes: readonly SignatureScheme[];
  /** The record's UUID (or a network's slug) in canonical lower case, read from the request; throws an HttpError. */
  subject: () => string;
  /** A request that carries no body (DELETE): no content type is asked for and `json` is null; the signature covers an empty body (+ any bytes sent). */
  bodiless?: true;
  /** The largest body taken, if not MAX_BODY_BYTES; its path is given the same bound before any route runs (body-limit.ts). */
  maxBodyBytes?: number;
}

export interface PushInput<T> extends SignedInput {
  /** The route template, e.g. "POST /api/plugins/:plugin_uuid/data": with the subject, the replay key. */
  route: string;
  /** The body's schema, checked once the request is authenticated, and its mapping onto the fields to write. */
  payload: Payload<T>;
}

/** A push answered: its body as read (what its answer is built from), and whether it was an exact duplicate. */
export interface PushResult<T> {
  read: PayloadRead<T>;
  duplicate: boolean;
}

export interface VerifiedRead {
  auth: Authenticated;
  subject: string;
}

const AUTH_STATUS: Record<AuthError["code"], ErrorStatus> = {
  missing_headers: 401,
  invalid_timestamp: 401,
  stale_timestamp: 401,
  unknown_token: 401,
  bad_signature: 401,
  replayed_request: 401,
  wrong_scope: 403,
};

const { replayed_request: _onlyPushes, ...READ_AUTH_STATUS } = AUTH_STATUS;

/** The error codes of a signed read (GET), by status, for the OpenAPI document. */
export const SIGNED_READ_ERRORS = mergeCodes(codesByStatus(READ_AUTH_STATUS), { 429: ["rate_limited"], 503: ["database_unavailable"] });

/** The error codes of a signed push (POST), by status, for the OpenAPI document. */
export const SIGNED_PUSH_ERRORS = mergeCodes(codesByStatus(AUTH_STATUS), {
  400: ["invalid_json", "invalid_payload"],
  403: ["not_owner", "record_limit", "registration_full", "storage_limit"],
  413: ["payload_too_large"],
  415: ["unsupported_media_type"],
  429: ["rate_limited", "registration_limited"],
  503: ["database_unavailable"],
});

/** X-Signature of the request scheme (X-Signature-Version: 2), in the words of the OpenAPI document. */
const REQUEST_SIGNATURE =
  'Hex HMAC-SHA256 (either case) of the method + " " + the path and query as sent + "\\n" + X-Timestamp + "." + the raw body (empty without one), keyed with the token';

/** X-Signature of the standard scheme, in the words of the OpenAPI document. */
export const STANDARD_SIGNATURE = 'hex HMAC-SHA256 (either case) of X-Timestamp + "." + the raw body, keyed with the token';

/**
 * The signature headers of a signed route, for the OpenAPI document: `older`
 * describes the signature a route accepts without X-Signature-Version (the
 * plugin's routes only), and without it the header is required. Elysia does
 * not check them (NoValidate): the pipeline does, and a missing one is our
 * 401 missing_headers (or bad_signature), not a validation error.
 */
export function signedHeaders(tokenHeader: SignedInput["tokenHeader"], subject: TProperties, older?: string) {
  const version = t.Literal(REQUEST_SCHEME_VERSION, {
    description: older
      ? "2: X-Signature covers the method, path and query too (docs/signed-api.md); absent: the older signature below, which covers neither"
      : "2: X-Signature covers the method, path and query too (docs/signed-api.md); this endpoint takes no other signature",
  });
  return t.NoValidate(
    t.Object({
      ...subject,
      [tokenHeader.toLowerCase()]: t.String({ description: "The API token; it also keys the HMAC" }),
      "x-timestamp": t.String({
        pattern: "^[0-9]{1,16}$",
        description: "Unix time in seconds (values above 10^12 are read as milliseconds), within PENNANT_CLOCK_SKEW of the server's clock",
      }),
      "x-signature": t.String({
        pattern: "^[0-9a-fA-F]{64}$",
        description: older ? `${REQUEST_SIGNATURE}; without X-Signature-Version, ${older}` : REQUEST_SIGNATURE,
      }),
      [SIGNATURE_VERSION_HEADER.toLowerCase()]: older ? t.Optional(version) : version,
    }),
  );
}

/**
 * A push: accepted once (replay guard), may register a token under open
 * registration, and writes `record(subject, fields)` in the store's push
 * transaction that remembers it; an exact duplicate of an accepted push writes
 * nothing. A push of the same new token that registers it between the token
 * look-up and the transaction makes this push that token's (Store.push).
 * Resolves to the body as read, which the route's answer is built from
 * (pushAnswer), duplicate or not.
 */
export async function acceptSignedPush<T>(
  request: Request,
  socket: Socket,
  input: PushInput<T>,
  deps: SignedDeps,
  record: (subject: string, fields: T) => RecordWrite,
): Promise<PushResult<T>> {
  const trail: SignedTrail = {};
  try {
    const { auth, replay, seen, subject, json, now } = await acceptSignedBody(request, socket, input, deps, deps.config.registration, trail);
    const read = await answeredRefusals(() => input.payload.read(json));
    if (seen === "duplicate") return { read, duplicate: true };
    if (auth.tokenId === null) await spendRegistrationBudget(request, socket, deps);
    const status = await answeredRefusals(() =>
      deps.store.push({ credentials: auth, replay, now, bounds: deps.config, record: record(subject, read.fields) }),
    );
    return { read, duplicate: status === "duplicate" };
  } catch (error) {
    if (input.scope === "server") countRefusal(deps, trail, error);
    throw error;
  }
}

/**
 * Counts a server push's refusal (docs/operations.md, "Refused pushes"): every
 * refusal (4xx) of a request that got past the per-address budget and named a
 * valid server UUID in its headers, whatever its body held, under the token it
 * was authenticated with, if it was. Not counted: the per-address 429, which
 * bounds what one address can add, a missing or malformed UUID (no server to
 * show it beside) and faults of the service (5xx).
 */
function countRefusal(deps: SignedDeps, { subject, tokenId }: SignedTrail, error: unknown): void {
  if (subject === undefined || !(error instanceof HttpError) || error.status >= 500) return;
  deps.refusals.count(subject, error.code, tokenId ?? null, deps.now());
}

/** A signed request with a body, authenticated and past the replay guard's look-up (the store remembers it with its write). */
export interface SignedBody {
  auth: Authenticated;
  replay: ReplayRecord;
  seen: ReplayStatus;
  subject: string;
  /** The body parsed as JSON, within the JSON bounds. */
  json: unknown;
  now: number;
}

/**
 * The steps every signed request with a body takes before its own: budgets,
 * content type, bounded body, signature, the replay guard's look-up, the
 * token's budget (not for an exact duplicate) and JSON parsing. `registration`
 * "closed" for requests that may not create a token.
 */
export async function acceptSignedBody(
  request: Request,
  socket: Socket,
  input: SignedInput & { route: string },
  deps: SignedDeps,
  registration: Config["registration"],
  trail: SignedTrail = {},
): Promise<SignedBody> {
  await spendIpBudget(deps.pushLimiter, request, socket, deps.config.trustProxy);
  const subject = (trail.subject = input.subject());
  if (!input.bodiless) requireJson(request);
  const body = await readBoundedBody(request, input.maxBodyBytes ?? MAX_BODY_BYTES, deps.bodyDeadlineMs);
  const now = deps.now();
  const { auth, replay, seen } = await authError(async () => {
    const auth = await authenticate(signedFields(request, input, body), policy(deps, now, registration));
    trail.tokenId = auth.tokenId;
    const replay = replayRecord(`${input.route} ${subject}`, body, auth, deps.config.clockSkewSeconds);
    const seen = await guardReplay(replay, auth, {
      coveredSince: deps.replayCoveredSince,
      rememberedFingerprint: (key) => deps.store.replay.rememberedFingerprint(key, now),
    });
    return { auth, replay, seen };
  });
  if (seen === "new") await spendTokenBudget(auth, deps);
  const json = input.bodiless ? null : await answeredRefusals(() => parseJsonBody(body));
  return { auth, replay, seen, subject, json, now };
}

/** The header that marks the answer to an exact duplicate; its body is the first answer's (docs/signed-api.md). */
export const DUPLICATE_HEADER = "X-Duplicate";

/**
 * A push's answer: its message, and `trimmed` when fields were cut or dropped
 * to fit their bounds; an exact duplicate gets the same body, marked by its header.
 */
export function pushAnswer(
  set: { headers: Record<string, unknown> },
  message: string,
  push: PushResult<unknown>,
): { message: string; trimmed?: readonly string[] } {
  if (push.duplicate) set.headers[DUPLICATE_HEADER] = "true";
  const { trimmed } = push.read;
  return trimmed.length > 0 ? { message, trimmed } : { message };
}

/** The replay rule of every push, in the words of the OpenAPI document. */
export const ACCEPTED_ONCE =
  "Signed (docs/signed-api.md) and accepted once: its token, X-Timestamp and signature are not accepted again on any endpoint or for any UUID " +
  "(401 replayed_request), except as an exact duplicate (the same endpoint, UUID and body too), answered 200 like the first with X-Duplicate: true " +
  "and not applied again.";

/** The 200 of a push in the OpenAPI document: pushAnswer's body, and the header an exact duplicate's answer carries. */
export function pushAccepted(message: string) {
  const body = Type.Object({
    message: Type.Literal(message),
    trimmed: Type.Optional(
      Type.Array(Type.String(), {
        description:
          "Present when text over its bound was cut to it or dropped: each field cut or dropped, named as in refusals " +
          '(e.g. "stats.motd", "data.placeholders.rank", "minecraft_versions[3]"; a collection\'s own name when entries past its bound or with a name over its bound were dropped)',
      }),
    ),
  });
  return {
    ...jsonSuccess("Accepted, or an exact duplicate of a push already accepted (answered alike, nothing applied again)", body),
    headers: {
      [DUPLICATE_HEADER]: {
        description: "Present (\"true\") when this request was an exact duplicate of a push already accepted: same token, X-Timestamp, signature, endpoint, UUID and body",
        schema: Type.Literal("true"),
      },
    },
  };
}

/**
 * A read: signature and clock window only. It changes nothing, so it is not
 * remembered (two identical reads in one second are both answered) and never
 * registers a token.
 */
export async function verifySignedRead(
  request: Request,
  socket: Socket,
  input: SignedInput,
  deps: SignedDeps,
): Promise<VerifiedRead> {
  await spendIpBudget(deps.pushLimiter, request, socket, deps.config.trustProxy);
  const subject = input.subject();
  const signed = signedFields(request, input, new Uint8Array());
  // Registration "closed": a read never creates a token.
  const auth = await authError(() => authenticate(signed, policy(deps, deps.now(), "closed")));
  await spendTokenBudget(auth, deps);
  return { auth, subject };
}

function signedFields(request: Request, input: SignedInput, body: Uint8Array): SignedRequest {
  return {
    token: request.headers.get(input.tokenHeader),
    timestamp: request.headers.get("x-timestamp"),
    signature: request.headers.get("x-signature"),
    version: request.headers.get(SIGNATURE_VERSION_HEADER),
    method: request.method,
    // The request line's path and query, which the request scheme signs.
    target: requestTarget(request.url),
    body,
    scope: input.scope,
    schemes: input.schemes,
    tokenHeader: input.tokenHeader,
  };
}

function policy(deps: SignedDeps, now: number, registration: Config["registration"]) {
  return {
    now,
    clockSkewSeconds: deps.config.clockSkewSeconds,
    registration,
    findToken: async (hash: string) => {
      const row = await deps.store.tokens.findByHash(hash);
      return row && { id: row.id, hash: row.hash, scope: row.scope, revoked: row.revokedAt !== null };
    },
  };
}

/** Runs an authentication step, its AuthError answered as the HTTP error of its code. */
export async function authError<R>(check: () => Promise<R>): Promise<R> {
  try {
    return await check();
  } catch (error) {
    if (error instanceof AuthError) throw new HttpError(AUTH_STATUS[error.code], error.code, error.message, {}, error.detail);
    throw error;
  }
}

async function spendTokenBudget(auth: Authenticated, deps: SignedDeps): Promise<void> {
  const decision = await deps.tokenLimiter.take(auth.tokenHash);
  if (!decision.allowed) {
    throw new HttpError(429, "rate_limited", "too many requests for this token; slow down", {
      "Retry-After": String(decision.retryAfterSeconds),
    });
  }
}

async function spendRegistrationBudget(request: Request, socket: Socket, deps: SignedDeps): Promise<void> {
  try {
    await spendIpBudget(deps.registrationLimiter, request, socket, deps.config.trustProxy);
  } catch (error) {
    if (!(error instanceof HttpError && error.status === 429)) throw error;
    const { count, windowSeconds } = deps.config.registrationLimit;
    throw new HttpError(
      429,
      "registration_limited",
      `too many new tokens from this address (PENNANT_REGISTRATION_LIMIT=${count}/${windowSeconds}); nothing was stored`,
      error.headers,
    );
  }
}

/** A 415 unless the body is declared as JSON. */
export function requireJson(request: Request): void {
  const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (type !== "application/json") {
    throw new HttpError(415, "unsupported_media_type", "the body must be sent as Content-Type: application/json");
  }
}

function tooLarge(limit: number): HttpError {
  return new HttpError(413, "payload_too_large", `the body must be at most ${limit} bytes`);
}

/** Reads the raw body, stopping as soon as it passes the limit or its deadline. */
export async function readBoundedBody(request: Request, limit: number, deadlineMs: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) throw tooLarge(limit);
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  const deadline = new BodyDeadline(deadlineMs);
  for (;;) {
    const { done, value } = await deadline.read(reader);
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** The body as JSON within the JSON bounds; a 400 otherwise. */
export function parseJsonBody(body: Uint8Array): unknown {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body));
  } catch {
    throw new HttpError(400, "invalid_json", "the body is not valid UTF-8 JSON");
  }
  checkBounds(json);
  return json;
}

const LIMIT_VARIABLE = { server: "PENNANT_MAX_SERVERS_PER_TOKEN", plugin: "PENNANT_MAX_PLUGINS_PER_TOKEN" } as const;

/** Runs a step, mapping payload and store refusals onto HTTP errors; anything else is rethrown. */
export async function answeredRefusals<R>(step: () => R | Promise<R>): Promise<R> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof PayloadError) throw new HttpError(400, "invalid_payload", error.message);
    if (error instanceof NotOwnerError) throw new HttpError(403, "not_owner", `${error.message}; nothing was changed`);
    if (error instanceof RecordLimitError) {
      throw new HttpError(
        403,
        "record_limit",
        `this token already owns ${error.limit} ${error.kind}s, the most ${LIMIT_VARIABLE[error.kind]} allows; nothing was changed`,
      );
    }
    if (error instanceof RegistrationFullError) {
      throw new HttpError(
        403,
        "registration_full",
        `open registration has made ${error.limit} tokens, the most PENNANT_REGISTRATION_MAX allows; ask the operator for a token; nothing was stored`,
      );
    }
    if (error instanceof StorageLimitError) {
      throw new HttpError(
        403,
        "storage_limit",
        `this token's records would hold ${error.wouldHold} bytes of meta and stats, over the ${error.limit} PENNANT_MAX_BYTES_PER_TOKEN allows; nothing was changed`,
      );
    }
    if (error instanceof ReplayError) throw new HttpError(401, "replayed_request", error.message);
    throw error;
  }
}
