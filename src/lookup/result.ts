// The normalized status every lookup returns, whatever protocol answered, and
// the functions that build it from each protocol's reply. Results are cached:
// they keep what a banner or the JSON answer shows, each part capped.

import type { Edition } from "../minecraft/edition.ts";
import type { BedrockStatus } from "./bedrock.ts";
import { decodeFavicon } from "./favicon.ts";
import type { HytaleSource, HytaleStatus } from "./hytale/hytale-status.ts";
import type { LegacyStatus } from "./legacy-ping.ts";
import { keptText } from "./kept-text.ts";
import { keptMotd, type Motd } from "./kept-motd.ts";
import type { QueryStatus } from "./query.ts";
import { placeholderHost } from "./sleeping-signatures.ts";
import type { FailureReason } from "./tcp-conversation.ts";

export type ProtocolUsed = "modern" | "legacy" | "bedrock";
/** "sleeping": a host answered in place of the stopped server (sleeping-signatures.ts). */
export type LookupErrorCode = FailureReason | "invalid_address" | "no_such_host" | "blocked_address" | "busy" | "sleeping";

/** What a result keeps at most (the MOTD's cap is in kept-motd.ts). */
export const RESULT_LIMITS = {
  /** Version name, software, map, each player name. */
  textChars: 128,
  /** An error message (it may name a host: up to 253 characters). */
  messageChars: 512,
  /** Names listed (the game's own sample holds at most 12). */
  players: 20,
  plugins: 100,
  /** Each plugin's name, and its version. */
  pluginChars: 48,
};

function clip(text: string, chars = RESULT_LIMITS.textChars): string {
  return keptText(text, chars);
}

export interface LookupResult {
  online: boolean;
  edition: Edition;
  /** The host and port as typed (port defaulted). */
  host: string;
  port: number;
  /** The checked address that was (or would have been) contacted. */
  ipAddress: string | null;
  /** Where an SRV record pointed, when one was used. */
  srvRecord: { host: string; port: number } | null;
  protocolUsed: ProtocolUsed | null;
  /** Which way a Hytale server answered (hytale/hytale-status.ts); null for Minecraft and when offline. */
  source: HytaleSource | null;
  version: { name: string; protocol: number | null } | null;
  players: { online: number; max: number; sample: string[] } | null;
  motd: Motd | null;
  /** The decoded 64x64 PNG. */
  favicon: Uint8Array | null;
  latencyMs: number | null;
  software: string | null;
  plugins: Array<{ name: string; version: string | null }>;
  map: string | null;
  error: { code: LookupErrorCode; message: string } | null;
  /** The host whose placeholder answered for the stopped server (then offline, error "sleeping"); null otherwise. */
  sleepingHost: string | null;
  /**
   * For the operator only (the CLI prints it on stderr), never in the public
   * JSON: it may name internal addresses a blocked name resolved to.
   */
  operatorNote: string | null;
}

export interface Target {
  edition: Edition;
  host: string;
  port: number;
  ipAddress: string | null;
  srvRecord: { host: string; port: number } | null;
}

export function offline(target: Target, code: LookupErrorCode, message: string): LookupResult {
  return {
    ...target,
    online: false,
    protocolUsed: null,
    source: null,
    version: null,
    players: null,
    motd: null,
    favicon: null,
    latencyMs: null,
    software: null,
    plugins: [],
    map: null,
    error: { code, message: clip(message, RESULT_LIMITS.messageChars) },
    sleepingHost: null,
    operatorNote: null,
  };
}

/**
 * An answer as it came, unless it is a host's placeholder for a stopped
 * server: that reads offline, like a server that did not answer (nothing of
 * the placeholder kept: its MOTD is the host's, its icon would replace the
 * server's kept one), naming the host.
 */
