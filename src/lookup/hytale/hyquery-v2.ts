// HyQuery / OneQuery v2 on the game port (UDP), as Hyvote/hyquery
// docs/protocol-v2.md publishes it (the server side: HyQueryV2Protocol.java,
// HyQueryV2ResponseBuilder.java, HyQueryHandler.java). Two families share the
// wire format and differ in their magic: `ONEQUERY` is answered `ONEREPLY`,
// `HYQUERY2` `HYREPLY2`. A 9-byte challenge request is answered with a 32-byte
// token (bound to our address, against amplification); a 51-byte query carrying
// it is answered with a 17-byte header and type-length-value records. A query
// with a bad token gets no reply at all.
//
// Both families are asked for a challenge at once (a plugin may speak only
// one). Each family that answers is sent the players page and the basic query
// together, in that order: the players reply (or its "authentication
// required", the list's default) comes before the basic one, which ends the
// exchange.
// Everything is little-endian; strings are UTF-8 behind a 16-bit length.

import { randomBytes } from "node:crypto";
import { converseUdp } from "../udp-conversation.ts";
import { asciiBytes, WireReader } from "./wire-reader.ts";
import { elapsedSince, playerCount, type HytaleAnswer, type HytaleWayOptions, type HytaleStatus } from "./hytale-status.ts";

export const HYQUERY2_FAMILIES = [
  { request: asciiBytes("ONEQUERY"), reply: asciiBytes("ONEREPLY") },
  { request: asciiBytes("HYQUERY2"), reply: asciiBytes("HYREPLY2") },
] as const;
type Family = (typeof HYQUERY2_FAMILIES)[number];

const TYPE_CHALLENGE = 0x00;
const TYPE_BASIC = 0x01;
const TYPE_PLAYERS = 0x02;
const TOKEN_BYTES = 32;
/** The challenge reply: magic, type, token, 7 reserved bytes. */
const CHALLENGE_REPLY_BYTES = 8 + 1 + TOKEN_BYTES + 7;
/** The only protocol version published (the header's byte 8). */
const PROTOCOL_VERSION = 0x01;
const FLAG_AUTH_REQUIRED = 0x0002;
const FLAG_HAS_ADDRESS = 0x0020;
const TLV_SERVER_INFO = 0x0001;
const TLV_PLAYER_LIST = 0x0002;
/** "Max Packet Size: 1400 bytes (MTU-safe)": a longer reply is refused. */
export const HYQUERY2_MAX_REPLY_BYTES = 1400;

export function hyQuery2Challenge(family: Family): Uint8Array {
  return Uint8Array.of(...family.request, TYPE_CHALLENGE);
}

export function hyQuery2Query(family: Family, type: number, token: Uint8Array, requestId: number): Uint8Array {
  const bytes = new Uint8Array(51);
  const view = new DataView(bytes.buffer);
  bytes.set(family.request);
  bytes[8] = type;
  bytes.set(token, 9);
  view.setUint32(41, requestId, true);
  // Flags (no auth token) and the players page's offset stay zero.
  return bytes;
}

/** The token of a challenge reply of `family`; throws on anything else. */
export function parseHyQuery2Challenge(reply: Uint8Array, family: Family): Uint8Array {
  // A reply may leave out the reserved bytes; one longer than published is refused.
  if (reply.length < CHALLENGE_REPLY_BYTES - 7 || reply.length > CHALLENGE_REPLY_BYTES) throw new Error(`a v2 challenge reply of ${reply.length} bytes`);
  const reader = new WireReader(reply);
  if (!reader.startsWith(family.reply)) throw new Error("not a HyQuery v2 reply");
  reader.take(family.reply.length);
  if (reader.u8() !== TYPE_CHALLENGE) throw new Error("not a HyQuery v2 challenge reply");
  return reader.take(TOKEN_BYTES, "the challenge token").slice();
}

export interface HyQuery2Reply {
  requestId: number;
  authRequired: boolean;
  info: Pick<HytaleStatus, "motd" | "version" | "protocol" | "players"> | null;
  /** Names of the PLAYER_LIST record, null when there was none. */
  players: string[] | null;
}

function readServerInfo(value: Uint8Array, flags: number): NonNullable<HyQuery2Reply["info"]> {
  const reader = new WireReader(value);
  reader.stringU16("the server name");
  const motd = reader.stringU16("the MOTD");
  const online = playerCount(reader.i32le("the player count"), "players online");
  const max = playerCount(reader.i32le("the player maximum"), "player maximum");
  const version = reader.stringU16("the version");
  const protocol = reader.i32le("the protocol version");
  reader.stringU16("the protocol hash");
  if (flags & FLAG_HAS_ADDRESS && reader.remaining > 0) {
    reader.stringU16("the host");
    reader.u16le("the port");
  }
  return { motd, version, protocol, players: { online, max } };
}

