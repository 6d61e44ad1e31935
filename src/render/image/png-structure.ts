// The structure of a PNG file: its chunks walked and checked (lengths, CRCs,
// header values, palette) before any image data is inflated, and the exact
// number of bytes its image data must inflate to. That number bounds the
// inflate: a small file whose data inflates to gigabytes (a decompression
// bomb) is refused after inflating at most that many bytes.

import { crc32 } from "node:zlib";

export class PngFormatError extends Error {}

export interface PngHeader {
  width: number;
  height: number;
  bitDepth: number;
  /** 0 grey, 2 RGB, 3 palette, 4 grey + alpha, 6 RGBA. */
  colorType: number;
  interlaced: boolean;
}

export interface PngStructure {
  header: PngHeader;
  /** Palette entries as straight RGBA (tRNS alphas applied), for colour type 3; else empty. */
  palette: Uint8Array;
  /** The tRNS colour of grey (one sample) or RGB (three) images, in raw sample values; else null. */
  transparentKey: number[] | null;
  /** The IDAT chunks' data joined: one zlib stream. */
  compressed: Uint8Array;
}

const CHANNELS = new Map([[0, 1], [2, 3], [3, 1], [4, 2], [6, 4]]);
const BIT_DEPTHS = new Map([[0, [1, 2, 4, 8, 16]], [2, [8, 16]], [3, [1, 2, 4, 8]], [4, [8, 16]], [6, [8, 16]]]);

/** A sub-image the image data holds: the whole image, or one of the seven Adam7 passes. */
export interface Pass {
  x0: number;
  y0: number;
  dx: number;
  dy: number;
  width: number;
  height: number;
}

/** Adam7 passes as [x0, y0, dx, dy]. */
const ADAM7 = [[0, 0, 8, 8], [4, 0, 8, 8], [0, 4, 4, 8], [2, 0, 4, 4], [0, 2, 2, 4], [1, 0, 2, 2], [0, 1, 1, 2]] as const;

/** The passes in file order; passes that hold no pixel (small interlaced images) are left out, as they take no bytes. */
export function passesOf(header: PngHeader): Pass[] {
  const { width, height } = header;
  if (!header.interlaced) return [{ x0: 0, y0: 0, dx: 1, dy: 1, width, height }];
  return ADAM7.map(([x0, y0, dx, dy]) => ({
    x0, y0, dx, dy,
    width: Math.max(0, Math.ceil((width - x0) / dx)),
    height: Math.max(0, Math.ceil((height - y0) / dy)),
  })).filter((pass) => pass.width > 0 && pass.height > 0);
}

/** Samples per pixel: grey 1, RGB 3, palette index 1, grey + alpha 2, RGBA 4. */
export function channelsOf(header: PngHeader): number {
  return CHANNELS.get(header.colorType)!;
}

export function bitsPerPixel(header: PngHeader): number {
  return channelsOf(header) * header.bitDepth;
}

/** Bytes of one row of `width` pixels, without its filter byte. */
export function rowBytes(header: PngHeader, width: number): number {
  return Math.ceil((width * bitsPerPixel(header)) / 8);
}

/** Exactly what the image data inflates to: per pass, each row's filter byte and pixel bytes. */
export function imageDataSize(header: PngHeader): number {
  return passesOf(header).reduce((sum, pass) => sum + pass.height * (1 + rowBytes(header, pass.width)), 0);
}

function parseHeader(data: Uint8Array): PngHeader {
  if (data.length !== 13) throw new PngFormatError("IHDR chunk has the wrong length");
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const [bitDepth, colorType, compression, filter, interlace] = data.subarray(8, 13);
  if (!BIT_DEPTHS.get(colorType!)?.includes(bitDepth!)) {
    throw new PngFormatError(`unsupported colour type ${colorType} with bit depth ${bitDepth}`);
  }
  if (compression !== 0 || filter !== 0 || (interlace !== 0 && interlace !== 1)) {
    throw new PngFormatError("unknown compression, filter or interlace method");
  }
  return { width: view.getUint32(0), height: view.getUint32(4), bitDepth: bitDepth!, colorType: colorType!, interlaced: interlace === 1 };
}

/** RGBA entries from PLTE (1..256 RGB triples), with tRNS alphas for the first entries. */
function parsePalette(plte: Uint8Array | null, trns: Uint8Array | null): Uint8Array {
  if (!plte || plte.length === 0 || plte.length % 3 !== 0 || plte.length > 256 * 3) {
    throw new PngFormatError("palette image without a valid PLTE chunk");
  }
  const count = plte.length / 3;
  if (trns && trns.length > count) throw new PngFormatError("tRNS has more entries than the palette");
  const palette = new Uint8Array(count * 4);
  for (let i = 0; i < count; i++) {
    palette.set(plte.subarray(i * 3, i * 3 + 3), i * 4);
    palette[i * 4 + 3] = trns && i < trns.length ? trns[i]! : 255;
  }
  return palette;
}

/** The tRNS colour key of grey (2 bytes) and RGB (6 bytes) images. */
function parseTransparentKey(header: PngHeader, trns: Uint8Array | null): number[] | null {
  // tRNS is not allowed with an alpha channel; such a chunk is ignored, as decoders commonly do.
  if (!trns || (header.colorType !== 0 && header.colorType !== 2)) return null;
  const samples = header.colorType === 0 ? 1 : 3;
  if (trns.length !== samples * 2) throw new PngFormatError("tRNS chunk has the wrong length");
  return Array.from({ length: samples }, (_, i) => (trns[i * 2]! << 8) | trns[i * 2 + 1]!);
}

const typeName = (bytes: Uint8Array) => String.fromCharCode(...bytes);

/** Walks the chunks after the signature up to IEND; throws PngFormatError for anything malformed. */
export function readPngStructure(bytes: Uint8Array): PngStructure {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let header: PngHeader | null = null;
  let plte: Uint8Array | null = null, trns: Uint8Array | null = null;
  const idat: Uint8Array[] = [];
  for (let offset = 8; ;) {
    if (offset + 12 > bytes.length) throw new PngFormatError("PNG ends before its IEND chunk");
    const length = view.getUint32(offset);
    const type = typeName(bytes.subarray(offset + 4, offset + 8));
    const dataEnd = offset + 8 + length;
    if (dataEnd + 4 > bytes.length) throw new PngFormatError(`${type} chunk runs past the end of the file`);
    if (crc32(bytes.subarray(offset + 4, dataEnd)) !== view.getUint32(dataEnd)) throw new PngFormatError(`${type} chunk fails its CRC`);
    const data = bytes.subarray(offset + 8, dataEnd);
    if ((header === null) !== (type === "IHDR")) throw new PngFormatError("IHDR must be the first chunk, and only once");
    if (type === "IHDR") header = parseHeader(data);
    else if (type === "PLTE") plte = data;
    else if (type === "tRNS") trns = data;
    else if (type === "IDAT") idat.push(data);
    else if (type === "IEND") break;
    // Bit 5 of the first letter: lower case marks an ancillary chunk, safe to skip.
    else if ((bytes[offset + 4]! & 0x20) === 0) throw new PngFormatError(`unsupported critical chunk ${type}`);
    offset = dataEnd + 4;
  }
  if (idat.length === 0) throw new PngFormatError("PNG has no image data");
  const h = header!;
  return {
    header: h,
    palette: h.colorType === 3 ? parsePalette(plte, trns) : new Uint8Array(0),
    transparentKey: parseTransparentKey(h, trns),
    compressed: idat.length === 1 ? idat[0]! : Buffer.concat(idat),
  };
}
