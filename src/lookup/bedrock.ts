// Bedrock Edition status: the RakNet "unconnected ping" over UDP. The pong
// carries one ';'-separated string:
// "MCPE;motd;protocol;version;online;max;server id;motd 2;game mode;mode number;port v4;port v6;"

import type { Failure } from "./tcp-conversation.ts";
import { converseUdp } from "./udp-conversation.ts";

/** RakNet's "offline message" magic, present in every unconnected packet. */
const MAGIC = Uint8Array.from([0x00, 0xff, 0xff, 0x00, 0xfe, 0xfe, 0xfe, 0xfe, 0xfd, 0xfd, 0xfd, 0xfd, 0x12, 0x34, 0x56, 0x78]);
const UNCONNECTED_PING = 0x01;
const UNCONNECTED_PONG = 0x1c;
/** id + time + guid + magic + u16 length. */
const PONG_HEADER = 1 + 8 + 8 + 16 + 2;

export interface BedrockStatus {
  edition: string;
  motd: string;
  /** The second MOTD line: usually the level name. */
  motd2: string;
  protocol: number | null;
  version: string;
  online: number;
  max: number;
  gameMode: string | null;
}

export type BedrockResult = { ok: true; status: BedrockStatus; latencyMs: number } | Failure;

export function unconnectedPing(timeMs: bigint, clientGuid: bigint): Uint8Array {
  const bytes = new Uint8Array(1 + 8 + 16 + 8);
  const view = new DataView(bytes.buffer);
  bytes[0] = UNCONNECTED_PING;
  view.setBigInt64(1, timeMs);
  bytes.set(MAGIC, 9);
  view.setBigInt64(25, clientGuid);
  return bytes;
}

function number(text: string | undefined): number {
  const value = Number.parseInt(text ?? "", 10);
  return Number.isFinite(value) && value >= 0 ? value : 0;
}

export function parsePong(reply: Uint8Array): BedrockStatus {
  if (reply.length < PONG_HEADER || reply[0] !== UNCONNECTED_PONG) throw new Error("not a RakNet pong");
  if (!MAGIC.every((byte, i) => reply[17 + i] === byte)) throw new Error("RakNet magic missing");
  const length = new DataView(reply.buffer, reply.byteOffset).getUint16(33);
  if (reply.length < PONG_HEADER + length) throw new Error("truncated pong");
  const text = new TextDecoder("utf-8").decode(reply.subarray(PONG_HEADER, PONG_HEADER + length));
  const [edition, motd, protocol, version, online, max, , motd2, gameMode] = text.split(";");
  if (!edition || (edition !== "MCPE" && edition !== "MCEE")) throw new Error("not a Minecraft Bedrock pong");
  return {
    edition,
    motd: motd ?? "",
    motd2: motd2 ?? "",
    protocol: protocol ? number(protocol) : null,
    version: version ?? "",
    online: number(online),
    max: number(max),
    gameMode: gameMode || null,
  };
}

export function pingBedrock(options: { ip: string; port: number; timeoutMs: number }): Promise<BedrockResult> {
  const sentAt = performance.now();
  const guid = BigInt.asIntN(64, BigInt(Math.floor(Math.random() * 2 ** 52)));
  return converseUdp<BedrockResult>({
    ...options,
    timeoutMessage: `no Bedrock answer within ${options.timeoutMs} ms`,
    opening: unconnectedPing(BigInt(Date.now()), guid),
    receive: (reply) => ({ ok: true, status: parsePong(reply), latencyMs: Math.round(performance.now() - sentAt) }),
  });
}
