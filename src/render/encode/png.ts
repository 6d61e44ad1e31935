// A PNG writer on node:zlib. The expensive part of PNG in JS is the filter
// loop, not deflate, so filters are chosen deliberately instead of trying all
// five per row:
// - images of at most 256 colours (badges, flat art) become palette PNGs at
//   the smallest bit depth, unfiltered (what the PNG spec advises for palettes),
//   except small images of more than 16 colours (see encodePng);
// - others are RGB (opaque) or RGBA, filtered with Up (the first row Sub),
//   on whole pixels as 32-bit words with bytewise (SWAR) subtraction: one
//   operation per pixel instead of four. Up deflates smaller than Sub on
//   every banner and nearly every test drawing (by 10-45% on banners: a row
//   of a gradient or of text repeats the one above it far more than a pixel
//   repeats its left neighbour), and the smaller data also deflates faster;
//   choosing between them by counting repeated pixels on sampled rows picked
//   Sub for most 468x60 banners. On badges Up comes within 2% of Paeth's
//   bytes for a fraction of its byte-by-byte loop (docs/performance-notes.md,
//   "PNG encoding").

import { crc32, deflateSync } from "node:zlib";
import type { Pixmap } from "../pixmap.ts";
import { WorkingBuffer } from "../working-buffer.ts";
import { straightRgba } from "./straight-scratch.ts";

export interface PngOptions {
  /** zlib level 1..9; by default the fast choice below (FAST_LEVEL). */
  level?: number;
  /**
   * Spend time for bytes, for images encoded once and served many times
   * (cached badges): the fast choice, true colour with each row given
   * whichever of the five filters leaves the smallest sum of absolute
   * differences, and (for at most 256 colours) a palette are all written and
   * the smallest kept. Several times the time of the fast choice, for 5-30%
   * fewer bytes on badges (docs/performance-notes.md, "PNG encoding").
   */
  compact?: boolean;
}

/**
 * zlib level 2: filtered images are mostly zeros, on which level 6's lazy
 * matching costs 2-3x the time for files a third smaller. Measured on the
 * bench banners with text, level 2 against 3 is 10-20% faster for under 1%
 * more bytes. Callers that cache long may ask for more.
 */
const FAST_LEVEL = 2;
/** Pixel count up to which images with more than 16 colours go to true colour. */
const SMALL_IMAGE = 64 * 64 * 4;
/**
 * Filtered data up to this many bytes (a badge at 1x or 2x) is deflated by
 * Bun's libdeflate at its level 1 when no level is asked for: on badges that
 * is zlib level 2's size or a little smaller in two thirds of the time. zlib
 * stays for larger images: on a banner's long runs of zeros its level 2 is
 * the faster, and the checksum libdeflate leaves to us grows with the data.
 */
const SMALL_DATA = 64 * 1024;
const SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

/**
 * Writes `value` big-endian at `offset`. Byte stores, not a DataView: a view
 * needs the array's `.buffer`, which makes the engine give every small array
 * its own ArrayBuffer object (a cost per chunk of every badge).
 */
function writeUint32(out: Uint8Array, offset: number, value: number): void {
  out[offset] = value >>> 24;
  out[offset + 1] = value >>> 16;
  out[offset + 2] = value >>> 8;
  out[offset + 3] = value;
}

function header(width: number, height: number, bitDepth: number, colorType: number): Uint8Array {
  const data = new Uint8Array(13);
  writeUint32(data, 0, width);
  writeUint32(data, 4, height);
  data[8] = bitDepth;
  data[9] = colorType;
  // data[10..12]: deflate compression, adaptive filtering, no interlace: all 0.
  return data;
}

/** A chunk's type (four ASCII letters), then its data in one or more parts (written one after the other). */
type Chunk = readonly [string, ...Uint8Array[]];

const EMPTY = new Uint8Array(0);

function chunkLength(chunk: Chunk): number {
  let length = 0;
  for (let part = 1; part < chunk.length; part++) length += (chunk[part] as Uint8Array).length;
  return length;
}

