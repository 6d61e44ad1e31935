// A reader over one binary reply of the Hytale query plugins (HyQuery v1 and
// v2, A2S_INFO, QUIC's Version Negotiation). Every read checks that its bytes
// are in the packet: a length or count that points past its end throws, so a
// truncated or lying reply is refused as a bad reply, never read beyond.

export class WireReader {
  private at = 0;
  private readonly view: DataView;

  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get remaining(): number {
    return this.bytes.length - this.at;
  }

  /** Throws unless `count` more bytes are there. */
  private need(count: number, what: string): void {
    if (count > this.remaining) throw new Error(`${what} runs past the end of the reply`);
  }

  u8(what = "a byte"): number {
    this.need(1, what);
    return this.bytes[this.at++]!;
  }

  u16le(what = "a 16-bit number"): number {
    return this.fixed(2, what, (at) => this.view.getUint16(at, true));
  }

  i32le(what = "a 32-bit number"): number {
    return this.fixed(4, what, (at) => this.view.getInt32(at, true));
  }

  u32le(what = "a 32-bit number"): number {
    return this.fixed(4, what, (at) => this.view.getUint32(at, true));
  }

  u32be(what = "a 32-bit number"): number {
    return this.fixed(4, what, (at) => this.view.getUint32(at));
  }

  /** A number of `size` bytes, read by `read` where it starts. */
  private fixed(size: number, what: string, read: (at: number) => number): number {
    this.need(size, what);
    const value = read(this.at);
    this.at += size;
    return value;
  }

  take(count: number, what = "a field"): Uint8Array {
    this.need(count, what);
    const taken = this.bytes.subarray(this.at, this.at + count);
    this.at += count;
    return taken;
  }

  /** A string behind its 16-bit little-endian byte length (HyQuery's strings); bad UTF-8 is replaced, not thrown. */
  stringU16(what = "a string"): string {
    return decode(this.take(this.u16le(`${what}'s length`), what));
  }

  /** A NUL-terminated string (A2S's strings). */
  cString(what = "a string"): string {
    const end = this.bytes.indexOf(0, this.at);
    if (end === -1) throw new Error(`${what} has no end in the reply`);
    const text = decode(this.bytes.subarray(this.at, end));
    this.at = end + 1;
    return text;
  }

  /** Whether the bytes equal `expected` there, without reading them. */
  startsWith(expected: Uint8Array): boolean {
    return this.remaining >= expected.length && expected.every((byte, i) => this.bytes[this.at + i] === byte);
  }

  /** Throws unless every byte was read: a reply of a layout must end where the layout does. */
  end(what: string): void {
    if (this.remaining !== 0) throw new Error(`${this.remaining} bytes after the end of ${what}`);
  }
}

function decode(bytes: Uint8Array): string {
  return new TextDecoder("utf-8").decode(bytes);
}

/** ASCII text as bytes: the plugins' magic words. */
export function asciiBytes(text: string): Uint8Array {
  return Uint8Array.from(text, (char) => char.charCodeAt(0));
}
