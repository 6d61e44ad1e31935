// A PNG writer on node:zlib. The expensive part of PNG in JS is the filter
// loop, not deflate, so filters are chosen deliberately instead of trying all
// five per row:
// - images of at most 256 colours (badges, flat art) become palette PNGs at
//   the smallest bit depth, unfiltered (what the PNG spec advises for palettes);
// - others are RGB (opaque) or RGBA, each row filtered with Up, or with Sub
//   when Up leaves most pixels non-zero and Sub leaves more zeros (vertical
//   repetition favours Up, horizontal runs Sub). Both filters work on whole
//   pixels as 32-bit words with bytewise (SWAR) subtraction: one operation per
//   pixel instead of four.

import { crc32, deflateSync } from "node:zlib";
import { writeStraight, type Pixmap } from "../pixmap.ts";

export interface PngOptions {
  /** zlib level 1..9. */
  level?: number;
}

const DEFAULT_LEVEL = 6;
const SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

function header(width: number, height: number, bitDepth: number, colorType: number): Uint8Array {
  const data = new Uint8Array(13);
  const view = new DataView(data.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  data[8] = bitDepth;
  data[9] = colorType;
  // data[10..12]: deflate compression, adaptive filtering, no interlace: all 0.
  return data;
}

function assemble(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(SIGNATURE.length + chunks.reduce((n, c) => n + c.length, 0));
  out.set(SIGNATURE, 0);
  let offset = SIGNATURE.length;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.length;
  }
  return out;
}

/** Distinct straight-alpha colours (as Uint32) in first-seen order, or null past 256. */
function distinctColors(pixels: Uint32Array): Map<number, number> | null {
  const seen = new Map<number, number>();
  let last = -1;
  for (let i = 0; i < pixels.length; i++) {
    const p = pixels[i]!;
    if (p === last) continue; // runs are common: skip the map lookup
    last = p;
    if (!seen.has(p)) {
      if (seen.size === 256) return null;
      seen.set(p, seen.size);
    }
  }
  return seen;
}

function encodePalette(width: number, height: number, rgba: Uint8Array, colors: Map<number, number>, level: number): Uint8Array {
  const bytes = new Uint8Array(new Uint32Array([...colors.keys()]).buffer);
  // Translucent entries first so that tRNS can stop at the last of them.
  const order = [...colors.keys()].map((_, i) => i).sort((p, q) => bytes[p * 4 + 3]! - bytes[q * 4 + 3]!);
  const plte = new Uint8Array(order.length * 3);
  const trns: number[] = [];
  const indexOf = new Map<number, number>();
  const keys = [...colors.keys()];
  order.forEach((entry, index) => {
    plte.set(bytes.subarray(entry * 4, entry * 4 + 3), index * 3);
    const a = bytes[entry * 4 + 3]!;
    if (a !== 255) trns.push(a);
    indexOf.set(keys[entry]!, index);
  });
  const depth = order.length <= 2 ? 1 : order.length <= 4 ? 2 : order.length <= 16 ? 4 : 8;
  const perByte = 8 / depth;
  const stride = 1 + Math.ceil(width / perByte);
  const raw = new Uint8Array(stride * height); // filter byte 0 (None) on every row
  const pixels = new Uint32Array(rgba.buffer, rgba.byteOffset, width * height);
  let last = -1, lastIndex = 0;
  for (let y = 0; y < height; y++) {
    const rowStart = y * stride + 1;
    for (let x = 0; x < width; x++) {
      const p = pixels[y * width + x]!;
      if (p !== last) {
        last = p;
        lastIndex = indexOf.get(p)!;
      }
      const slot = x % perByte;
      raw[rowStart + ((x / perByte) | 0)]! |= lastIndex << (8 - depth * (slot + 1));
    }
  }
  const chunks = [chunk("IHDR", header(width, height, depth, 3)), chunk("PLTE", plte)];
  if (trns.length > 0) chunks.push(chunk("tRNS", Uint8Array.from(trns)));
  chunks.push(chunk("IDAT", deflateSync(raw, { level })), chunk("IEND", new Uint8Array(0)));
  return assemble(chunks);
}

