// Turns every failure inside a route into the JSON error shape of errors.ts.
// Unexpected errors are logged and answered with a plain 500 that leaks nothing.

import { Elysia } from "elysia";
import { HttpError, errorBody, errorResponse } from "./errors.ts";

function validationMessage(error: unknown): string {
  const valueError = (error as { valueError?: { path?: string; message?: string } }).valueError;
  if (valueError?.path) {
    const field = valueError.path.replace(/^\//, "").replaceAll("/", ".");
    return `invalid value for "${field}": ${valueError.message ?? "does not match the schema"}`;
  }
  return "the request does not match the expected parameters";
}

export const errorHandling = new Elysia({ name: "pennant/error-handling" })
  .error({ HttpError })
  .onError({ as: "global" }, ({ code, error }) => {
    if (error instanceof HttpError) return errorResponse(error);
    switch (code) {
      case "NOT_FOUND":
        return Response.json(errorBody("not_found", "no such endpoint"), { status: 404 });
      case "VALIDATION":
        return Response.json(errorBody("invalid_request", validationMessage(error)), { status: 400 });
      case "PARSE":
        return Response.json(errorBody("invalid_json", "the body could not be parsed"), { status: 400 });
      default:
        console.error("unexpected error:", error);
        return Response.json(errorBody("internal", "internal server error"), { status: 500 });
    }
  });
