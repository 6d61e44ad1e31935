// The UDP Query protocol (GameSpy 4) of Java servers with `enable-query=true`:
// a handshake for a challenge token, then a "full stat" request that answers
// the server software, plugins, map and player names the ping does not show.

import type { Failure } from "./tcp-conversation.ts";
import { converseUdp } from "./udp-conversation.ts";

const MAGIC = [0xfe, 0xfd] as const;
const TYPE_HANDSHAKE = 0x09;
const TYPE_STAT = 0x00;
/** "splitnum\0\x80\0": fixed padding before the key/value section of a full stat. */
const STAT_PADDING = 11;
/** "\x01player_\0\0" between the key/values and the player names. */
const PLAYERS_MARKER = 10;

export interface QueryStatus {
  /** Every key/value the server sent (hostname, gametype, version, plugins, map, ...). */
  values: Record<string, string>;
  players: string[];
  software: string | null;
  plugins: Array<{ name: string; version: string | null }>;
  map: string | null;
}

export type QueryResult = { ok: true; status: QueryStatus } | Failure;

export function querySession(random: () => number = Math.random): number {
  // Only the low four bits of each byte are used by the server.
  return Math.floor(random() * 0x7fffffff) & 0x0f0f0f0f;
}

export function handshakeRequest(session: number): Uint8Array {
  const bytes = new Uint8Array(7);
  bytes.set([...MAGIC, TYPE_HANDSHAKE]);
  new DataView(bytes.buffer).setInt32(3, session);
  return bytes;
}

export function fullStatRequest(session: number, token: number): Uint8Array {
  const bytes = new Uint8Array(15);
  const view = new DataView(bytes.buffer);
  bytes.set([...MAGIC, TYPE_STAT]);
  view.setInt32(3, session);
  view.setInt32(7, token);
  return bytes; // the four trailing zero bytes ask for the full stat
}

function checkHeader(reply: Uint8Array, type: number, session: number): void {
  if (reply.length < 5 || reply[0] !== type) throw new Error("unexpected query reply type");
  if (new DataView(reply.buffer, reply.byteOffset).getInt32(1) !== session) throw new Error("query reply for another session");
}

export function parseChallenge(reply: Uint8Array, session: number): number {
  checkHeader(reply, TYPE_HANDSHAKE, session);
  const text = new TextDecoder("latin1").decode(reply.subarray(5)).replace(/\0.*$/s, "");
  if (!/^-?\d{1,11}$/.test(text)) throw new Error("bad challenge token");
  return Number(text) | 0;
}

/** Reads NUL-terminated strings from `at` until an empty one (or the end). */
function strings(bytes: Uint8Array, at: number): { values: string[]; next: number } {
  const decoder = new TextDecoder("utf-8"); // hostnames may hold any bytes: replaced, not thrown
  const values: string[] = [];
  let start = at;
  for (let i = at; i < bytes.length; i++) {
    if (bytes[i] !== 0) continue;
    if (i === start) return { values, next: i + 1 };
    values.push(decoder.decode(bytes.subarray(start, i)));
    start = i + 1;
  }
  return { values, next: bytes.length };
}

/** "Paper on 1.20.4: WorldEdit 7.2; Essentials 2.20" -> software and plugins. */
export function parsePlugins(text: string): Pick<QueryStatus, "software" | "plugins"> {
  const colon = text.indexOf(":");
  const software = (colon === -1 ? text : text.slice(0, colon)).trim() || null;
  const list = colon === -1 ? "" : text.slice(colon + 1);
  const plugins = list
    .split(";")
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const space = entry.lastIndexOf(" ");
      return space === -1 ? { name: entry, version: null } : { name: entry.slice(0, space), version: entry.slice(space + 1) };
    });
  return { software, plugins };
}

export function parseFullStat(reply: Uint8Array, session: number): QueryStatus {
  checkHeader(reply, TYPE_STAT, session);
  const pairs = strings(reply, 5 + STAT_PADDING);
  const values: Record<string, string> = Object.create(null);
  for (let i = 0; i + 1 < pairs.values.length; i += 2) values[pairs.values[i]!] = pairs.values[i + 1]!;
  const players = strings(reply, pairs.next + PLAYERS_MARKER).values;
  const { software, plugins } = parsePlugins(values.plugins ?? "");
  return { values: { ...values }, players, software, plugins, map: values.map ?? null };
}

/** Handshake + full stat over one UDP socket, within `timeoutMs` in all. */
export function queryFullStat(options: { ip: string; port: number; timeoutMs: number; signal?: AbortSignal }): Promise<QueryResult> {
  const session = querySession();
  let token: number | null = null;
  return converseUdp<QueryResult>({
    ...options,
    timeoutMessage: `no query answer within ${options.timeoutMs} ms (is enable-query=true?)`,
    opening: handshakeRequest(session),
    receive(reply, send) {
      if (token !== null) return { ok: true, status: parseFullStat(reply, session) };
      token = parseChallenge(reply, session);
      send(fullStatRequest(session, token));
      return null;
    },
  });
}
