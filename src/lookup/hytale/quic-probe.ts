// A Hytale server without any query plugin still speaks QUIC on its port (UDP;
// ALPN hytale/1). Any QUIC server answers a long-header packet of a version it
// does not speak with a Version Negotiation packet (RFC 9000, section 6 and
// 17.2.1): that tells it is up, and the round trip, nothing more.
//
// The probe is an Initial-shaped long header (form and fixed bits set) of a
// reserved version 0x?a?a?a?a ("reserved ... to force version negotiation",
// section 15), with random 8-byte connection ids, padded to 1200 bytes: servers
// drop smaller datagrams of an unsupported version (section 5.2.2; 14.1 asks
// 1200 of a client's first datagram). The answer is trusted only if it echoes
// both ids swapped (17.2.1) and does not list the version we sent (6.2).

import { randomBytes } from "node:crypto";
import { converseUdp } from "../udp-conversation.ts";
import { WireReader } from "./wire-reader.ts";
import { bareStatus, elapsedSince, type HytaleAnswer, type HytaleWayOptions } from "./hytale-status.ts";

export const QUIC_PROBE_BYTES = 1200;
const LONG_HEADER = 0x80;
const FIXED_BIT = 0x40;
const ID_BYTES = 8;
/** A Version Negotiation lists a few versions after two ids: never more than the probe it answers. */
export const QUIC_MAX_REPLY_BYTES = QUIC_PROBE_BYTES;

export interface QuicProbe {
  packet: Uint8Array;
  version: number;
  destinationId: Uint8Array;
  sourceId: Uint8Array;
}

export function quicProbe(): QuicProbe {
  const random = randomBytes(4 + 2 * ID_BYTES);
  // Keep the high nibble of each byte, set the low one to 0xa: a reserved version.
  const version = ((random.readUInt32BE(0) & 0xf0f0f0f0) | 0x0a0a0a0a) >>> 0;
  const destinationId = random.subarray(4, 4 + ID_BYTES);
  const sourceId = random.subarray(4 + ID_BYTES);
  const packet = new Uint8Array(QUIC_PROBE_BYTES); // the rest stays zero: padding
  packet[0] = LONG_HEADER | FIXED_BIT;
  new DataView(packet.buffer).setUint32(1, version);
  packet[5] = ID_BYTES;
  packet.set(destinationId, 6);
  packet[6 + ID_BYTES] = ID_BYTES;
  packet.set(sourceId, 7 + ID_BYTES);
  return { packet, version, destinationId, sourceId };
}

function same(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

/** Throws unless `reply` is a Version Negotiation answering `probe`. */
export function checkVersionNegotiation(reply: Uint8Array, probe: QuicProbe): void {
  if (reply.length > QUIC_MAX_REPLY_BYTES) throw new Error(`a QUIC reply of ${reply.length} bytes`);
  const reader = new WireReader(reply);
  if ((reader.u8("the header") & LONG_HEADER) === 0) throw new Error("not a QUIC long header");
  if (reader.u32be("the version") !== 0) throw new Error("not a QUIC Version Negotiation");
  const destinationId = reader.take(reader.u8("the destination id's length"), "the destination id");
  const sourceId = reader.take(reader.u8("the source id's length"), "the source id");
  if (!same(destinationId, probe.sourceId) || !same(sourceId, probe.destinationId)) throw new Error("a Version Negotiation for another packet");
  if (reader.remaining === 0 || reader.remaining % 4 !== 0) throw new Error("a Version Negotiation without a whole list of versions");
  while (reader.remaining > 0) if (reader.u32be() === probe.version) throw new Error("a Version Negotiation offering the version it refused");
}

export function probeQuic(options: HytaleWayOptions): Promise<HytaleAnswer> {
  const probe = quicProbe();
  const sentAt = performance.now();
  return converseUdp<HytaleAnswer>({
    ...options,
    timeoutMessage: `no QUIC answer within ${options.timeoutMs} ms`,
    opening: probe.packet,
    receive(reply) {
      checkVersionNegotiation(reply, probe);
      return { ok: true, status: bareStatus("quic", elapsedSince(sentAt)) };
    },
  });
}
