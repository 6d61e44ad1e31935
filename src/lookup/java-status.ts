// The modern Java Server List Ping (1.7+): handshake with protocol -1 (some
// servers refuse a real version number when only probed), status request, one
// JSON reply however many pieces it arrives in, then ping/pong for latency.

import { converse, type Failure } from "./tcp-conversation.ts";
import { ByteQueue } from "./byte-queue.ts";
import { concat, encodeString, encodeVarInt, frame, readVarInt } from "./varint.ts";

/** The game refuses status strings longer than this many characters. */
export const MAX_STATUS_CHARS = 32_767;
/** UTF-8 needs at most 3 bytes per UTF-16 unit; a few more for the packet header. */
const MAX_FRAME_BYTES = MAX_STATUS_CHARS * 3 + 16;

export type JavaStatusResult = { ok: true; status: unknown; latencyMs: number | null } | Failure;

export interface JavaStatusOptions {
  /** The checked IP to connect to (never a hostname: no second DNS answer). */
  ip: string;
  port: number;
  /** The name the user typed, sent in the handshake (virtual hosts, proxies). */
  hostname: string;
  timeoutMs: number;
  /** Ends the ping early (a Hytale lookup's richer answer came first). */
  signal?: AbortSignal;
}

function handshake(hostname: string, port: number): Uint8Array {
  const portBytes = Uint8Array.of(port >> 8, port & 0xff);
  return concat([
    frame(0x00, encodeVarInt(-1), encodeString(hostname.slice(0, 255)), portBytes, encodeVarInt(1)),
    frame(0x00),
  ]);
}

function pingPacket(payload: bigint): Uint8Array {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigInt64(0, payload);
  return frame(0x01, bytes);
}

/** Splits complete frames off the front of a growing buffer. */
class FrameReader {
  private readonly queue = new ByteQueue();

  push(chunk: Uint8Array): void {
    this.queue.push(chunk);
  }

  /** The next whole frame's bytes (id + data), null if incomplete; throws on nonsense. */
  next(): Uint8Array | null {
    const buffer = this.queue.view();
    const length = readVarInt(buffer, 0);
    if (length === "incomplete") return null;
    if (length === "invalid" || length.value <= 0 || length.value > MAX_FRAME_BYTES) {
      throw new Error("bad frame length");
    }
    const end = length.size + length.value;
    if (buffer.length < end) return null;
    const body = buffer.slice(length.size, end);
    this.queue.consume(end);
    return body;
  }
}

function parseStatusFrame(body: Uint8Array): unknown {
  const id = readVarInt(body, 0);
  if (typeof id === "string" || id.value !== 0x00) throw new Error("expected a status response");
  const length = readVarInt(body, id.size);
  if (typeof length === "string") throw new Error("bad string length");
  const start = id.size + length.size;
  const text = new TextDecoder("utf-8", { fatal: true }).decode(body.subarray(start, start + length.value));
  if (text.length > MAX_STATUS_CHARS) throw new Error(`status reply longer than ${MAX_STATUS_CHARS} characters`);
  return JSON.parse(text);
}

export function pingJavaStatus(options: JavaStatusOptions): Promise<JavaStatusResult> {
  const reader = new FrameReader();
  let status: unknown;
  let gotStatus = false;
  let pingSentAt = 0;
  return converse<JavaStatusResult>({
    ...options,
    opening: () => handshake(options.hostname, options.port),
    receive(chunk, write) {
      reader.push(chunk);
      for (let body = reader.next(); body; body = reader.next()) {
        if (gotStatus) return { ok: true, status, latencyMs: Math.round(performance.now() - pingSentAt) };
        status = parseStatusFrame(body);
        gotStatus = true;
        pingSentAt = performance.now();
        write(pingPacket(BigInt(Date.now())));
      }
      return null;
    },
    // A status without pong is still a status: old proxies often never answer the ping.
    early: (failure) => (gotStatus ? { ok: true, status, latencyMs: null } : failure),
  });
}
