// The administrator's endpoints (the console's Admin tab): list, create and
// revoke API tokens, as `pennant token list|create|revoke` do on the
// database. They exist only while PENNANT_ADMIN_TOKEN is set: without it
// serve does not register them, and they answer 404 as any unknown path.
// Authenticated, bounded and logged by admin-request.ts.

import { Type } from "@sinclair/typebox";
import { Elysia, t } from "elysia";
import { generateToken, hashToken, TOKEN_SCOPES, type TokenScope } from "../auth/token.ts";
import type { TokenRow } from "../store/records.ts";
import { ReplayError, UnknownTokenError } from "../store/write-refusals.ts";
import { acceptAdminRequest, audited, MAX_ADMIN_BODY_BYTES, type AdminDeps } from "./admin-request.ts";
import { HttpError } from "./errors.ts";
import { errorResponses, jsonSuccess, literals, mergeCodes, nullable } from "./openapi/responses.ts";
import { DUPLICATE_HEADER, SIGNED_READ_ERRORS } from "./signed-request.ts";
import { REQUEST_SCHEME_VERSION } from "../auth/signature.ts";

export const ADMIN_PATHS = { tokens: "/api/admin/tokens", token: "/api/admin/tokens/:id" } as const;

/** The longest label kept with a token: enough to name a server, a person or a machine. */
export const MAX_LABEL_CHARS = 100;

/** Signed over method and path with PENNANT_ADMIN_TOKEN as the key, which is never sent (admin-request.ts). */
const HEADERS = t.NoValidate(
  t.Object({
    "x-timestamp": t.String({ pattern: "^[0-9]{1,16}$", description: "Unix time in seconds (values above 10^12 are read as milliseconds), within PENNANT_CLOCK_SKEW of the server's clock" }),
    "x-signature": t.String({
      pattern: "^[0-9a-fA-F]{64}$",
      description: 'Hex HMAC-SHA256 (either case) of the method + " " + the path and query as sent + "\\n" + X-Timestamp + "." + the raw body (empty without one), keyed with PENNANT_ADMIN_TOKEN (never sent itself)',
    }),
    "x-signature-version": t.Literal(REQUEST_SCHEME_VERSION, { description: "2: the only signature admin requests take" }),
  }),
);

const ADMIN_ERRORS = mergeCodes(
  { 401: SIGNED_READ_ERRORS[401]!.filter((code) => code !== "unknown_token") },
  { 413: ["payload_too_large"], 429: ["rate_limited"], 503: ["database_unavailable"] },
);

const ORIGIN_WORDS = { cli: "operator", registration: "registration" } as const;

const TOKEN = Type.Object(
  {
    id: Type.Integer(),
    label: Type.String(),
    scope: literals(TOKEN_SCOPES),
    origin: literals(["operator", "registration"], { description: "operator: made by `token create` or this API; registration: by a first push under open registration" }),
    created_at: Type.String({ format: "date-time" }),
    last_used_at: nullable(Type.String({ format: "date-time", description: "Its last accepted push, to the minute" })),
    revoked_at: nullable(Type.String({ format: "date-time" })),
  },
  { title: "ApiToken" },
);

const NEW_TOKEN = Type.Object(
  {
    label: Type.Optional(Type.String({ maxLength: MAX_LABEL_CHARS, description: "What the token is for; whitespace around it dropped" })),
    scope: Type.Optional(literals(TOKEN_SCOPES, { description: "What it may sign: server pushes, plugin pushes, or both (all, the default)" })),
  },
  { title: "NewApiToken", additionalProperties: true },
);

const CREATED = Type.Object(
  { ...TOKEN.properties, token: Type.String({ description: "The token itself: shown only in this answer (Pennant keeps its SHA-256 hash)" }) },
  { title: "ApiTokenCreated" },
);

const ID_PARAMS = t.Object({ id: t.String({ description: "The token's id (GET /api/admin/tokens)" }) });

const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString());

function listed(row: TokenRow) {
  return {
    id: row.id, label: row.label, scope: row.scope, origin: ORIGIN_WORDS[row.origin],
    created_at: new Date(row.createdAt).toISOString(), last_used_at: iso(row.lastUsedAt), revoked_at: iso(row.revokedAt),
  };
}

/** The token asked for, or a 400 naming what is wrong; nothing is stored then. */
function asked(json: unknown): { label: string; scope: TokenScope } {
  const invalid = (message: string) => new HttpError(400, "invalid_payload", `${message}; nothing was stored`);
  if (typeof json !== "object" || json === null || Array.isArray(json)) throw invalid("the body must be a JSON object");
  const { label = "", scope = "all" } = json as Record<string, unknown>;
  if (typeof label !== "string" || label.trim().length > MAX_LABEL_CHARS) throw invalid(`label must be text of at most ${MAX_LABEL_CHARS} characters`);
  if (!TOKEN_SCOPES.includes(scope as TokenScope)) throw invalid(`scope must be one of ${TOKEN_SCOPES.join(", ")}`);
  return { label: label.trim(), scope: scope as TokenScope };
}

