// Signed endpoints of a game server's plugin: heartbeat, update, status read-back.

import { Elysia, t } from "elysia";
import { getServer, writeServerPush, type ServerFields, type ServerPushKind, type ServerRow } from "../store/servers.ts";
import { HttpError } from "./errors.ts";
import type { Payload } from "./payloads/payload.ts";
import { HEARTBEAT, UPDATE } from "./payloads/server.ts";
import { parseUuid } from "./uuid.ts";
import { acceptSignedPush, verifySignedRead, type SignedDeps, type SignedInput, type Socket } from "./signed-request.ts";
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

const SIGNED_HEADERS = t.Object({
  "x-server-uuid": t.Optional(t.String({ description: "Server UUID (or the legacy X-Server-Id)" })),
  "x-server-token": t.Optional(t.String({ description: "API token" })),
  "x-timestamp": t.Optional(t.String({ description: "Unix time, seconds or milliseconds" })),
  "x-signature": t.Optional(t.String({ description: "hex HMAC-SHA256 of timestamp.body" })),
});

function serverInput(request: Request, schemes: readonly SignatureScheme[]): SignedInput {
  return { scope: "server", subject: () => serverUuidFrom(request.headers), tokenHeader: "X-Server-Token", schemes };
}

const PUSH_PATHS: Record<ServerPushKind, string> = { heartbeat: "/api/server/heartbeat", update: "/api/server/update" };

export function serverView(row: ServerRow) {
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
  const updateSchemes: SignatureScheme[] = deps.config.legacySignatures ? ["standard", "legacy"] : ["standard"];

  async function push(request: Request, socket: Socket, kind: ServerPushKind, payload: Payload<ServerFields>) {
    const schemes = kind === "update" ? updateSchemes : (["standard"] as const);
    const input = { ...serverInput(request, schemes), route: `POST ${PUSH_PATHS[kind]}`, payload };
    const maxPerToken = deps.config.maxServersPerToken;
    await acceptSignedPush(request, socket, input, deps, (tx, { tokenId, subject: uuid, fields, now }) =>
      writeServerPush(tx, { uuid, tokenId, now, kind, fields, maxPerToken }),
    );
  }

  return new Elysia()
    .post(
      PUSH_PATHS.heartbeat,
      async ({ request, server }) => {
        await push(request, server, "heartbeat", HEARTBEAT);
        return { message: "Heartbeat received." };
      },
      { parse: "none", body: HEARTBEAT.schema, headers: SIGNED_HEADERS, detail: { summary: "Keep-alive of a server", tags: ["server"] } },
    )
    .post(
      PUSH_PATHS.update,
      async ({ request, server }) => {
        await push(request, server, "update", UPDATE);
        return { message: "Server data updated." };
      },
      { parse: "none", body: UPDATE.schema, headers: SIGNED_HEADERS, detail: { summary: "Full stats update of a server", tags: ["server"] } },
    )
    .get(
      "/api/server/status",
      async ({ request, server }) => {
        const { auth, subject } = await verifySignedRead(request, server, serverInput(request, ["standard"]), deps);
        const row = getServer(deps.db, subject);
        // Another token's server answers like one that does not exist, so a
        // read cannot tell which UUIDs are in use.
        if (!row || row.tokenId !== auth.tokenId) {
          throw new HttpError(404, "unknown_server", "this token has pushed no data for this server");
        }
        return serverView(row);
      },
      { headers: SIGNED_HEADERS, detail: { summary: "The data the service holds for a server", tags: ["server"] } },
    );
}
