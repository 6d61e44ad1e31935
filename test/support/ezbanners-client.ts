// The deployed EzBanners plugin's requests, byte for byte as its client sends
// them (its client compiled from the public source, plugin 0.2.1, and pointed
// at a server, read 2026-11-21). Its update: one POST, both UUID headers, the
// token itself in X-Server-Token, lowercase hex HMAC-SHA256 over the body
// alone, X-Timestamp in milliseconds and not signed. Its plugin data push:
// X-Plugin-Token, HMAC over seconds + "." + body, X-Timestamp in seconds (so
// two pushes of the same data within one second are byte-identical).

import { createHmac } from "node:crypto";

export interface PluginState {
  onlinePlayers: number;
  /** Left out of the body when the plugin's config switches uptime off. */
  uptime?: number;
  /** The server's MOTD, lines joined by "\n" ("§aWelcome\n§7Second line" unless given). */
  motd?: string;
  /** PlaceholderAPI values the plugin's config lists, by name (none unless given). */
  placeholders?: Record<string, string | number | boolean>;
}

/** JSON text with § written as \u00a7, as the plugin's JSON writer does. */
function pluginJson(value: unknown): string {
  return JSON.stringify(value).replaceAll("§", "\\u00a7");
}

/** The body as the plugin writes it, motd lines joined by "\n" and § kept (JSON-escaped). */
export function pluginUpdateBody(state: PluginState): string {
  const uptime = state.uptime === undefined ? "" : `"uptime":${state.uptime},`;
  const motd = pluginJson(state.motd ?? "§aWelcome\n§7Second line");
  return (
    `{"data":{"server_name":"Paper","online_players":${state.onlinePlayers},"max_players":50,` +
    `"server_version":"1.21.4-232-ab12cd3 (MC: 1.21.4)","tps_1m":19.97,"tps_5m":19.8,"tps_15m":19.91,${uptime}` +
    `"motd":${motd},"whitelist":true,"placeholders":${pluginJson(state.placeholders ?? {})}}}`
  );
}

export interface PluginUpdate {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** The request the plugin sends at `timestampMs`; fetch it with sendPluginUpdate (resend the same object to replay it). */
export function pluginUpdate(baseUrl: string, token: string, uuid: string, body: string, timestampMs: number, path = "/api/server/update"): PluginUpdate {
  return {
    url: baseUrl + path,
    body,
    headers: {
      "Content-Type": "application/json",
      "User-Agent": "EzBanners/1.0",
      "X-Server-UUID": uuid,
      "X-Server-Id": uuid,
      "X-Server-Token": token,
      "X-Signature": createHmac("sha256", Buffer.from(token, "utf8")).update(body, "utf8").digest("hex"),
      "X-Timestamp": String(timestampMs),
    },
  };
}

export function sendPluginUpdate(update: PluginUpdate, overrides: { url?: string; headers?: Record<string, string> } = {}): Promise<Response> {
  return fetch(overrides.url ?? update.url, {
    method: "POST",
    headers: { ...update.headers, ...overrides.headers },
    body: update.body,
  });
}

/** The plugin's data push body: plugin name and version, its stats, and meta naming the server it runs on. */
export function pluginDataBody(players: number, serverUuid: string): string {
  return (
    `{"plugin":{"name":"EzBanners","version":"0.2.1"},"stats":{"servers":1,"players":${players}},` +
    `"meta":{"server_uuid":"${serverUuid}","server_name":"Paper"}}`
  );
}

/** The plugin's data push at `timestampMs` (sent with the timestamp in whole seconds); send it with sendPluginUpdate. */
export function pluginDataPush(baseUrl: string, token: string, pluginUuid: string, body: string, timestampMs: number): PluginUpdate {
  const seconds = String(Math.floor(timestampMs / 1000));
  return {
    url: `${baseUrl}/api/plugins/${pluginUuid}/data`,
    body,
    headers: {
      "Content-Type": "application/json",
      "User-Agent": "EzBanners/1.0",
      "X-Plugin-Token": token,
      "X-Signature": createHmac("sha256", Buffer.from(token, "utf8")).update(`${seconds}.${body}`, "utf8").digest("hex"),
      "X-Timestamp": seconds,
    },
  };
}
