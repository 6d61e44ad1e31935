// Turns every failure inside a route into the JSON error shape of errors.ts.
// Store faults (locked, full, unwritable) are 503 with Retry-After and one
// throttled log line; a client that went away is nobody's error; anything else
// is logged (within the refusal log's budget: observe.ts) and answered with a
// plain 500 that leaks nothing. The status is
// also set on the context, so the request's log line and metrics see it.

import { Elysia } from "elysia";
import { StoreUnavailableError } from "../store/unavailable.ts";
import { HttpError, errorResponse } from "./errors.ts";
import type { ThrottledLog } from "./throttled-log.ts";

/** nginx's status for a client that hung up before the answer: nobody reads it, logs and metrics do. */
export const CLIENT_CLOSED_REQUEST = 499;

export interface ErrorHandlingDeps {
  /** The methods served at a path ([] for an unknown path): a wrong one gets 405. */
  allowedMethods(path: string): string[];
  /** Store faults come in streams; one line per kind per interval. */
  storeLog: ThrottledLog;
  /** Logs an unexpected failure of a request, with its stack, within the refusal log's budget. */
  logUnexpected(request: Request, error: unknown): void;
  /** Tells the request's log line which error code it was answered with, and any detail for the log alone. */
  noteErrorCode(request: Request, code: string, detail?: string): void;
}

function validationMessage(error: unknown): string {
  const valueError = (error as { valueError?: { path?: string; message?: string } }).valueError;
  if (valueError?.path) {
    const field = valueError.path.replace(/^\//, "").replaceAll("/", ".");
    return `invalid value for "${field}": ${valueError.message ?? "does not match the schema"}`;
  }
  return "the request does not match the expected parameters";
}

/** The one place a store fault becomes an HTTP answer. */
function unavailableError(error: StoreUnavailableError): HttpError {
  return new HttpError(
    503,
    "database_unavailable",
    `${error.description}; nothing was changed, try again in ${error.retryAfterSeconds} s`,
    { "Retry-After": String(error.retryAfterSeconds) },
  );
}

function notFoundOrWrongMethod(request: Request, deps: ErrorHandlingDeps): HttpError {
  const allowed = deps.allowedMethods(new URL(request.url).pathname);
  // The router missed a method the path takes: the raw target differs from its
  // path (a "#fragment" is sent along by some clients). No such endpoint, not a 405.
  if (allowed.length === 0 || allowed.includes(request.method)) return new HttpError(404, "not_found", "no such endpoint");
  return new HttpError(405, "method_not_allowed", `this endpoint takes ${allowed.join(", ")}`, { Allow: allowed.join(", ") });
}

/** The answer to a failure, or null for a client that is gone. */
function failureAnswer(code: string | number, error: unknown, request: Request, deps: ErrorHandlingDeps): HttpError | null {
  if (error instanceof HttpError) return error;
  if (error instanceof StoreUnavailableError) {
    deps.storeLog.log(error.kind, `database unavailable: ${error.message}; requests that need it answer 503`);
    return unavailableError(error);
  }
  switch (code) {
    case "NOT_FOUND":
      return notFoundOrWrongMethod(request, deps);
    case "VALIDATION":
      return new HttpError(400, "invalid_request", validationMessage(error));
    case "PARSE":
      return new HttpError(400, "invalid_json", "the body could not be parsed");
    default:
      // A client that hangs up mid-body makes the body read fail:
      // no one reads this answer, and nothing broke here.
      if (request.signal.aborted) return null;
      deps.logUnexpected(request, error);
      return new HttpError(500, "internal", "internal server error");
  }
}

/**
 * For routes that answer their own failures (image routes draw an image
 * stating the problem): the HTTP error an unexpected failure becomes, logged
 * and classified as errorHandling would (null when the client is gone), and
 * a way to name its code on the request's log line.
 */
export interface RouteFailures {
  explain(error: unknown, request: Request): HttpError | null;
  note(request: Request, code: string): void;
}

export function routeFailures(deps: ErrorHandlingDeps): RouteFailures {
  return {
    explain: (error, request) => failureAnswer("UNKNOWN", error, request, deps),
    note: deps.noteErrorCode,
  };
}

export function errorHandling(deps: ErrorHandlingDeps) {
  return new Elysia({ name: "pennant/error-handling" })
    .error({ HttpError })
    .onError({ as: "global" }, ({ code, error, request, set }) => {
      const answer = failureAnswer(code, error, request, deps);
      if (!answer) {
        set.status = CLIENT_CLOSED_REQUEST;
        return new Response(null, { status: CLIENT_CLOSED_REQUEST });
      }
      set.status = answer.status;
      deps.noteErrorCode(request, answer.code, answer.logDetail);
      return errorResponse(answer);
    });
}

/**
 * Bun's `error` option: the answer to a failure no hook above caught (none is
 * known; the malformed-requests tests look for one). The JSON 500, never
 * Bun's development page of source lines and paths, and one line per interval
 * with the first failure's message (no stack: a client that finds such a
 * failure can repeat it).
 */
export function lastResortAnswer(storeLog: ThrottledLog): (error: Error) => Response {
  return (error) => {
    storeLog.log("uncaught", `a request failed outside Pennant's error handling: ${error.name}: ${error.message}`);
    return errorResponse(new HttpError(500, "internal", "internal server error"));
  };
}