function unlessPlaceholder(target: Target, answered: LookupResult): LookupResult {
  const host = placeholderHost({
    versionName: answered.version?.name ?? null,
    motdRaw: answered.motd?.raw ?? "",
    playersOnline: answered.players?.online ?? null,
  });
  if (host === null) return answered;
  return { ...offline(target, "sleeping", `${host} answered for the server: it is stopped`), sleepingHost: host };
}

function online(target: Target, fields: Partial<LookupResult>): LookupResult {
  return { ...offline(target, "closed", ""), ...fields, online: true, error: null };
}

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function wholeNumber(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? Math.floor(value) : 0;
}

function playerNames(names: readonly string[]): string[] {
  return names.slice(0, RESULT_LIMITS.players).map((name) => clip(name));
}

function keptPlugins(plugins: ReadonlyArray<{ name: string; version: string | null }>): LookupResult["plugins"] {
  return plugins.slice(0, RESULT_LIMITS.plugins).map((plugin) => ({
    name: clip(plugin.name, RESULT_LIMITS.pluginChars),
    version: plugin.version && clip(plugin.version, RESULT_LIMITS.pluginChars),
  }));
}

/** Every field of the modern reply may be missing or of the wrong type: each is defaulted. */
export function fromModern(target: Target, status: unknown, latencyMs: number | null): LookupResult {
  const json = record(status);
  const version = record(json.version);
  const players = record(json.players);
  const sample = Array.isArray(players.sample) ? players.sample : [];
  return unlessPlaceholder(target, online(target, {
    protocolUsed: "modern",
    version: {
      name: typeof version.name === "string" ? clip(version.name) : "",
      protocol: typeof version.protocol === "number" ? version.protocol : null,
    },
    players: {
      online: wholeNumber(players.online),
      max: wholeNumber(players.max),
      sample: playerNames(sample.map((entry) => record(entry).name).filter((name): name is string => typeof name === "string")),
    },
    motd: keptMotd(json.description),
    favicon: decodeFavicon(json.favicon),
    latencyMs,
  }));
}

export function fromLegacy(target: Target, status: LegacyStatus, latencyMs: number): LookupResult {
  return unlessPlaceholder(target, online(target, {
    protocolUsed: "legacy",
    version: status.version === null ? null : { name: clip(status.version), protocol: status.protocol },
    players: { online: status.online, max: status.max, sample: [] },
    motd: keptMotd(status.motd),
    latencyMs,
  }));
}

export function fromBedrock(target: Target, status: BedrockStatus, latencyMs: number): LookupResult {
  const raw = status.motd2 ? `${status.motd}\n${status.motd2}` : status.motd;
  return online(target, {
    edition: "bedrock",
    protocolUsed: "bedrock",
    version: { name: clip(status.version), protocol: status.protocol },
    players: { online: status.online, max: status.max, sample: [] },
    motd: keptMotd(raw),
    latencyMs,
  });
}

/** A Hytale server's answer, by whichever way (fields it does not carry stay null). */
export function fromHytale(target: Target, status: HytaleStatus): LookupResult {
  return online(target, {
    edition: "hytale",
    source: status.source,
    version: status.version === null && status.protocol === null ? null : { name: clip(status.version ?? ""), protocol: status.protocol },
    players: status.players && { ...status.players, sample: playerNames(status.sample) },
    motd: status.motd === null ? null : keptMotd(status.motd),
    latencyMs: status.latencyMs,
    plugins: keptPlugins(status.plugins),
    map: status.map && clip(status.map),
  });
}

/** Query adds what the ping does not carry; the ping's own numbers stay. */
export function withQuery(result: LookupResult, query: QueryStatus): LookupResult {
  const sample = result.players && result.players.sample.length === 0 ? playerNames(query.players) : result.players?.sample;
  return {
    ...result,
    software: query.software && clip(query.software),
    plugins: keptPlugins(query.plugins),
    map: query.map && clip(query.map),
    players: result.players && { ...result.players, sample: sample ?? [] },
  };
}
