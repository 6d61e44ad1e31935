// The normalized status every lookup returns, whatever protocol answered, and
// the functions that build it from each protocol's reply.

import { parseFormatted, type StyledRun } from "../render/text/minecraft-format.ts";
import type { BedrockStatus } from "./bedrock.ts";
import { decodeFavicon } from "./favicon.ts";
import type { LegacyStatus } from "./legacy-ping.ts";
import type { QueryStatus } from "./query.ts";
import type { FailureReason } from "./tcp-conversation.ts";

export type Edition = "java" | "bedrock";
export type ProtocolUsed = "modern" | "legacy" | "bedrock";
export type LookupErrorCode = FailureReason | "invalid_address" | "no_such_host" | "blocked_address" | "busy";

export interface Motd {
  /** As the server sent it: `§` text, or the JSON chat component re-serialized. */
  raw: string;
  runs: StyledRun[];
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
    version: null,
    players: null,
    motd: null,
    favicon: null,
    latencyMs: null,
    software: null,
    plugins: [],
    map: null,
    error: { code, message },
    operatorNote: null,
  };
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

function motdOf(description: unknown): Motd {
  const raw = typeof description === "string" ? description : description === undefined ? "" : JSON.stringify(description);
  return { raw, runs: parseFormatted(description ?? "") };
}

/** Every field of the modern reply may be missing or of the wrong type: each is defaulted. */
export function fromModern(target: Target, status: unknown, latencyMs: number | null): LookupResult {
  const json = record(status);
  const version = record(json.version);
  const players = record(json.players);
  const sample = Array.isArray(players.sample) ? players.sample : [];
  return online(target, {
    protocolUsed: "modern",
    version: {
      name: typeof version.name === "string" ? version.name : "",
      protocol: typeof version.protocol === "number" ? version.protocol : null,
    },
    players: {
      online: wholeNumber(players.online),
      max: wholeNumber(players.max),
      sample: sample
        .map((entry) => record(entry).name)
        .filter((name): name is string => typeof name === "string")
        .slice(0, 20),
    },
    motd: motdOf(json.description),
    favicon: decodeFavicon(json.favicon),
    latencyMs,
  });
}

export function fromLegacy(target: Target, status: LegacyStatus, latencyMs: number): LookupResult {
  return online(target, {
    protocolUsed: "legacy",
    version: status.version === null ? null : { name: status.version, protocol: status.protocol },
    players: { online: status.online, max: status.max, sample: [] },
    motd: motdOf(status.motd),
    latencyMs,
  });
}

export function fromBedrock(target: Target, status: BedrockStatus, latencyMs: number): LookupResult {
  const raw = status.motd2 ? `${status.motd}\n${status.motd2}` : status.motd;
  return online(target, {
    edition: "bedrock",
    protocolUsed: "bedrock",
    version: { name: status.version, protocol: status.protocol },
    players: { online: status.online, max: status.max, sample: [] },
    motd: motdOf(raw),
    latencyMs,
  });
}

/** Query adds what the ping does not carry; the ping's own numbers stay. */
export function withQuery(result: LookupResult, query: QueryStatus): LookupResult {
  const sample = result.players && result.players.sample.length === 0 ? query.players.slice(0, 20) : result.players?.sample;
  return {
    ...result,
    software: query.software,
    plugins: query.plugins,
    map: query.map,
    players: result.players && { ...result.players, sample: sample ?? [] },
  };
}