/** The PNG file: the signature, then each chunk with its length and CRC, written once into the file's bytes. */
function assemble(chunks: readonly Chunk[]): Uint8Array {
  let size = SIGNATURE.length;
  for (const chunk of chunks) size += 12 + chunkLength(chunk);
  const out = new Uint8Array(size);
  out.set(SIGNATURE, 0);
  let offset = SIGNATURE.length;
  for (const chunk of chunks) {
    writeUint32(out, offset, chunkLength(chunk));
    for (let i = 0; i < 4; i++) out[offset + 4 + i] = chunk[0].charCodeAt(i);
    let end = offset + 8;
    for (let part = 1; part < chunk.length; part++) {
      const data = chunk[part] as Uint8Array;
      out.set(data, end);
      end += data.length;
    }
    writeUint32(out, end, crc32(out.subarray(offset + 4, end)));
    offset = end + 4;
  }
  return out;
}

/** deflate, 32 KiB window; fastest: (0x78 << 8 | 0x01) is a multiple of 31, as the header check wants. */
const ZLIB_HEADER = Uint8Array.of(0x78, 0x01);

/**
 * A zlib stream (what IDAT holds) of `raw`, in parts: zlib at `level`, or for
 * small data at the fast default, libdeflate's raw deflate between the zlib
 * header and the Adler-32 trailer (written into the file as they are, not
 * joined first).
 */
function zlibStream(raw: Uint8Array<ArrayBuffer>, level: number | undefined): Uint8Array[] {
  if (level !== undefined || raw.length > SMALL_DATA) return [deflateSync(raw, { level: level ?? FAST_LEVEL })];
  const trailer = new Uint8Array(4);
  writeUint32(trailer, 0, Bun.hash.adler32(raw));
  return [ZLIB_HEADER, Bun.deflateSync(raw, { library: "libdeflate", level: 1 }), trailer];
}

// The colour set's scratch, reused by every encode: a slot is in use when its stamp is this call's
// (doubles, so that the count never wraps: 2^53 encodes).
const colorKeys = new Int32Array(512);
const colorStamps = new Float64Array(512);
const colorsFound = new Int32Array(256);
let colorStamp = 0;

/**
 * Distinct colours (pixel words) in first-seen order, or null past `limit`
 * (at most 256): an open-addressing set of 512 slots, far cheaper per lookup
 * than a Map, and runs of one colour skip the lookup altogether. The list is
 * scratch, valid until the next call. Stopping at the limit matters: a badge
 * that will be true colour anyway is known as such in its first rows.
 */
function distinctColors(pixels: Int32Array, limit: number): Int32Array | null {
  const stamp = ++colorStamp;
  let count = 0;
  let last = -1;
  for (let i = 0; i < pixels.length; i++) {
    const p = pixels[i]!;
    if (p === last) continue;
    last = p;
    let slot = Math.imul(p, 0x9e3779b1) >>> 23;
    while (colorStamps[slot] === stamp && colorKeys[slot] !== p) slot = (slot + 1) & 511;
    if (colorStamps[slot] === stamp) continue;
    if (count === limit) return null;
    colorStamps[slot] = stamp;
    colorKeys[slot] = p;
    colorsFound[count++] = p;
  }
  return colorsFound.subarray(0, count);
}

