// What any way of asking a Hytale server answers (issue 41). The stock server
// speaks QUIC on UDP 5520 and has no public status query; owners add a plugin,
// and each plugin answers a part of this. A field is null where the way that
// answered does not carry it: unknown, not zero.

import type { Failure } from "../tcp-conversation.ts";

/** Which way answered, richest first (docs/lookups.md has the table of what each gives). */
export const HYTALE_SOURCES = ["hyquery2", "hyquery1", "nitrado", "ping", "a2s", "quic"] as const;
export type HytaleSource = (typeof HYTALE_SOURCES)[number];

export interface HytaleStatus {
  source: HytaleSource;
  /** The MOTD as the plugin sent it (HyQuery's allows `§` codes). */
  motd: string | null;
  version: string | null;
  protocol: number | null;
  /** Null unless the way gives both numbers. */
  players: { online: number; max: number } | null;
  /** Player names, when the way lists them. */
  sample: string[];
  plugins: Array<{ name: string; version: string | null }>;
  map: string | null;
  latencyMs: number | null;
}

export type HytaleAnswer = { ok: true; status: HytaleStatus } | Failure;

/** Where and how long one way asks. */
export interface HytaleWayOptions {
  /** The checked IP (never a name: no second DNS answer). */
  ip: string;
  /** The way's own port (the game port, or the plugin's beside it). */
  port: number;
  timeoutMs: number;
  /** Ends the way early (a richer answer came first). */
  signal?: AbortSignal;
}

/** The most players a count may say: more is a lie (the push API's bound too). */
export const MAX_PLAYER_COUNT = 1_000_000_000;

/** A player count as sent; throws on a negative one or one above MAX_PLAYER_COUNT. */
export function playerCount(value: number, what: string): number {
  if (!Number.isInteger(value) || value < 0 || value > MAX_PLAYER_COUNT) throw new Error(`${what} ${value} is not a player count`);
  return value;
}

/** A status with nothing known yet but where it came from. */
export function bareStatus(source: HytaleSource, latencyMs: number | null): HytaleStatus {
  return { source, motd: null, version: null, protocol: null, players: null, sample: [], plugins: [], map: null, latencyMs };
}

/** Milliseconds since `since` (performance.now()), whole. */
export function elapsedSince(since: number): number {
  return Math.round(performance.now() - since);
}
