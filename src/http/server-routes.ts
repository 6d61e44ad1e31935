// Signed endpoints of a game server's plugin: heartbeat, update, status read-back.

import { Elysia, t } from "elysia";
import { acceptPush } from "../store/push.ts";
import { getServer, writeServerPush, type ServerFields, type ServerPushKind, type ServerRow } from "../store/servers.ts";
import { HttpError } from "./errors.ts";
import { parseHeartbeat, parseUpdate } from "./payloads/server.ts";
import { parseUuid } from "./uuid.ts";
import { asHttpError, verifySignedRequest, type SignedDeps, type SignedInput } from "./signed-request.ts";
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

function serverInput(uuid: string, schemes: readonly SignatureScheme[], hasBody: boolean): SignedInput {
  return { scope: "server", subject: uuid, tokenHeader: "X-Server-Token", schemes, hasBody };
}

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

  async function push(request: Request, kind: ServerPushKind, parse: (json: unknown) => ServerFields) {
    const uuid = serverUuidFrom(request.headers);
    const schemes = kind === "update" ? updateSchemes : (["standard"] as const);
    const { auth, json, now } = await verifySignedRequest(request, serverInput(uuid, schemes, true), deps);
    try {
      const fields = parse(json);
      acceptPush(deps.db, auth, now, (tx, tokenId) => writeServerPush(tx, { uuid, tokenId, now, kind, fields }));
    } catch (error) {
      throw asHttpError(error);
    }
  }

  return new Elysia()
    .post(
      "/api/server/heartbeat",
      async ({ request }) => {
        await push(request, "heartbeat", parseHeartbeat);
        return { message: "Heartbeat received." };
      },
      { parse: "none", headers: SIGNED_HEADERS, detail: { summary: "Keep-alive of a server", tags: ["server"] } },
    )
    .post(
      "/api/server/update",
      async ({ request }) => {
        await push(request, "update", parseUpdate);
        return { message: "Server data updated." };
      },
      { parse: "none", headers: SIGNED_HEADERS, detail: { summary: "Full stats update of a server", tags: ["server"] } },
    )
    .get(
      "/api/server/status",
      async ({ request }) => {
        const uuid = serverUuidFrom(request.headers);
        const { auth, now } = await verifySignedRequest(request, serverInput(uuid, ["standard"], false), deps);
        const row = getServer(deps.db, uuid);
        if (!row) throw new HttpError(404, "unknown_server", "no data has been pushed for this server yet");
        try {
          // Reading consumes the signature too, so a captured read cannot be replayed.
          acceptPush(deps.db, auth, now, (_tx, tokenId) => {
            if (row.tokenId !== tokenId) throw new HttpError(403, "not_owner", "this server is bound to another token");
          });
        } catch (error) {
          throw asHttpError(error);
        }
        return serverView(row);
      },
      { headers: SIGNED_HEADERS, detail: { summary: "The data the service holds for a server", tags: ["server"] } },
    );
}