function encodePalette(width: number, height: number, pixels: Int32Array, colors: Int32Array, level: number | undefined): Uint8Array {
  const bytes = new Uint8Array(colors.buffer, colors.byteOffset, colors.length * 4);
  // Translucent entries first so that tRNS can stop at the last of them.
  const order = Array.from(colors.keys()).sort((p, q) => bytes[p * 4 + 3]! - bytes[q * 4 + 3]!);
  const plte = new Uint8Array(order.length * 3);
  const trns: number[] = [];
  const indexOf = new Map<number, number>();
  order.forEach((entry, index) => {
    plte.set(bytes.subarray(entry * 4, entry * 4 + 3), index * 3);
    const a = bytes[entry * 4 + 3]!;
    if (a !== 255) trns.push(a);
    indexOf.set(colors[entry]!, index);
  });
  const depth = order.length <= 2 ? 1 : order.length <= 4 ? 2 : order.length <= 16 ? 4 : 8;
  const perByte = 8 / depth;
  const stride = 1 + Math.ceil(width / perByte);
  const raw = new Uint8Array(stride * height); // filter byte 0 (None) on every row
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
  const chunks: Chunk[] = [["IHDR", header(width, height, depth, 3)], ["PLTE", plte]];
  if (trns.length > 0) chunks.push(["tRNS", Uint8Array.from(trns)]);
  chunks.push(["IDAT", ...zlibStream(raw, level)], ["IEND", EMPTY]);
  return assemble(chunks);
}

const HIGH = 0x80808080 | 0;
const LOW = 0x7f7f7f7f;

/** a - b in each of the four bytes independently (mod 256), no borrow between bytes. */
function byteDifference(a: number, b: number): number {
  return (((a | HIGH) - (b & LOW)) | 0) ^ ((a ^ ~b) & HIGH);
}

// Scratch space reused by every encode (single threaded): the filtered rows.
const rawScratch = WorkingBuffer.forStep();
let filteredRow = new Int32Array(0);

/** Filters row y of `pixels` (width words) into `out` with Up, or Sub for the first row (nothing above); returns the filter's number. */
function upRow(pixels: Int32Array, width: number, y: number, out: Int32Array): 1 | 2 {
  const row = y * width;
  if (y > 0) {
    for (let x = 0, above = row - width; x < width; x++) out[x] = byteDifference(pixels[row + x]!, pixels[above + x]!);
    return 2;
  }
  out[0] = pixels[row]!;
  for (let x = 1; x < width; x++) out[x] = byteDifference(pixels[row + x]!, pixels[row + x - 1]!);
  return 1;
}

/** The PNG filters by number: None, Sub, Up, Average, Paeth. */
type FilterType = 0 | 1 | 2 | 3 | 4;

/**
 * Row y of straight RGBA bytes filtered with `type`, byte by byte (the plain
 * form, for the compact encoding): one loop per filter, the first pixel (no
 * left neighbour) and the first row (none above) on their own.
 */
function filterBytes(type: FilterType, rgba: Uint8Array, width: number, y: number, out: Uint8Array): void {
  const length = width * 4, row = y * length, above = row - length;
  const first = y === 0;
  switch (type) {
    case 0:
      out.set(rgba.subarray(row, row + length));
      return;
    case 1:
      for (let i = 0; i < 4; i++) out[i] = rgba[row + i]!;
      for (let i = 4; i < length; i++) out[i] = rgba[row + i]! - rgba[row + i - 4]!;
      return;
    case 2:
      if (first) out.set(rgba.subarray(row, row + length));
      else for (let i = 0; i < length; i++) out[i] = rgba[row + i]! - rgba[above + i]!;
      return;
    case 3:
      for (let i = 0; i < 4; i++) out[i] = rgba[row + i]! - (first ? 0 : rgba[above + i]! >> 1);
      for (let i = 4; i < length; i++) out[i] = rgba[row + i]! - ((rgba[row + i - 4]! + (first ? 0 : rgba[above + i]!)) >> 1);
      return;
    case 4:
      if (first) {
        // Nothing above: Paeth predicts from the left, as Sub does.
        filterBytes(1, rgba, width, y, out);
        return;
      }
      for (let i = 0; i < 4; i++) out[i] = rgba[row + i]! - rgba[above + i]!;
      for (let i = 4; i < length; i++) {
        const left = rgba[row + i - 4]!, up = rgba[above + i]!, upLeft = rgba[above + i - 4]!;
        const pa = Math.abs(up - upLeft), pb = Math.abs(left - upLeft), pc = Math.abs(left + up - 2 * upLeft);
        out[i] = rgba[row + i]! - (pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft);
      }
  }
}

