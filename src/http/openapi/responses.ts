// The responses a route declares in its `detail` (OpenAPI response objects
// holding TypeBox schemas): what it answers on success, and the error codes
// it can answer with, by status, each in the one error shape of errors.ts.

import { Type, type TSchema } from "@sinclair/typebox";

export type ErrorStatus = 400 | 401 | 403 | 404 | 413 | 415 | 429 | 503;

/** The error codes a route can answer with, by status. */
export type ErrorCodes = Partial<Record<ErrorStatus, readonly string[]>>;

const STATUS_TEXT: Record<ErrorStatus, string> = {
  400: "Bad request",
  401: "Not authenticated",
  403: "Forbidden",
  404: "Not found",
  413: "Body too large",
  415: "Body not sent as JSON",
  429: "Rate limited; Retry-After says when to try again",
  503: "Database unavailable; Retry-After says when to try again",
};

const RETRY_AFTER = { "Retry-After": { description: "Seconds to wait", schema: Type.Integer({ minimum: 0 }) } };
const BINARY = Type.String({ format: "binary" });

/** The error shape, with the codes this status can carry. */
export function errorSchema(codes: readonly string[]) {
  return Type.Object(
    {
      error: Type.Object({
        code: literals(codes, { description: "Stable identifier clients may switch on" }),
        message: Type.String({ description: "One line for humans" }),
      }),
    },
    { title: "Error" },
  );
}

/** A code-to-status table turned around: the codes at each status. */
export function codesByStatus(statuses: Readonly<Record<string, ErrorStatus>>): ErrorCodes {
  const codes: ErrorCodes = {};
  for (const [code, status] of Object.entries(statuses)) codes[status] = [...(codes[status] ?? []), code];
  return codes;
}

/** One of a few strings. */
export function literals(values: readonly string[], options: { description?: string } = {}) {
  return Type.Union(values.map((value) => Type.Literal(value)), options);
}

/** A value or JSON null. */
export function nullable<S extends TSchema>(schema: S) {
  return Type.Union([schema, Type.Null()]);
}

/** Several routes' codes together (a route's own plus the signed pipeline's, say). */
export function mergeCodes(...tables: ErrorCodes[]): ErrorCodes {
  const merged: ErrorCodes = {};
  for (const table of tables) {
    for (const [status, codes] of Object.entries(table) as Array<[`${ErrorStatus}`, readonly string[]]>) {
      merged[Number(status) as ErrorStatus] = [...new Set([...(merged[Number(status) as ErrorStatus] ?? []), ...codes])];
    }
  }
  return merged;
}

/**
 * Where a client that asked for an image (banners: Accept names image/*;
 * badges: .png) gets a PNG stating the problem: as well as the JSON error
 * ("also") or in its place ("only"), and when.
 */
export interface ImageErrors {
  statuses: Partial<Record<ErrorStatus, "also" | "only">>;
  when: string;
}

/** The error responses of a route, one per status, each listing its codes. */
export function errorResponses(codes: ErrorCodes, images: ImageErrors = { statuses: {}, when: "" }) {
  return Object.fromEntries(
    (Object.entries(codes) as Array<[`${ErrorStatus}`, readonly string[]]>).map(([key, list]) => {
      const status = Number(key) as ErrorStatus;
      const image = images.statuses[status];
      return [
        status,
        {
          description: `${STATUS_TEXT[status]}: ${list.join(", ")}${image ? `. ${images.when}` : ""}`,
          ...(status === 429 || status === 503 ? { headers: RETRY_AFTER } : {}),
          content: {
            ...(image === "only" ? {} : { "application/json": { schema: errorSchema(list) } }),
            ...(image ? { "image/png": { schema: BINARY } } : {}),
          },
        },
      ];
    }),
  );
}

export function jsonSuccess(description: string, schema: TSchema) {
  return { description, content: { "application/json": { schema } } };
}

/** A successful image with its strong ETag; `alternatives`: other media types the route may answer with instead. */
export function imageSuccess(description: string, types: readonly string[], alternatives: Record<string, { schema: TSchema }> = {}) {
  return {
    description,
    headers: { ETag: { description: "Strong ETag of what the image shows; send it as If-None-Match", schema: Type.String() } },
    content: { ...Object.fromEntries(types.map((type) => [type, { schema: BINARY }])), ...alternatives },
  };
}

export const NOT_MODIFIED = { description: "Not modified: If-None-Match names the current ETag (no body, nothing drawn)" };
