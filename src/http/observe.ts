// Every request, whatever its outcome: an X-Request-Id on the answer with
// the headers every answer shares (answer-headers.ts), one log line and the
// request metrics (by route template, never the raw path).
//
// What a line holds: time, request id, method, route template (the path only
// when no route matches, cut), status, duration, client address (unless
// PENNANT_LOG_CLIENT_IP=off), the server or plugin UUID of a signed request
// and the error code of a refusal, with any detail its answer leaves out (a
// revoked token rather than an unknown one). Never a header value, a token,
// a signature or a body.
//
// Levels, so that a busy server's log shows what an owner acts on: server
// faults at error; refused pushes, 429s and 503s at warn; other refusals
// (a bad banner parameter, an unknown path) at info; accepted pushes (POST)
// at info; every other success (images, lookups, status reads, /healthz,
// /metrics) at debug. Refusal lines are budgeted per client address and in
// total (refusal-log-budget.ts), so clients sending bad requests without end
// cannot grow the log without end.

import { randomUUID } from "node:crypto";
import { Elysia, StatusMap } from "elysia";
import type { Config } from "../config.ts";
import { clip, type Logger, type LogLevel } from "../log.ts";
import type { ServiceMetrics } from "../metrics/service-metrics.ts";
import type { RouteTable } from "./allowed-methods.ts";
import { ANSWER_HEADERS, PUBLIC_READ_ROUTES } from "./answer-headers.ts";
import { requestClientIp, socketClientIp, type SocketInfo } from "./client-ip.ts";
import { CLIENT_CLOSED_REQUEST } from "./error-handling.ts";
import { budgetKey } from "./ip-rate-limit.ts";
import { RefusalLogBudget, type HeldBack } from "./refusal-log-budget.ts";
import { parseUuid } from "./uuid.ts";

export const REQUEST_ID_HEADER = "x-request-id";
/** The route label of a request no route matches: one label however many paths are tried. */
export const UNMATCHED_ROUTE = "unmatched";
/** Enough of an unknown path to recognise a mistake (a trailing slash, a typo). */
const MAX_LOGGED_PATH_CHARS = 128;
/** A request id from a trusted proxy: nginx's $request_id, a UUID, a trace id. */
const FORWARDED_REQUEST_ID = /^[\w.:-]{1,64}$/;
/** The budget's code for an unexpected failure's own line (its request's line has the answer's code). */
const UNEXPECTED_ERROR_LINE = "unexpected_error";
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]);
/**
 * Log lines of refused requests a minute: per client address, enough to see
 * why (and the first of each other error code besides); from all clients, far
 * below journald's default rate limit (10,000 lines in 30 s), past which it
 * drops lines without saying which.
 */
export const REFUSAL_LOG_BUDGET = { perClient: 20, total: 1_000, windowSeconds: 60 };

export interface ObserveDeps {
  config: Pick<Config, "trustProxy" | "logClientIp">;
  log: Logger;
  metrics: ServiceMetrics;
  routes: RouteTable;
  now: () => number;
}

export interface InFlight {
  id: string;
  startedAt: number;
  /** The client's address (client-ip.ts), asked of the socket only when needed. */
  client: string | undefined;
  socket: SocketInfo | null;
  errorCode?: string;
  errorDetail?: string;
}

/** Where a line of this outcome goes; see the header of this file. */
export function requestLevel(method: string, status: number, signed: boolean): LogLevel {
  if (status === CLIENT_CLOSED_REQUEST) return "debug"; // the client left: nothing to act on
  if (status >= 500) return status === 503 ? "warn" : "error";
  if (status === 429) return "warn";
  if (status >= 400) return signed || method === "POST" ? "warn" : "info";
  return method === "POST" ? "info" : "debug";
}

/** Elysia's set.status may be a number or a status name ("Not Found"). */
function statusCode(status: number | string | undefined): number {
  if (typeof status === "number") return status;
  return status === undefined ? 200 : (StatusMap[status as keyof typeof StatusMap] ?? 200);
}

/** The UUID a signed request names, when it is one (never other header text). */
function subjectUuid(request: Request, params: Record<string, string> | undefined): string | undefined {
  const candidate = params?.plugin_uuid ?? request.headers.get("x-server-uuid") ?? request.headers.get("x-server-id");
  return candidate ? parseUuid(candidate.trim()) ?? undefined : undefined;
}

/**
 * Request ids of one app: a random prefix drawn once and a counter, in the
 * shape of a UUID (36 characters of hex and dashes) so that tools expecting
 * one take it. Unique within the process, and across restarts by the prefix's
 * ~74 random bits; a fraction of the cost of a random UUID per request.
 */
function requestIds(): () => string {
  const prefix = randomUUID().slice(0, 24);
  // The prefix with the zeros that pad a counter of each hex length: one concatenation per id.
  const padded = Array.from({ length: 13 }, (_, digits) => prefix + "0".repeat(12 - digits));
  let counter = 0;
  return () => {
    const hex = (counter++).toString(16);
    return (padded[hex.length] ?? prefix) + hex;
  };
}

const PUBLIC_READ_HEADERS = { ...ANSWER_HEADERS.every, ...ANSWER_HEADERS.publicRead };

/** The headers every answer of `route` shares (a route template; "" when none matched). */
function sharedHeaders(route: string): Readonly<Record<string, string>> {
  return PUBLIC_READ_ROUTES.has(route) ? PUBLIC_READ_HEADERS : ANSWER_HEADERS.every;
}