function readPlayerList(value: Uint8Array): string[] {
  const reader = new WireReader(value);
  const total = playerCount(reader.i32le("the players' total"), "players' total");
  const count = playerCount(reader.i32le("the players' count"), "players' count");
  reader.i32le("the page's offset");
  if (count > total) throw new Error(`a page of ${count} players out of ${total}`);
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    names.push(reader.stringU16("a player's name"));
    reader.take(16, "a player's UUID");
  }
  return names;
}

/** A query reply of `family`: header, then TLV records (unknown types skipped); throws on anything malformed. */
export function parseHyQuery2Reply(reply: Uint8Array, family: Family): HyQuery2Reply {
  if (reply.length > HYQUERY2_MAX_REPLY_BYTES) throw new Error(`HyQuery v2 reply of ${reply.length} bytes (at most ${HYQUERY2_MAX_REPLY_BYTES})`);
  const reader = new WireReader(reply);
  if (!reader.startsWith(family.reply)) throw new Error("not a HyQuery v2 reply");
  reader.take(family.reply.length);
  const version = reader.u8("the protocol version");
  if (version !== PROTOCOL_VERSION) throw new Error(`HyQuery v2 protocol version ${version}`);
  const flags = reader.u16le("the flags");
  const requestId = reader.u32le("the request id");
  const payload = new WireReader(reader.take(reader.u16le("the payload's length"), "the payload"));
  reader.end("the HyQuery v2 reply");
  const parsed: HyQuery2Reply = { requestId, authRequired: (flags & FLAG_AUTH_REQUIRED) !== 0, info: null, players: null };
  while (payload.remaining > 0) {
    const type = payload.u16le("a record's type");
    const value = payload.take(payload.u16le("a record's length"), "a record");
    if (type === TLV_SERVER_INFO) parsed.info = readServerInfo(value, flags);
    else if (type === TLV_PLAYER_LIST) parsed.players = readPlayerList(value);
  }
  return parsed;
}

/** Two distinct random request ids: the players page's and the basic query's. */
function requestIds(): { players: number; basic: number } {
  const bytes = randomBytes(8);
  const players = bytes.readUInt32LE(0);
  const basic = bytes.readUInt32LE(4);
  return { players, basic: basic === players ? (players ^ 1) >>> 0 : basic };
}

/** One family's exchange: its request ids, when its queries went, the names its players page gave. */
interface Exchange {
  family: Family;
  ids: { players: number; basic: number };
  queriedAt: number | null;
  sample: string[];
}

export function askHyQuery2(options: HytaleWayOptions): Promise<HytaleAnswer> {
  const exchanges: Exchange[] = HYQUERY2_FAMILIES.map((family) => ({ family, ids: requestIds(), queriedAt: null, sample: [] }));
  return converseUdp<HytaleAnswer>({
    ...options,
    timeoutMessage: `no HyQuery v2 answer within ${options.timeoutMs} ms`,
    opening: HYQUERY2_FAMILIES.map(hyQuery2Challenge),
    receive(reply, send) {
      const exchange = exchanges.find(({ family }) => new WireReader(reply).startsWith(family.reply));
      if (!exchange) throw new Error("not a HyQuery v2 reply");
      const { family, ids } = exchange;
      // Each family that answers the challenge is queried with its own token: a plugin
      // that keeps one token per address takes the later one, the basic reply that
      // comes first ends the exchange.
      if (exchange.queriedAt === null) {
        const token = parseHyQuery2Challenge(reply, family);
        exchange.queriedAt = performance.now();
        send(hyQuery2Query(family, TYPE_PLAYERS, token, ids.players));
        send(hyQuery2Query(family, TYPE_BASIC, token, ids.basic));
        return null;
      }
      const answer = parseHyQuery2Reply(reply, family);
      if (answer.requestId === ids.players) {
        if (!answer.authRequired && answer.players) exchange.sample = answer.players;
        return null;
      }
      if (answer.requestId !== ids.basic) throw new Error("a HyQuery v2 reply to another request");
      if (!answer.info) return { ok: false, reason: "refused", message: "HyQuery v2 asks for a token to read the server" };
      const status = { source: "hyquery2" as const, ...answer.info, sample: exchange.sample, plugins: [], map: null, latencyMs: elapsedSince(exchange.queriedAt) };
      return { ok: true, status };
    },
  });
}
