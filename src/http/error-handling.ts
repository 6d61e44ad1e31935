// Turns every failure inside a route into the JSON error shape of errors.ts.
// Store faults (locked, full, unwritable) are 503 with Retry-After and one
// throttled log line; a client that went away is nobody's error; anything else
// is logged and answered with a plain 500 that leaks nothing.

import { Elysia } from "elysia";
import { storeUnavailable, type StoreUnavailableError } from "../store/unavailable.ts";
import { HttpError, errorBody, errorResponse } from "./errors.ts";
import type { ThrottledLog } from "./throttled-log.ts";

export interface ErrorHandlingDeps {
  /** The methods served at a path ([] for an unknown path): a wrong one gets 405. */
  allowedMethods(path: string): string[];
  /** Store faults come in streams; one line per kind per interval. */
  storeLog: ThrottledLog;
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

function notFoundOrWrongMethod(path: string, deps: ErrorHandlingDeps): Response {
  const allowed = deps.allowedMethods(path);
  if (allowed.length === 0) return Response.json(errorBody("not_found", "no such endpoint"), { status: 404 });
  return errorResponse(
    new HttpError(405, "method_not_allowed", `this endpoint takes ${allowed.join(", ")}`, { Allow: allowed.join(", ") }),
  );
}

export function errorHandling(deps: ErrorHandlingDeps) {
  return new Elysia({ name: "pennant/error-handling" })
    .error({ HttpError })
    .onError({ as: "global" }, ({ code, error, request }) => {
      if (error instanceof HttpError) return errorResponse(error);
      const unavailable = storeUnavailable(error);
      if (unavailable) {
        deps.storeLog.log(unavailable.kind, `database unavailable: ${unavailable.message}; requests that need it answer 503`);
        return errorResponse(unavailableError(unavailable));
      }
      switch (code) {
        case "NOT_FOUND":
          return notFoundOrWrongMethod(new URL(request.url).pathname, deps);
        case "VALIDATION":
          return Response.json(errorBody("invalid_request", validationMessage(error)), { status: 400 });
        case "PARSE":
          return Response.json(errorBody("invalid_json", "the body could not be parsed"), { status: 400 });
        default:
          // A client that hangs up mid-body makes the body read fail:
          // no one reads this answer, and nothing broke here.
          if (request.signal.aborted) return new Response(null, { status: 400 });
          console.error("unexpected error:", error);
          return Response.json(errorBody("internal", "internal server error"), { status: 500 });
      }
    });
}