/** The id of the path, or a 404 as for a token that does not exist. */
function tokenId(raw: string): number {
  const id = /^[1-9]\d{0,14}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id)) throw new HttpError(404, "unknown_token_id", "no active token has this id");
  return id;
}

export function adminRoutes(deps: AdminDeps) {
  const detail = (summary: string, description: string) => ({ summary, description: `${description} Exists only while PENNANT_ADMIN_TOKEN is set.`, tags: ["admin"] });
  return new Elysia({ name: "pennant/admin" })
    .get(
      ADMIN_PATHS.tokens,
      async ({ request, server, set }) => {
        const answer = await audited(request, server, deps, async () => {
          await acceptAdminRequest(request, server, { route: `GET ${ADMIN_PATHS.tokens}`, changes: false, json: false }, deps);
          return { status: 200, body: { tokens: (await deps.store.tokens.list()).map(listed) } };
        });
        set.status = answer.status;
        return answer.body;
      },
      {
        headers: HEADERS,
        detail: {
          ...detail("Every API token: id, label, scope, origin, when made, last used and revoked (never the token)", "Signed with PENNANT_ADMIN_TOKEN as the key (docs/console.md)."),
          responses: { 200: jsonSuccess("The tokens, the oldest first", Type.Object({ tokens: Type.Array(TOKEN) })), ...errorResponses(ADMIN_ERRORS) },
        },
      },
    )
    .post(
      ADMIN_PATHS.tokens,
      async ({ request, server, set }) => {
        const answer = await audited(request, server, deps, async (note) => {
          const signed = await acceptAdminRequest(request, server, { route: `POST ${ADMIN_PATHS.tokens}`, changes: true, json: true }, deps);
          const { label, scope } = asked(signed.json);
          // The token is shown in the first answer only: an exact resend cannot be answered alike.
          const refusedAgain = () => new HttpError(401, "replayed_request", "this request already created a token, shown only in its answer; sign a new request to create another");
          if (signed.seen === "duplicate") throw refusedAgain();
          const secret = generateToken();
          let row: TokenRow | "duplicate";
          try {
            row = await deps.store.tokens.createOnce({ hash: hashToken(secret), scope, label, now: signed.now }, signed.replay);
          } catch (error) {
            if (error instanceof ReplayError) throw new HttpError(401, "replayed_request", error.message);
            throw error;
          }
          if (row === "duplicate") throw refusedAgain();
          note({ token_id: row.id });
          return { status: 201, body: { ...listed(row), token: secret } };
        });
        set.status = answer.status;
        return answer.body;
      },
      {
        parse: "none",
        body: NEW_TOKEN,
        headers: HEADERS,
        detail: {
          ...detail(
            "Create an API token; the answer shows it, once",
            `Signed with PENNANT_ADMIN_TOKEN as the key, and accepted once: the same request again is a 401 replayed_request (the token was shown in the first answer only). Body at most ${MAX_ADMIN_BODY_BYTES} bytes.`,
          ),
          responses: {
            201: jsonSuccess("Created", CREATED),
            ...errorResponses(mergeCodes(ADMIN_ERRORS, { 400: ["invalid_json", "invalid_payload"], 401: ["replayed_request"], 415: ["unsupported_media_type"] })),
          },
        },
      },
    )
    .delete(
      ADMIN_PATHS.token,
      async ({ request, server, params, set }) => {
        const answer = await audited(request, server, deps, async (note) => {
          const id = tokenId(params.id);
          note({ token_id: id });
          const signed = await acceptAdminRequest(request, server, { route: `DELETE ${ADMIN_PATHS.token} ${id}`, changes: true, json: false }, deps);
          try {
            if ((await deps.store.tokens.revokeOnce(id, signed.now, signed.replay)) === "duplicate") set.headers[DUPLICATE_HEADER] = "true";
          } catch (error) {
            if (error instanceof UnknownTokenError) throw new HttpError(404, "unknown_token_id", "no active token has this id; nothing was changed");
            if (error instanceof ReplayError) throw new HttpError(401, "replayed_request", error.message);
            throw error;
          }
          return { status: 200, body: { message: "Token revoked." as const } };
        });
        set.status = answer.status;
        return answer.body;
      },
      {
        params: ID_PARAMS,
        headers: HEADERS,
        detail: {
          ...detail(
            "Revoke an API token: its signed requests are refused from now on (401 unknown_token), its records kept",
            "Signed with PENNANT_ADMIN_TOKEN as the key over the method and path with an empty body, and accepted once: an exact resend is answered alike with X-Duplicate: true.",
          ),
          responses: {
            200: jsonSuccess("Revoked, or an exact duplicate of a revocation already accepted", Type.Object({ message: Type.Literal("Token revoked.") })),
            ...errorResponses(mergeCodes(ADMIN_ERRORS, { 401: ["replayed_request"], 404: ["unknown_token_id"] })),
          },
        },
      },
    );
}
