// HyQuery v1 on the game port (UDP): `HYQUERY\0` and a type byte, answered
// `HYREPLY\0`, the type, then fields little-endian, strings behind a 16-bit
// length. The basic query (type 0x00) is asked; two published variants answer it:
// - HytaleOne's (HytaleOne/query-js src/protocol.ts parseBasicResponse; GameQ
//   PR #763, src/GameQ/Protocols/Hytaleone.php): name, MOTD, i32 online, i32 max,
//   u16 port, version, i32 protocol version, protocol hash;
// - Hyvote's (Hyvote/hyquery HyQueryProtocol.java buildBasicResponse): name,
//   MOTD, i32 online, i32 max, i32 port, version, and nothing after.
// The two are incompatible, and nothing in the reply names its variant: a reply
// is read as each in turn and is the one whose reading ends exactly at its last
// byte. The full query (0x01) is not asked: past the basic fields the variants'
// player and plugin lists differ, Hyvote's across its own releases too.

import { converseUdp } from "../udp-conversation.ts";
import { asciiBytes, WireReader } from "./wire-reader.ts";
import { elapsedSince, playerCount, type HytaleAnswer, type HytaleWayOptions, type HytaleStatus } from "./hytale-status.ts";

const REQUEST_MAGIC = asciiBytes("HYQUERY\0");
const REPLY_MAGIC = asciiBytes("HYREPLY\0");
const TYPE_BASIC = 0x00;
/** A basic reply is a name, a MOTD and a version (about 100 bytes); 4 KiB leaves room for a long MOTD, and more is refused. */
export const HYQUERY1_MAX_REPLY_BYTES = 4096;

export function hyQuery1Request(): Uint8Array {
  return Uint8Array.of(...REQUEST_MAGIC, TYPE_BASIC);
}

interface Common {
  motd: string;
  online: number;
  max: number;
}

/** The fields both variants share, up to the port. */
function readCommon(reader: WireReader): Common {
  reader.stringU16("the server name");
  const motd = reader.stringU16("the MOTD");
  const online = playerCount(reader.i32le("the player count"), "players online");
  const max = playerCount(reader.i32le("the player maximum"), "player maximum");
  return { motd, online, max };
}

/** HytaleOne's basic reply: u16 port, version, protocol version and hash. */
function readHytaleOne(body: Uint8Array): Pick<HytaleStatus, "motd" | "version" | "protocol" | "players"> {
  const reader = new WireReader(body);
  const { motd, online, max } = readCommon(reader);
  reader.u16le("the port");
  const version = reader.stringU16("the version");
  const protocol = reader.i32le("the protocol version");
  reader.stringU16("the protocol hash");
  reader.end("HytaleOne's basic reply");
  return { motd, version, protocol, players: { online, max } };
}

/** Hyvote's basic reply: i32 port and version, no protocol fields. */
function readHyvote(body: Uint8Array): Pick<HytaleStatus, "motd" | "version" | "protocol" | "players"> {
  const reader = new WireReader(body);
  const { motd, online, max } = readCommon(reader);
  reader.i32le("the port");
  const version = reader.stringU16("the version");
  reader.end("Hyvote's basic reply");
  return { motd, version, protocol: null, players: { online, max } };
}

/** The status a basic reply gives, in whichever variant it is; throws when it is neither. */
export function parseHyQuery1Reply(reply: Uint8Array, latencyMs: number): HytaleStatus {
  if (reply.length > HYQUERY1_MAX_REPLY_BYTES) throw new Error(`HyQuery v1 reply of ${reply.length} bytes (at most ${HYQUERY1_MAX_REPLY_BYTES} are read)`);
  const reader = new WireReader(reply);
  if (!reader.startsWith(REPLY_MAGIC)) throw new Error("not a HyQuery v1 reply");
  reader.take(REPLY_MAGIC.length);
  if (reader.u8("the reply type") !== TYPE_BASIC) throw new Error("not a basic HyQuery v1 reply");
  const body = reader.take(reader.remaining);
  let fields;
  try {
    fields = readHytaleOne(body);
  } catch (asHytaleOne) {
    try {
      fields = readHyvote(body);
    } catch {
      throw asHytaleOne; // the richer variant's complaint says more
    }
  }
  return { source: "hyquery1", sample: [], plugins: [], map: null, latencyMs, ...fields };
}

export function askHyQuery1(options: HytaleWayOptions): Promise<HytaleAnswer> {
  const sentAt = performance.now();
  return converseUdp<HytaleAnswer>({
    ...options,
    timeoutMessage: `no HyQuery v1 answer within ${options.timeoutMs} ms`,
    opening: hyQuery1Request(),
    receive: (reply) => ({ ok: true, status: parseHyQuery1Reply(reply, elapsedSince(sentAt)) }),
  });
}