export function observeRequests(deps: ObserveDeps) {
  const inFlight = new WeakMap<Request, InFlight>();
  const reportHeldBack = ({ count, from, to }: HeldBack) =>
    deps.log.warn(`${count} refused requests were not logged`, { count, from: new Date(from).toISOString(), to: new Date(to).toISOString() });
  const refusalLines = new RefusalLogBudget(REFUSAL_LOG_BUDGET, deps.now, reportHeldBack);
  const nextId = requestIds();

  function requestId(request: Request): string {
    if (!deps.config.trustProxy) return nextId();
    const forwarded = request.headers.get(REQUEST_ID_HEADER);
    return forwarded && FORWARDED_REQUEST_ID.test(forwarded) ? forwarded : nextId();
  }

  /** What the line and the metrics of a request need from its start; `client` when its address is known already. */
  function begin(request: Request, socket: SocketInfo | null, client?: string): InFlight {
    return { id: requestId(request), startedAt: performance.now(), client, socket };
  }

  /**
   * The address of a request answered before Elysia, asked while it is in
   * flight, and only when needed: most answers (a debug line not written)
   * never need it, and Bun's requestIP builds an object each time.
   */
  function clientOf(started: InFlight, request: Request): string {
    return (started.client ??= socketClientIp(request, started.socket, deps.config.trustProxy));
  }

  function finish(started: InFlight, request: Request, route: string | undefined, status: number, params: Record<string, string> | undefined): void {
    const ms = Math.round((performance.now() - started.startedAt) * 10) / 10;
    const method = METHODS.has(request.method) ? request.method : "other";
    // A route ran for nearly every request: the path is parsed only when none did.
    const path = route === undefined ? new URL(request.url).pathname : "";
    const template = route ?? deps.routes.templateOf(path) ?? UNMATCHED_ROUTE;
    deps.metrics.request(method, template, status, ms);

    // Only the level of a refusal depends on a signature.
    const signed = status >= 400 && request.headers.has("x-signature");
    const level = requestLevel(method, status, signed);
    if (!deps.log.enabled(level)) return;
    let note: string | undefined;
    if (status >= 400) {
      const budget = refusalLines.admit(budgetKey(clientOf(started, request)), started.errorCode ?? String(status));
      if (!budget.write) return deps.metrics.logLineSuppressed();
      note = budget.note;
    }
    deps.log[level](`${method} ${template} ${status}`, {
      request_id: started.id,
      method,
      route: template,
      ...(template === UNMATCHED_ROUTE ? { path: clip(path, MAX_LOGGED_PATH_CHARS) } : {}),
      status,
      ms,
      ...(deps.config.logClientIp ? { client: clientOf(started, request) } : {}),
      uuid: subjectUuid(request, params),
      code: started.errorCode,
      detail: started.errorDetail,
      note,
    });
  }

  const plugin = new Elysia({ name: "pennant/observe" })
    // The address now: the socket may not tell it once the answer is sent (onAfterResponse).
    .onRequest(({ request, server }) => {
      const socket = server as SocketInfo | null;
      inFlight.set(request, begin(request, socket, requestClientIp(request, socket, deps.config.trustProxy)));
    })
    // The id and the shared headers go on the answer itself. Put in
    // set.headers for every request, they would make Elysia copy each Response
    // a route returns (a new Response over the old one's body stream, headers
    // merged), the largest cost of a cached image.
    .mapResponse({ as: "global" }, ({ request, responseValue, set, route }) => {
      const id = inFlight.get(request)?.id;
      if (id === undefined) return;
      if (!(responseValue instanceof Response)) return void Object.assign(set.headers, sharedHeaders(route), { [REQUEST_ID_HEADER]: id });
      const { headers } = responseValue;
      headers.set(REQUEST_ID_HEADER, id);
      const shared = sharedHeaders(route);
      for (const name in shared) headers.set(name, shared[name]!);
    })
    // Error answers (error-handling.ts) skip mapResponse hooks: they take the id and headers from set.headers.
    .onError({ as: "global" }, ({ request, set, route }) => {
      const id = inFlight.get(request)?.id;
      if (id !== undefined) Object.assign(set.headers, sharedHeaders(route), { [REQUEST_ID_HEADER]: id });
    })
    .onAfterResponse({ as: "global" }, ({ request, route, set, responseValue, params }) => {
      const started = inFlight.get(request);
      if (!started) return;
      inFlight.delete(request);
      const status = responseValue instanceof Response ? responseValue.status : statusCode(set.status);
      finish(started, request, route || undefined, status, params as Record<string, string> | undefined);
    });

  return {
    plugin,
    /**
     * For answers made outside Elysia (image-pipeline.ts): `begin` when the
     * request arrives, `end` with the answer's status, for the same line,
     * metrics and request id as every other request.
     */
    outsideElysia: {
      begin,
      end(started: InFlight, request: Request, route: string, status: number, params: Record<string, string> | undefined): void {
        finish(started, request, route, status, params);
      },
    },
    /** The error code a refusal was answered with, and what the answer left out, for its log line. */
    noteErrorCode(request: Request, code: string, detail?: string): void {
      const started = inFlight.get(request);
      if (!started) return;
      started.errorCode = code;
      started.errorDetail = detail;
    },
    /**
     * An unexpected failure of a request, with its stack, at error: within the
     * refusal log's budget (a client that finds a way to fail a request cannot
     * flood the log with traces); the request's own line follows as usual.
     */
    logUnexpected(request: Request, error: unknown): void {
      const started = inFlight.get(request);
      const client = started ? clientOf(started, request) : "unknown";
      if (!refusalLines.admit(budgetKey(client), UNEXPECTED_ERROR_LINE).write) return deps.metrics.logLineSuppressed();
      deps.log.error("unexpected error", { request_id: started?.id, error });
    },
  };
}

export type RequestObserver = ReturnType<typeof observeRequests>;
