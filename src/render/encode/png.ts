// A PNG writer on node:zlib. The expensive part of PNG in JS is the filter
// loop, not deflate, so filters are chosen deliberately instead of trying all
// five per row:
// - images of at most 256 colours (badges, flat art) become palette PNGs at
//   the smallest bit depth, unfiltered (what the PNG spec advises for palettes);
// - others are RGB (opaque) or RGBA, each row filtered with Up or Sub,
//   whichever has the smaller sum of absolute residuals: two cheap candidates
//   that cover banners (vertical repetition favours Up, horizontal gradients Sub).

import { crc32, deflateSync } from "node:zlib";
import type { Pixmap } from "../pixmap.ts";

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

/** Filters one row (already in `line`, `bpp` bytes per pixel) into `out` at `o`, Up or Sub by the smaller residual sum. */
function filterRow(line: Uint8Array, previous: Uint8Array, length: number, bpp: number, out: Uint8Array, o: number): void {
  // Residuals as signed bytes: |r| of (a - b) & 255 read as -128..127.
  let up = 0, sub = 0;
  for (let i = 0; i < length; i++) {
    const u = (line[i]! - previous[i]!) & 255;
    const s = (line[i]! - (i >= bpp ? line[i - bpp]! : 0)) & 255;
    up += u < 128 ? u : 256 - u;
    sub += s < 128 ? s : 256 - s;
  }
  if (up <= sub) {
    out[o] = 2;
    for (let i = 0; i < length; i++) out[o + 1 + i] = line[i]! - previous[i]!;
  } else {
    out[o] = 1;
    for (let i = 0; i < bpp; i++) out[o + 1 + i] = line[i]!;
    for (let i = bpp; i < length; i++) out[o + 1 + i] = line[i]! - line[i - bpp]!;
  }
}

function encodeTrueColor(width: number, height: number, rgba: Uint8Array, opaque: boolean, level: number): Uint8Array {
  const bpp = opaque ? 3 : 4;
  const length = width * bpp;
  const raw = new Uint8Array((length + 1) * height);
  let line = new Uint8Array(length);
  let previous = new Uint8Array(length); // the row above the first is all zeros
  for (let y = 0; y < height; y++) {
    if (opaque) {
      for (let x = 0, s = y * width * 4, d = 0; x < width; x++, s += 4, d += 3) {
        line[d] = rgba[s]!;
        line[d + 1] = rgba[s + 1]!;
        line[d + 2] = rgba[s + 2]!;
      }
    } else {
      line.set(rgba.subarray(y * length, (y + 1) * length));
    }
    filterRow(line, previous, length, bpp, raw, y * (length + 1));
    [line, previous] = [previous, line];
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
  const rgba = pixmap.toStraightRgba();
  const pixels = new Uint32Array(rgba.buffer);
  const colors = distinctColors(pixels);
  if (colors) return encodePalette(width, height, rgba, colors, level);
  let opaque = true;
  for (let i = 3; i < rgba.length; i += 4) {
    if (rgba[i] !== 255) {
      opaque = false;
      break;
    }
  }
  return encodeTrueColor(width, height, rgba, opaque, level);
}