/** Sum of the filtered bytes as signed magnitudes (the usual estimate of what deflates best); alpha skipped when opaque. */
function filterScore(filtered: Uint8Array, opaque: boolean): number {
  let score = 0;
  for (let i = 0; i < filtered.length; i++) {
    if (opaque && (i & 3) === 3) continue;
    const v = filtered[i]!;
    score += v < 128 ? v : 256 - v;
  }
  return score;
}

const candidateRows = Array.from({ length: 5 }, () => new Uint8Array(0));

/** Row y with the filter of the lowest score written into `out`; returns the filter's number. */
function adaptiveRow(rgba: Uint8Array, width: number, y: number, opaque: boolean, out: Uint8Array): FilterType {
  let best: FilterType = 0, bestScore = Infinity;
  for (let type = 0 as FilterType; type <= 4; type++) {
    if (candidateRows[type]!.length < width * 4) candidateRows[type] = new Uint8Array(width * 4);
    const candidate = candidateRows[type]!.subarray(0, width * 4);
    filterBytes(type, rgba, width, y, candidate);
    const score = filterScore(candidate, opaque);
    if (score < bestScore) {
      best = type;
      bestScore = score;
    }
  }
  out.set(candidateRows[best]!.subarray(0, width * 4));
  return best;
}

function encodeTrueColor(width: number, height: number, pixels: Int32Array, opaque: boolean, level: number | undefined, compact = false): Uint8Array {
  const bpp = opaque ? 3 : 4;
  const length = width * bpp;
  const raw = rawScratch.take((length + 1) * height);
  if (filteredRow.length < width) filteredRow = new Int32Array(width);
  const words = filteredRow;
  const filtered = new Uint8Array(words.buffer, 0, width * 4);
  const rgba = new Uint8Array(pixels.buffer, pixels.byteOffset, width * height * 4);
  for (let y = 0; y < height; y++) {
    const o = y * (length + 1);
    raw[o] = compact ? adaptiveRow(rgba, width, y, opaque, filtered) : upRow(pixels, width, y, words);
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
  return assemble([["IHDR", header(width, height, 8, opaque ? 2 : 6)], ["IDAT", ...zlibStream(raw, level)], ["IEND", EMPTY]]);
}

/**
 * The fast choice: palette when the image has at most 256 colours (except
 * small images of more than 16: a palette costs up to 4 bytes per colour up
 * front (PLTE + tRNS), which on a badge's anti-aliased text outweighs what it
 * saves, and true colour is smaller), else RGB or RGBA.
 */
function encodeChosen(width: number, height: number, pixels: Int32Array, colors: Int32Array | null, opaque: boolean, level: number | undefined): Uint8Array {
  if (!colors || (width * height <= SMALL_IMAGE && colors.length > 16)) return encodeTrueColor(width, height, pixels, opaque, level);
  return encodePalette(width, height, pixels, colors, level);
}

/** Encodes a pixmap as PNG: palette when it has at most 256 colours, else RGB or RGBA. */
export function encodePng(pixmap: Pixmap, options: PngOptions = {}): Uint8Array {
  const { level } = options;
  const { width, height } = pixmap;
  const { rgba, opaque } = straightRgba(pixmap);
  const pixels = new Int32Array(rgba.buffer, 0, width * height);
  // Small images of more than 16 colours are true colour unless compact (which tries a palette too).
  const colors = distinctColors(pixels, options.compact || width * height > SMALL_IMAGE ? 256 : 16);
  const chosen = encodeChosen(width, height, pixels, colors, opaque, level);
  if (!options.compact) return chosen;
  // The smallest of the fast choice, per-row filters, and a palette where one is possible.
  const candidates = [chosen, encodeTrueColor(width, height, pixels, opaque, level, true)];
  if (colors) candidates.push(encodePalette(width, height, pixels, colors, level));
  return candidates.reduce((smallest, candidate) => (candidate.length < smallest.length ? candidate : smallest));
}
