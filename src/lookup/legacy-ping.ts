// The legacy Server List Ping, for servers from before 1.7 (and modern ones,
// which still answer it). We send the 1.6 form (FE 01 FA + MC|PingHost); the
// reply is FF + a UTF-16BE string in one of two layouts:
//   1.4-1.6: "§1\0<protocol>\0<version>\0<motd>\0<online>\0<max>"
//   beta 1.8-1.3: "<motd>§<online>§<max>"

import { ByteQueue } from "./byte-queue.ts";
import { converse, type Failure } from "./tcp-conversation.ts";

/** Protocol number sent in the 1.6 ping (1.6.4); servers answer whatever their own is. */
const LEGACY_PROTOCOL = 74;
/** The reply length is a u16 count of UTF-16 units. */
const MAX_REPLY_BYTES = 3 + 2 * 0xffff;

export interface LegacyStatus {
  protocol: number | null;
  version: string | null;
  motd: string;
  online: number;
  max: number;
}

export type LegacyPingResult = { ok: true; status: LegacyStatus; latencyMs: number } | Failure;

function utf16be(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    bytes[2 * i] = unit >> 8;
    bytes[2 * i + 1] = unit & 0xff;
  }
  return bytes;
}

export function legacyPingRequest(hostname: string, port: number): Uint8Array {
  const host = utf16be(hostname.slice(0, 255));
  const channel = utf16be("MC|PingHost");
  const out = new Uint8Array(3 + 2 + channel.length + 2 + 1 + 2 + host.length + 4);
  const view = new DataView(out.buffer);
  let at = 0;
  out.set([0xfe, 0x01, 0xfa], at);
  at += 3;
  view.setUint16(at, 11);
  at += 2;
  out.set(channel, at);
  at += channel.length;
  view.setUint16(at, 7 + host.length);
  at += 2;
  out[at++] = LEGACY_PROTOCOL;
  view.setUint16(at, host.length / 2);
  at += 2;
  out.set(host, at);
  at += host.length;
  view.setInt32(at, port);
  return out;
}

function count(text: string | undefined): number {
  const value = Number.parseInt(text ?? "", 10);
  return Number.isFinite(value) && value >= 0 ? value : 0;
}

/** Parses the text of a kick packet (after FF and its length). */
export function parseLegacyReply(text: string): LegacyStatus {
  if (text.startsWith("§1\u0000")) {
    const [, protocol, version, motd, online, max] = text.split("\u0000");
    return { protocol: count(protocol), version: version ?? null, motd: motd ?? "", online: count(online), max: count(max) };
  }
  // The oldest layout: the MOTD itself may not contain "§", so the last two fields are the counts.
  const parts = text.split("§");
  const max = parts.pop();
  const online = parts.pop();
  return { protocol: null, version: null, motd: parts.join("§"), online: count(online), max: count(max) };
}

/** The complete reply text, null if more bytes are needed; throws on anything else. */
function readReply(buffer: Uint8Array): string | null {
  if (buffer.length === 0) return null;
  if (buffer[0] !== 0xff) throw new Error("not a legacy ping reply");
  if (buffer.length < 3) return null;
  const units = (buffer[1]! << 8) | buffer[2]!;
  if (buffer.length < 3 + 2 * units) return null;
  let text = "";
  for (let i = 0; i < units; i++) text += String.fromCharCode((buffer[3 + 2 * i]! << 8) | buffer[4 + 2 * i]!);
  return text;
}

export function pingLegacy(options: {
  ip: string;
  port: number;
  hostname: string;
  timeoutMs: number;
  signal?: AbortSignal;
}): Promise<LegacyPingResult> {
  const received = new ByteQueue();
  let sentAt = 0;
  return converse<LegacyPingResult>({
    ...options,
    opening() {
      sentAt = performance.now();
      return legacyPingRequest(options.hostname, options.port);
    },
    receive(chunk) {
      received.push(chunk);
      if (received.length > MAX_REPLY_BYTES) throw new Error("reply too long");
      const text = readReply(received.view());
      return text === null ? null : { ok: true, status: parseLegacyReply(text), latencyMs: Math.round(performance.now() - sentAt) };
    },
    early: (failure) => failure,
  });
}
