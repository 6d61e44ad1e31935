// Signed endpoints of a game server's plugin: heartbeat, update, status read-back.

import { Type, type Static } from "@sinclair/typebox";
import { Elysia, t } from "elysia";
import type { ServerFields, ServerPushKind, ServerRow } from "../store/records.ts";
import { HttpError } from "./errors.ts";
import type { Payload } from "./payloads/payload.ts";
import { HEARTBEAT, UPDATE } from "./payloads/server.ts";
import { parseUuid } from "./uuid.ts";
import { errorResponses, jsonSuccess, mergeCodes, nullable } from "./openapi/responses.ts";
import {
  ACCEPTED_ONCE, MAX_BODY_BYTES, SIGNED_PUSH_ERRORS, SIGNED_READ_ERRORS, STANDARD_SIGNATURE, acceptSignedPush, pushAccepted, pushAnswer, signedHeaders, verifySignedRead,
  type SignedDeps, type SignedInput, type Socket,
} from "./signed-request.ts";
import type { SignatureScheme } from "../auth/signature.ts";

/** X-Server-UUID, or the legacy X-Server-Id; lower-cased. */
export function serverUuidFrom(headers: Headers): string {
  const uuid = headers.get("x-server-uuid")?.trim().toLowerCase();
  const id = headers.get("x-server-id")?.trim().toLowerCase();
  if (uuid && id && uuid !== id) {
    throw new HttpError(400, "invalid_server_uuid", "X-Server-UUID and X-Server-Id name different servers");
  }
  const value = uuid || id;
  if (!value) throw new HttpError(401, "missing_headers", "missing header: X-Server-UUID (or X-Server-Id)");
  const parsed = parseUuid(value);
  if (!parsed) throw new HttpError(400, "invalid_server_uuid", "X-Server-UUID must be a UUID");
  return parsed;
}

const SERVER_UUID_HEADERS = {
  "x-server-uuid": t.String({ format: "uuid", description: "The server's UUID, in any case" }),
  "x-server-id": t.Optional(t.String({ format: "uuid", description: "Legacy spelling of X-Server-UUID, accepted in its place; both must agree" })),
};

const SIGNED_HEADERS = signedHeaders("X-Server-Token", SERVER_UUID_HEADERS, STANDARD_SIGNATURE);
const UPDATE_HEADERS = signedHeaders(
  "X-Server-Token",
  SERVER_UUID_HEADERS,
  `${STANDARD_SIGNATURE}; also, unless PENNANT_LEGACY_SIGNATURES=off, of the raw body alone (deployed EzBanners builds)`,
);
const READ_HEADERS = signedHeaders("X-Server-Token", SERVER_UUID_HEADERS, 'hex HMAC-SHA256 (either case) of X-Timestamp + "." (the body is empty), keyed with the token');

const SERVER_UUID_ERRORS = { 400: ["invalid_server_uuid"] } as const;

const PUSH_DESCRIPTION =
  `${ACCEPTED_ONCE} Every field is optional: a field left out (or null) keeps its stored value; unknown fields are ignored. ` +
  "The body is checked against its schema only once the signature holds. The first accepted push binds the server to the token. " +
  "Text over its maxLength is not refused: it is cut to it (a MOTD keeping whole § codes); a placeholder whose name or text is over its bound " +
  "is dropped, and the first 64 placeholders are kept. The answer's trimmed names each field cut or dropped; the rest is stored. " +
  "Only a body of the wrong shape (a wrong type, a number out of range, nesting, keys or items over the JSON bounds) is refused, and then nothing is stored.";

/** GET /api/server/status: what the service holds for a server. */
export const SERVER_VIEW = Type.Object(
  {
    uuid: Type.String({ format: "uuid" }),
    name: nullable(Type.String()),
    status: nullable(Type.String({ description: "As last pushed, lower-case" })),
    plugin_version: nullable(Type.String()),
    stats: Type.Object(
      {
        players: Type.Object({ online: Type.Integer({ minimum: 0 }), max: Type.Integer({ minimum: 0 }) }),
        tps: nullable(Type.Number()),
        motd: nullable(Type.String()),
        version: nullable(Type.String()),
      },
      { additionalProperties: true, description: "Also the address and edition an update sent, and the further stats of legacy updates: tps_5m, tps_15m, uptime_ms, whitelist, placeholders" },
    ),
    first_seen: Type.String({ format: "date-time" }),
    last_seen: Type.String({ format: "date-time" }),
  },
  { title: "ServerStatus" },
);

function serverInput(request: Request, schemes: readonly SignatureScheme[]): SignedInput {
  return { scope: "server", subject: () => serverUuidFrom(request.headers), tokenHeader: "X-Server-Token", schemes };
}

const PUSH_PATHS: Record<ServerPushKind, string> = { heartbeat: "/api/server/heartbeat", update: "/api/server/update" };

