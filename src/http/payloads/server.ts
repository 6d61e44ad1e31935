// Bodies of the server endpoints, validated and mapped onto store fields.

import { definedOnly } from "../../store/defined.ts";
import type { ServerFields } from "../../store/servers.ts";
import { FieldReader, PayloadError, asObject } from "./reader.ts";

const MAX_PLAYERS = 1_000_000_000;
const MAX_TPS = 1_000;

export const SERVER_TEXT_LIMITS = { name: 128, pluginVersion: 64, status: 32, motd: 1_024, version: 128 };

function status(reader: FieldReader): string | undefined {
  const value = reader.string("status", SERVER_TEXT_LIMITS.status);
  // Stored lower-case: banners compare it with "online"/"offline".
  return value?.trim().toLowerCase();
}

/** Heartbeat: {name, plugin_version, status}. */
export function parseHeartbeat(body: unknown): ServerFields {
  const reader = new FieldReader(asObject(body, ""));
  return {
    name: reader.string("name", SERVER_TEXT_LIMITS.name),
    pluginVersion: reader.string("plugin_version", SERVER_TEXT_LIMITS.pluginVersion),
    status: status(reader),
  };
}

/**
 * Update: {name, plugin_version, status, stats: {players: {online, max}, tps, motd, version}},
 * or the body of deployed plugin builds, {"data": {...}} (see parseLegacyUpdate).
 */
export function parseUpdate(body: unknown): ServerFields {
  const reader = new FieldReader(asObject(body, ""));
  const legacy = reader.object("data");
  if (legacy && reader.value.stats === undefined) return parseLegacyUpdate(legacy);

  const stats = reader.object("stats");
  const players = stats?.object("players");
  return {
    ...parseHeartbeat(body),
    playersOnline: players?.integer("online", 0, MAX_PLAYERS),
    playersMax: players?.integer("max", 0, MAX_PLAYERS),
    tps: stats?.number("tps", 0, MAX_TPS),
    motd: stats?.string("motd", SERVER_TEXT_LIMITS.motd),
    version: stats?.string("version", SERVER_TEXT_LIMITS.version),
  };
}

/**
 * {"data": {server_name, online_players, max_players, server_version, tps_1m,
 * tps_5m, tps_15m, uptime, motd, whitelist, placeholders}}, any field missing.
 * A server that pushes its stats is running, so the status is "online".
 */
function parseLegacyUpdate(data: FieldReader): ServerFields {
  const extra = {
    tps_5m: data.number("tps_5m", 0, MAX_TPS),
    tps_15m: data.number("tps_15m", 0, MAX_TPS),
    uptime_ms: data.number("uptime", 0, Number.MAX_SAFE_INTEGER),
    whitelist: data.boolean("whitelist"),
    placeholders: placeholders(data),
  };
  const presentExtra = definedOnly(extra);
  return {
    name: data.string("server_name", SERVER_TEXT_LIMITS.name),
    status: "online",
    playersOnline: data.integer("online_players", 0, MAX_PLAYERS),
    playersMax: data.integer("max_players", 0, MAX_PLAYERS),
    tps: data.number("tps_1m", 0, MAX_TPS),
    motd: data.string("motd", SERVER_TEXT_LIMITS.motd),
    version: data.string("server_version", SERVER_TEXT_LIMITS.version),
    extra: Object.keys(presentExtra).length > 0 ? presentExtra : undefined,
  };
}

/** Placeholder values are shown as text; numbers and booleans are kept as they are. */
function placeholders(data: FieldReader): Record<string, string | number | boolean> | undefined {
  const reader = data.object("placeholders");
  if (!reader) return undefined;
  const entries = Object.entries(reader.value);
  if (entries.length > 64) throw new PayloadError(reader.path, "must have at most 64 entries");
  for (const [key, value] of entries) {
    const ok = typeof value === "number" || typeof value === "boolean" || (typeof value === "string" && value.length <= 256);
    if (!ok || key.length > 64) throw new PayloadError(reader.field(key), "must be a short string, number or boolean");
  }
  return reader.value as Record<string, string | number | boolean>;
}
