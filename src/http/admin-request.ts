// How an administrator's request (the console's Admin tab, or a script) is
// authenticated: signed as every other signed request is (X-Timestamp,
// X-Signature over method, path and query, timestamp and body,
// X-Signature-Version: 2; docs/signed-api.md), keyed with
// PENNANT_ADMIN_TOKEN. The admin token itself is never sent: Pennant holds it,
// and a signature only its holder can make is compared in constant time
// (auth/signature.ts, by authenticate()). A request that changes something is
// accepted once (auth/replay.ts), remembered in the transaction that writes.
//
// Bounds: ADMIN_RATE_LIMIT requests per client address, whatever their
// outcome; bodies of at most MAX_ADMIN_BODY_BYTES. Every request within the
// limit is logged at info with its outcome (never a token: none is sent, and
// a token created is only in its answer); those over it are refused before
// and logged as every refused request is (observe.ts, within its budget).

import { authenticate, type Authenticated } from "../auth/authenticate.ts";
import { guardReplay, replayRecord, type ReplayRecord, type ReplayStatus } from "../auth/replay.ts";
import type { Config } from "../config.ts";
import type { Logger } from "../log.ts";
import type { Store } from "../store/store.ts";
import { socketClientIp } from "./client-ip.ts";
import { HttpError } from "./errors.ts";
import { spendIpBudget } from "./ip-rate-limit.ts";
import type { Limiter } from "./rate-limit.ts";
import { requestTarget } from "./request-url.ts";
import { answeredRefusals, authError, parseJsonBody, readBoundedBody, requireJson, type Socket } from "./signed-request.ts";

/** An administrator's requests per client address: a console lists, creates and revokes a few tokens a minute. */
export const ADMIN_RATE_LIMIT = { count: 60, windowSeconds: 60 };
/** A token's label and scope fit in far less. */
export const MAX_ADMIN_BODY_BYTES = 4096;

export interface AdminDeps {
  /** PENNANT_ADMIN_TOKEN: the key of every admin request's signature. */
  adminToken: string;
  config: Pick<Config, "clockSkewSeconds" | "trustProxy" | "logClientIp">;
  store: Store;
  now: () => number;
  /** Per client address, every admin request (ADMIN_RATE_LIMIT). */
  adminLimiter: Limiter;
  bodyDeadlineMs: number;
  /** Requests with an older timestamp are refused (store/replay-memory.ts). */
  replayCoveredSince: number;
  log: Logger;
}

export interface AdminInput {
  /** The route template and subject, e.g. "DELETE /api/admin/tokens/:id 7": with the body, the replay fingerprint. */
  route: string;
  /** Whether the request changes something: then it is accepted once. */
  changes: boolean;
  /** Whether it carries a JSON body (POST); else the signature covers an empty one. */
  json: boolean;
}

export interface AdminRequest {
  auth: Authenticated;
  /** Remembered with the request's write. */
  replay: ReplayRecord;
  seen: ReplayStatus;
  /** The body parsed (null without one). */
  json: unknown;
  now: number;
}

/** The one key that signs admin requests, found as a stored token would be: never revoked, of every scope. */
function adminPolicy(deps: AdminDeps, now: number) {
  return {
    now,
    clockSkewSeconds: deps.config.clockSkewSeconds,
    registration: "closed" as const,
    findToken: async (hash: string) => ({ id: 0, hash, scope: "all" as const, revoked: false }),
  };
}

/** The steps of every admin request: the client's budget, the body, the signature, and for a change the replay guard's look-up. */
export async function acceptAdminRequest(request: Request, socket: Socket, input: AdminInput, deps: AdminDeps): Promise<AdminRequest> {
  await spendIpBudget(deps.adminLimiter, request, socket, deps.config.trustProxy);
  if (input.json) requireJson(request);
  const body = await readBoundedBody(request, MAX_ADMIN_BODY_BYTES, deps.bodyDeadlineMs);
  const now = deps.now();
  const { auth, replay, seen } = await authError(async () => {
    const auth = await authenticate(
      {
        // The key is Pennant's own: the request carries none (the header name only words a message that cannot occur).
        token: deps.adminToken,
        tokenHeader: "PENNANT_ADMIN_TOKEN",
        timestamp: request.headers.get("x-timestamp"),
        signature: request.headers.get("x-signature"),
        version: request.headers.get("x-signature-version"),
        method: request.method,
        target: requestTarget(request.url),
        body,
        scope: "server",
        schemes: ["request"],
      },
      adminPolicy(deps, now),
    );
    const replay = replayRecord(input.route, body, auth, deps.config.clockSkewSeconds);
    const seen = input.changes
      ? await guardReplay(replay, auth, { coveredSince: deps.replayCoveredSince, rememberedFingerprint: (key) => deps.store.replay.rememberedFingerprint(key, now) })
      : "new";
    return { auth, replay, seen };
  });
  const json = input.json ? await answeredRefusals(() => parseJsonBody(body)) : null;
  return { auth, replay, seen, json, now };
}

/**
 * Runs an admin route's handler and logs the request with its outcome: the
 * status, the error code of a refusal, the token it created or revoked.
 */
export async function audited<R>(
  request: Request,
  socket: Socket,
  deps: AdminDeps,
  handler: (note: (fields: { token_id: number }) => void) => Promise<{ status: number; body: R }>,
): Promise<{ status: number; body: R }> {
  const fields: { token_id?: number } = {};
  const line = (status: number, code?: string) =>
    deps.log.info(`admin ${request.method} ${new URL(request.url).pathname.slice(0, 64)} ${status}`, {
      status,
      code,
      ...fields,
      ...(deps.config.logClientIp ? { client: socketClientIp(request, socket, deps.config.trustProxy) } : {}),
    });
  try {
    const answer = await handler((noted) => Object.assign(fields, noted));
    line(answer.status);
    return answer;
  } catch (error) {
    // Refused by the per-client limit: logged as every refused request is, within the refusal log's budget.
    if (error instanceof HttpError && error.status === 429) throw error;
    line(error instanceof HttpError ? error.status : 500, error instanceof HttpError ? error.code : "unexpected_error");
    throw error;
  }
}
