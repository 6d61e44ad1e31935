// Bodies of the server endpoints: their schemas, mapped onto store fields.
// Every field is optional (a push carries what changed) and unknown fields are
// ignored, so that newer plugin builds keep working. Text over its bound is
// cut to it, a MOTD keeping whole § codes; a placeholder over its bound is
// dropped (trim-to-bounds.ts).

import { Type, type Static } from "@sinclair/typebox";
import { EDITIONS } from "../../minecraft/edition.ts";
import { cutFormatted } from "../../minecraft/format.ts";
import { definedOnly } from "../../store/defined.ts";
import type { ServerFields } from "../../store/records.ts";
import { cutBy } from "./trim-to-bounds.ts";
import { namedEntries, openObject, optional, payload, present, type Payload } from "./payload.ts";

const MAX_PLAYERS = 1_000_000_000;
const MAX_TPS = 1_000;

export const SERVER_TEXT_LIMITS = { name: 128, pluginVersion: 64, status: 32, motd: 1_024, version: 128, address: 260 };

const text = (maxLength: number, description: string) => optional(Type.String({ maxLength, description }));
const motd = (description: string) =>
  optional(cutBy(cutFormatted, Type.String({ maxLength: SERVER_TEXT_LIMITS.motd, description: `${description}; longer is cut keeping whole § codes` })));
const players = (description: string) => optional(Type.Integer({ minimum: 0, maximum: MAX_PLAYERS, description }));
const tps = (description: string) => optional(Type.Number({ minimum: 0, maximum: MAX_TPS, description }));

const HEARTBEAT_FIELDS = {
  name: text(SERVER_TEXT_LIMITS.name, "Server name"),
  plugin_version: text(SERVER_TEXT_LIMITS.pluginVersion, "Version of the pushing plugin"),
  status: text(SERVER_TEXT_LIMITS.status, 'Status, stored lower-case; banners read "online" and "offline"'),
};

export const HEARTBEAT_BODY = openObject(HEARTBEAT_FIELDS, { title: "Heartbeat" });

export const SERVER_UPDATE_BODY = openObject(
  {
    ...HEARTBEAT_FIELDS,
    address: text(SERVER_TEXT_LIMITS.address, "How players join (host or host:port), drawn on banners as they type it"),
    edition: optional(
      Type.Union(EDITIONS.map((edition) => Type.Literal(edition)), {
        description: "The server's game: java or bedrock (Minecraft) or hytale; its default port is left out of the join address, its icon drawn when none is given. Kept until another is sent; none sent: java",
      }),
    ),
    stats: optional(
      openObject({
        players: optional(openObject({ online: players("Players online"), max: players("Player slots") })),
        tps: tps("Ticks per second"),
        motd: motd("Message of the day (§ colour codes allowed)"),
        version: text(SERVER_TEXT_LIMITS.version, "Game version"),
      }),
    ),
  },
  { title: "ServerUpdate" },
);

/**
 * The body of deployed EzBanners plugin builds (its public source, plugin
 * 0.2.1: test/support/ezbanners-client.ts writes it byte for byte), any
 * field missing. Told apart by `data` present and `stats` absent.
 */
export const LEGACY_UPDATE_BODY = openObject(
  {
    data: openObject({
      server_name: text(SERVER_TEXT_LIMITS.name, "Server name (the plugin sends the server software's name)"),
      online_players: players("Players online"),
      max_players: players("Player slots"),
      server_version: text(SERVER_TEXT_LIMITS.version, "Game version"),
      tps_1m: tps("Ticks per second, last minute"),
      tps_5m: tps("Ticks per second, last 5 minutes"),
      tps_15m: tps("Ticks per second, last 15 minutes"),
      uptime: optional(Type.Number({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: "Uptime in milliseconds" })),
      motd: motd('Message of the day, lines joined by "\\n"'),
      whitelist: optional(Type.Boolean({ description: "Whether the whitelist is on" })),
      placeholders: optional(
        namedEntries(
          Type.Union([Type.String({ maxLength: 256 }), Type.Number(), Type.Boolean()]),
          { maxEntries: 64, minName: 0, maxName: 64 },
          "Placeholder values shown as text; numbers and booleans are kept as they are. An entry whose name or text is over its bound is dropped, then the first 64 are kept",
        ),
      ),
    }),
  },
  { title: "LegacyServerUpdate", description: "Body of deployed EzBanners plugin builds; a server that pushes its stats is online" },
);

export const UPDATE_BODY = Type.Union([SERVER_UPDATE_BODY, LEGACY_UPDATE_BODY]);

function heartbeatFields(body: Static<typeof HEARTBEAT_BODY>): ServerFields {
  return {
    name: present(body.name),
    pluginVersion: present(body.plugin_version),
    // Stored lower-case: banners compare it with "online"/"offline".
    status: present(body.status)?.trim().toLowerCase(),
  };
}

function updateFields(body: Static<typeof SERVER_UPDATE_BODY>): ServerFields {
  const stats = body.stats ?? undefined;
  const players = stats?.players ?? undefined;
  const address = present(body.address);
  const edition = present(body.edition);
  const extra = definedOnly({ address, edition });
  return {
    ...heartbeatFields(body),
    playersOnline: present(players?.online),
    playersMax: present(players?.max),
    tps: present(stats?.tps),
    motd: present(stats?.motd),
    version: present(stats?.version),
    // Kept with the extra stats (resolve-banner-data.ts reads them there): no columns of their own.
    extra: Object.keys(extra).length > 0 ? extra : undefined,
  };
}

/** A server that pushes its stats is running, so the status is "online". */
function legacyFields({ data }: Static<typeof LEGACY_UPDATE_BODY>): ServerFields {
  const extra = definedOnly({
    tps_5m: present(data.tps_5m),
    tps_15m: present(data.tps_15m),
    uptime_ms: present(data.uptime),
    whitelist: present(data.whitelist),
    placeholders: present(data.placeholders),
  });
  return {
    name: present(data.server_name),
    status: "online",
    playersOnline: present(data.online_players),
    playersMax: present(data.max_players),
    tps: present(data.tps_1m),
    motd: present(data.motd),
    version: present(data.server_version),
    extra: Object.keys(extra).length > 0 ? extra : undefined,
  };
}

export const HEARTBEAT: Payload<ServerFields> = payload(HEARTBEAT_BODY, heartbeatFields);

const SERVER_UPDATE = payload(SERVER_UPDATE_BODY, updateFields);
const LEGACY_UPDATE = payload(LEGACY_UPDATE_BODY, legacyFields);

function isLegacy(json: unknown): boolean {
  if (json === null || typeof json !== "object") return false;
  const body = json as Record<string, unknown>;
  return body.data !== undefined && body.data !== null && body.stats === undefined;
}

/** Update: the documented body, or the legacy {"data": {...}} of deployed plugin builds. */
export const UPDATE: Payload<ServerFields> = {
  schema: UPDATE_BODY,
  read: (json) => (isLegacy(json) ? LEGACY_UPDATE : SERVER_UPDATE).read(json),
};
