// VarInts and strings of the Minecraft protocol: 7 bits per byte, low bits
// first, the high bit meaning "more follows"; at most 5 bytes for an int32.

export function encodeVarInt(value: number): Uint8Array {
  const bytes: number[] = [];
  let rest = value >>> 0; // negative numbers travel as their 32-bit two's complement
  do {
    let byte = rest & 0x7f;
    rest >>>= 7;
    if (rest !== 0) byte |= 0x80;
    bytes.push(byte);
  } while (rest !== 0);
  return Uint8Array.from(bytes);
}

export type VarIntRead = { value: number; size: number } | "incomplete" | "invalid";

/** Reads a VarInt at `offset`; "incomplete" when more bytes are needed. */
export function readVarInt(buffer: Uint8Array, offset: number): VarIntRead {
  let value = 0;
  for (let i = 0; i < 5; i++) {
    const byte = buffer[offset + i];
    if (byte === undefined) return "incomplete";
    value |= (byte & 0x7f) << (7 * i);
    if ((byte & 0x80) === 0) return { value, size: i + 1 };
  }
  return "invalid";
}

export function encodeString(text: string): Uint8Array {
  const bytes = new TextEncoder().encode(text);
  return concat([encodeVarInt(bytes.length), bytes]);
}

export function concat(parts: readonly Uint8Array[]): Uint8Array {
  const total = parts.reduce((sum, part) => sum + part.length, 0);
  const out = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** A packet: VarInt length, then VarInt id and data. */
export function frame(id: number, ...data: Uint8Array[]): Uint8Array {
  const body = concat([encodeVarInt(id), ...data]);
  return concat([encodeVarInt(body.length), body]);
}
