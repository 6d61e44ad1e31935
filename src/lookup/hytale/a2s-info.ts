// A2S_INFO, Valve's server query (developer.valvesoftware.com/wiki/Server_queries),
// which the A2S plugins for Hytale answer on the game port + 1 (the default of
// physgun-com/hytale-sourcequery, "Source Query (A2S)" on CurseForge). The
// request is `FF FF FF FF 'T' "Source Engine Query\0"`; a server that wants a
// challenge first answers `FF FF FF FF 'A'` and 4 bytes, and the request is sent
// again with them appended (once). The info reply is `FF FF FF FF 'I'`:
// protocol, name, map, folder, game, app id (u16), players, max players, bots,
// server type, environment, visibility, VAC (bytes), two more for The Ship
// (app id 2400), version, then optional extra data this does not need.
// Strings are NUL-terminated UTF-8, numbers little-endian.

import { converseUdp } from "../udp-conversation.ts";
import { asciiBytes, WireReader } from "./wire-reader.ts";
import { bareStatus, elapsedSince, type HytaleAnswer, type HytaleWayOptions, type HytaleStatus } from "./hytale-status.ts";

/** A reply that is not split: the header -1. */
const SIMPLE = Uint8Array.of(0xff, 0xff, 0xff, 0xff);
const INFO_REQUEST = Uint8Array.of(...SIMPLE, 0x54, ...asciiBytes("Source Engine Query\0"));
const S2C_CHALLENGE = 0x41;
const S2A_INFO = 0x49;
const THE_SHIP = 2400;
/** "Steam uses a packet size of 1400 bytes": an info reply fits one; a split (-2) or longer reply is refused. */
export const A2S_MAX_REPLY_BYTES = 1400;

export function a2sInfoRequest(challenge?: Uint8Array): Uint8Array {
  return challenge ? Uint8Array.of(...INFO_REQUEST, ...challenge) : INFO_REQUEST;
}

/** The reply's type byte and a reader past it; throws on a split, oversized or foreign reply. */
function opened(reply: Uint8Array): { type: number; reader: WireReader } {
  if (reply.length > A2S_MAX_REPLY_BYTES) throw new Error(`A2S reply of ${reply.length} bytes (at most ${A2S_MAX_REPLY_BYTES})`);
  const reader = new WireReader(reply);
  if (!reader.startsWith(SIMPLE)) throw new Error("not a single-packet A2S reply");
  reader.take(SIMPLE.length);
  return { type: reader.u8("the reply type"), reader };
}

export function parseA2sInfo(reader: WireReader, latencyMs: number): HytaleStatus {
  reader.u8("the protocol");
  reader.cString("the server name");
  const map = reader.cString("the map");
  reader.cString("the folder");
  reader.cString("the game");
  // The app id, little-endian.
  const appId = reader.u16le("the app id");
  const online = reader.u8("the player count");
  const max = reader.u8("the player maximum");
  reader.take(5, "the bots, server type, environment, visibility and VAC");
  if (appId === THE_SHIP) reader.take(3, "The Ship's mode, witnesses and duration");
  const version = reader.cString("the version");
  return { ...bareStatus("a2s", latencyMs), players: { online, max }, map: map || null, version: version || null };
}

export function askA2sInfo(options: HytaleWayOptions): Promise<HytaleAnswer> {
  let sentAt = performance.now();
  let challenged = false;
  return converseUdp<HytaleAnswer>({
    ...options,
    timeoutMessage: `no A2S answer within ${options.timeoutMs} ms`,
    opening: a2sInfoRequest(),
    receive(reply, send) {
      const { type, reader } = opened(reply);
      if (type === S2C_CHALLENGE && !challenged) {
        challenged = true;
        sentAt = performance.now();
        send(a2sInfoRequest(reader.take(4, "the challenge")));
        return null;
      }
      if (type !== S2A_INFO) throw new Error(`unexpected A2S reply type 0x${type.toString(16)}`);
      return { ok: true, status: parseA2sInfo(reader, elapsedSince(sentAt)) };
    },
  });
}
