// One error shape for every JSON endpoint: {"error": {"code": "...", "message": "..."}}.
// Codes are stable identifiers that clients may switch on; messages are for humans.

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
    /** For the request's log line only, never the answer. */
    readonly logDetail?: string,
  ) {
    super(message);
    this.name = "HttpError";
  }
}

export interface ErrorBody {
  error: { code: string; message: string };
}

export function errorBody(code: string, message: string): ErrorBody {
  return { error: { code, message } };
}

export function errorResponse(error: HttpError): Response {
  return Response.json(errorBody(error.code, error.message), {
    status: error.status,
    headers: error.headers,
  });
}