const HIGH = 0x80808080 | 0;
const LOW = 0x7f7f7f7f;

/** a - b in each of the four bytes independently (mod 256), no borrow between bytes. */
function byteDifference(a: number, b: number): number {
  return ((a | HIGH) - (b & LOW)) ^ ((a ^ ~b) & HIGH);
}

// Scratch space reused by every encode (single threaded): straight pixels and two filtered rows.
let straight = new Uint8Array(0);
let rawScratch = new Uint8Array(0);
let upRow = new Uint32Array(0);
let subRow = new Uint32Array(0);

/** Filters row y of `pixels` (width words) into upRow or subRow; returns the PNG filter type used. */
function filterRow(pixels: Uint32Array, width: number, y: number): 1 | 2 {
  const row = y * width, above = row - width;
  let zeros = 0;
  if (y === 0) {
    for (let x = 0; x < width; x++) if ((upRow[x] = pixels[x]!) === 0) zeros++;
  } else {
    for (let x = 0; x < width; x++) if ((upRow[x] = byteDifference(pixels[row + x]!, pixels[above + x]!)) === 0) zeros++;
  }
  if (2 * zeros >= width) return 2;
  let subZeros = (subRow[0] = pixels[row]!) === 0 ? 1 : 0;
  for (let x = 1; x < width; x++) if ((subRow[x] = byteDifference(pixels[row + x]!, pixels[row + x - 1]!)) === 0) subZeros++;
  return subZeros > zeros ? 1 : 2;
}

function encodeTrueColor(width: number, height: number, pixels: Uint32Array, opaque: boolean, level: number): Uint8Array {
  const bpp = opaque ? 3 : 4;
  const length = width * bpp;
  if (rawScratch.length < (length + 1) * height) rawScratch = new Uint8Array((length + 1) * height);
  const raw = rawScratch.subarray(0, (length + 1) * height);
  if (upRow.length < width) {
    upRow = new Uint32Array(width);
    subRow = new Uint32Array(width);
  }
  const upBytes = new Uint8Array(upRow.buffer, 0, width * 4);
  const subBytes = new Uint8Array(subRow.buffer, 0, width * 4);
  for (let y = 0; y < height; y++) {
    const type = filterRow(pixels, width, y);
    const filtered = type === 2 ? upBytes : subBytes;
    const o = y * (length + 1);
    raw[o] = type;
    if (!opaque) {
      raw.set(filtered, o + 1);
      continue;
    }
    // Filters act per channel, so dropping alpha after filtering equals filtering RGB (bpp 3).
    for (let s = 0, d = o + 1; s < filtered.length; s += 4, d += 3) {
      raw[d] = filtered[s]!;
      raw[d + 1] = filtered[s + 1]!;
      raw[d + 2] = filtered[s + 2]!;
    }
  }
  return assemble([
    chunk("IHDR", header(width, height, 8, opaque ? 2 : 6)),
    chunk("IDAT", deflateSync(raw, { level })),
    chunk("IEND", new Uint8Array(0)),
  ]);
}

/** Encodes a pixmap as PNG: palette when it has at most 256 colours, else RGB or RGBA. */
export function encodePng(pixmap: Pixmap, options: PngOptions = {}): Uint8Array {
  const level = options.level ?? DEFAULT_LEVEL;
  const { width, height } = pixmap;
  if (straight.length < pixmap.data.length) straight = new Uint8Array(pixmap.data.length);
  const rgba = straight.subarray(0, pixmap.data.length);
  const opaque = writeStraight(pixmap, rgba);
  const pixels = new Uint32Array(rgba.buffer, 0, width * height);
  const colors = distinctColors(pixels);
  if (colors) return encodePalette(width, height, rgba, colors, level);
  return encodeTrueColor(width, height, pixels, opaque, level);
}
