// What the store keeps, as every backend hands it out: plain rows with times
// in milliseconds since the epoch, and the rules on them every backend keeps.
// The tables (store-tables.ts) infer these shapes; the type checker holds
// them to it where the store's queries return them.

import { and, eq, isNull, lt, sql, type Column, type SQL } from "drizzle-orm";
import type { TokenScope } from "../auth/token.ts";

/** An API token; only a SHA-256 hash of it is kept. */
export interface TokenRow {
  id: number;
  hash: string;
  scope: TokenScope;
  label: string;
  /** "cli" for tokens made by `token create`, "registration" for open registration. */
  origin: "cli" | "registration";
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

/** A server record (spec 2.1), bound to the token of its first accepted push. */
export interface ServerRow {
  uuid: string;
  tokenId: number;
  name: string | null;
  pluginVersion: string | null;
  status: string | null;
  playersOnline: number | null;
  playersMax: number | null;
  tps: number | null;
  motd: string | null;
  version: string | null;
  /** Further stats some plugin builds send (tps_5m, uptime, placeholders...). */
  extra: Record<string, unknown> | null;
  firstSeen: number;
  lastSeen: number;
  /** Time of the last stats update (heartbeats only move lastSeen). */
  statsUpdatedAt: number | null;
  /** Whether its public page is shown (its owner switches it off and on). */
  pageEnabled: boolean;
}

/** One minute of a server's history: the minute's highest players online, its latest time, players max and TPS. */
export interface ServerSample {
  serverUuid: string;
  at: number;
  playersOnline: number | null;
  playersMax: number | null;
  tps: number | null;
  /** Whether the minute's latest update said "online". */
  online: boolean;
}

/** A plugin record (spec 2.2), bound to the token of its first accepted push. */
export interface PluginRow {
  uuid: string;
  tokenId: number;
  name: string | null;
  version: string | null;
  stats: Record<string, number>;
  meta: Record<string, unknown>;
  minecraftVersions: string[];
  serverSoftware: string[];
  firstSeen: number;
  lastSeen: number;
}

/** Fields a server push may set; a field left undefined keeps its stored value. */
export interface ServerFields {
  name?: string;
  pluginVersion?: string;
  status?: string;
  playersOnline?: number;
  playersMax?: number;
  tps?: number;
  motd?: string;
  version?: string;
  /** Merged key by key into the stored extra stats. */
  extra?: Record<string, unknown>;
}

/** A heartbeat moves lastSeen; an update also its stats time and its minute's history sample. */
export type ServerPushKind = "heartbeat" | "update";

/** Fields a plugin push may set; each one present replaces the stored value whole. */
export interface PluginFields {
  name?: string;
  version?: string;
  stats?: Record<string, number>;
  meta?: Record<string, unknown>;
  minecraftVersions?: string[];
  serverSoftware?: string[];
}

/** How long a server's history is kept: an update drops its server's samples older than this. */
export const HISTORY_MS = 30 * 24 * 3600 * 1000;

/**
 * How long a token made by open registration lives after its last accepted
 * push. Its records are then inactive (plugins show as inactive after 24
 * hours, servers as offline long before), and no operator stands behind it.
 */
export const REGISTRATION_IDLE_MS = 24 * 3_600_000;

/** The columns of a tokens table that idleRegistration() reads. */
interface TokenTimeColumns {
  origin: Column;
  revokedAt: Column;
  lastUsedAt: Column;
  createdAt: Column;
}

/** The condition on a tokens table for a token open registration made, not revoked, that has not pushed for REGISTRATION_IDLE_MS at `now`. */
export function idleRegistration(tokens: TokenTimeColumns, now: number): SQL {
  return and(
    eq(tokens.origin, "registration"),
    isNull(tokens.revokedAt),
    lt(sql`coalesce(${tokens.lastUsedAt}, ${tokens.createdAt})`, now - REGISTRATION_IDLE_MS),
  )!;
}

/**
 * How stale a token's last use may get: a push writes it only when the stored
 * one is older than this. Written on every push, that one row would make all
 * of a token's pushes wait for each other (in PostgreSQL, where they run at
 * once); `token list` is still right to the minute.
 */
export const LAST_USED_STEP_MS = 60_000;

/** How long after its last push a plugin counts as active (spec section 3). */
const ACTIVE_WITHIN_MS = 24 * 3_600_000;

/** Whether a plugin record was pushed within the last 24 hours at `now`: what plugin banners and the status badge show. */
export function isPluginActive(record: Pick<PluginRow, "lastSeen">, now: number): boolean {
  return now - record.lastSeen <= ACTIVE_WITHIN_MS;
}