/**
 * An update's body may be four times the others' bound: the deployed EzBanners
 * plugin puts every PlaceholderAPI value its config lists in it, which it cannot
 * shorten (300 placeholders of 257-300 characters make 81-94 KB), and resends a
 * refused body for ever. What is kept is trimmed to the stored bounds as in any
 * push (payloads/server.ts: 64 placeholders of 256 characters), so a larger body
 * stores no more.
 */
export const MAX_UPDATE_BODY_BYTES = 256 * 1024;

/** The paths whose bodies are not bound by MAX_BODY_BYTES, with their own bound (the app's body limit reads it). */
export const LARGER_BODIES: ReadonlyMap<string, number> = new Map([[PUSH_PATHS.update, MAX_UPDATE_BODY_BYTES]]);

export function serverView(row: ServerRow): Static<typeof SERVER_VIEW> {
  return {
    uuid: row.uuid,
    name: row.name,
    status: row.status,
    plugin_version: row.pluginVersion,
    stats: {
      players: { online: row.playersOnline ?? 0, max: row.playersMax ?? 0 },
      tps: row.tps,
      motd: row.motd,
      version: row.version,
      ...(row.extra ?? {}),
    },
    first_seen: new Date(row.firstSeen).toISOString(),
    last_seen: new Date(row.lastSeen).toISOString(),
  };
}

export function serverRoutes(deps: SignedDeps) {
  // The plugin's routes keep the older schemes beside the request scheme (auth/signature.ts): each needs a JSON body, or reads.
  const updateSchemes: SignatureScheme[] = deps.config.legacySignatures ? ["request", "standard", "legacy"] : ["request", "standard"];

  function push(request: Request, socket: Socket, kind: ServerPushKind, payload: Payload<ServerFields>) {
    const schemes = kind === "update" ? updateSchemes : (["request", "standard"] as const);
    const input = { ...serverInput(request, schemes), route: `POST ${PUSH_PATHS[kind]}`, payload, maxBodyBytes: LARGER_BODIES.get(PUSH_PATHS[kind]) };
    const maxPerToken = deps.config.maxServersPerToken;
    return acceptSignedPush(request, socket, input, deps, (uuid, fields) => ({ kind: "server", uuid, serverPush: kind, fields, maxPerToken }));
  }

  return new Elysia()
    .post(
      PUSH_PATHS.heartbeat,
      async ({ request, server, set }) => pushAnswer(set, "Heartbeat received.", await push(request, server, "heartbeat", HEARTBEAT)),
      {
        parse: "none",
        body: HEARTBEAT.schema,
        headers: SIGNED_HEADERS,
        detail: {
          summary: "Keep-alive of a server: name, plugin version, status",
          description: PUSH_DESCRIPTION,
          tags: ["server"],
          responses: { 200: pushAccepted("Heartbeat received."), ...errorResponses(mergeCodes(SIGNED_PUSH_ERRORS, SERVER_UUID_ERRORS)) },
        },
      },
    )
    .post(
      PUSH_PATHS.update,
      async ({ request, server, set }) => pushAnswer(set, "Server data updated.", await push(request, server, "update", UPDATE)),
      {
        parse: "none",
        body: UPDATE.schema,
        headers: UPDATE_HEADERS,
        detail: {
          summary: "Full stats update of a server (players, TPS, MOTD, version); writes the history sample of its minute",
          description:
            `${PUSH_DESCRIPTION} Deployed EzBanners builds send {"data": {...}} instead (LegacyServerUpdate), told apart by "data" present and "stats" absent. ` +
            `The body may be up to ${MAX_UPDATE_BODY_BYTES} bytes, for the PlaceholderAPI values a plugin relays (other endpoints take ${MAX_BODY_BYTES}); larger is 413 payload_too_large.`,
          tags: ["server"],
          responses: { 200: pushAccepted("Server data updated."), ...errorResponses(mergeCodes(SIGNED_PUSH_ERRORS, SERVER_UUID_ERRORS)) },
        },
      },
    )
    .get(
      "/api/server/status",
      async ({ request, server }) => {
        const { auth, subject } = await verifySignedRead(request, server, serverInput(request, ["request", "standard"]), deps);
        const row = await deps.store.servers.get(subject);
        // Another token's server answers like one that does not exist, so a
        // read cannot tell which UUIDs are in use.
        if (!row || row.tokenId !== auth.tokenId) {
          throw new HttpError(404, "unknown_server", "this token has pushed no data for this server");
        }
        return serverView(row);
      },
      {
        headers: READ_HEADERS,
        detail: {
          summary: "The data the service holds for a server",
          description: "Signed like a push, over an empty body; a read changes nothing and is not remembered. Another token's server answers 404 like an unknown one.",
          tags: ["server"],
          responses: {
            200: jsonSuccess("The server's record", SERVER_VIEW),
            ...errorResponses(mergeCodes(SIGNED_READ_ERRORS, SERVER_UUID_ERRORS, { 404: ["unknown_server"] })),
          },
        },
      },
    );
}
