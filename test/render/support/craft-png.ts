// PNG files built by hand for decoder tests: any colour type, bit depth,
// filter and interlacing from raw sample values, or any chunks at all (a
// decompression bomb). Independent of the renderer's own PNG writer.

import { crc32, deflateSync } from "node:zlib";

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(Buffer.from(type, "latin1"), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

export function ihdr(width: number, height: number, bitDepth: number, colorType: number, interlaced: boolean): Uint8Array {
  const data = new Uint8Array(13);
  const view = new DataView(data.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  data.set([bitDepth, colorType, 0, 0, interlaced ? 1 : 0], 8);
  return chunk("IHDR", data);
}

/** Signature, the given chunks, IEND. */
export function pngFile(chunks: Uint8Array[]): Uint8Array {
  return new Uint8Array(Buffer.concat([Uint8Array.from(SIGNATURE), ...chunks, chunk("IEND", new Uint8Array(0))]));
}

export interface RawImage {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
  /** Raw sample values, row-major, all channels of a pixel in order (palette: one index). */
  samples: number[];
  /** RGB triples, for colour type 3. */
  palette?: number[];
  trns?: number[];
  interlaced?: boolean;
}

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const ADAM7 = [[0, 0, 8, 8], [4, 0, 8, 8], [0, 4, 4, 8], [2, 0, 4, 4], [0, 2, 2, 4], [1, 0, 2, 2], [0, 1, 1, 2]];

function packRow(image: RawImage, pixels: number[]): Uint8Array {
  const channels = CHANNELS[image.colorType]!, depth = image.bitDepth;
  const row = new Uint8Array(Math.ceil((pixels.length * channels * depth) / 8));
  let bit = 0;
  for (const pixel of pixels) {
    for (let c = 0; c < channels; c++, bit += depth) {
      const value = image.samples[pixel * channels + c]!;
      if (depth === 16) row.set([value >> 8, value & 255], bit / 8);
      else row[bit >> 3]! |= value << (8 - depth - (bit & 7));
    }
  }
  return row;
}

/** The row filtered with `type` (0-4), given the previous raw row of the same pass. */
function filterRow(type: number, row: Uint8Array, previous: Uint8Array | null, bpp: number): Uint8Array {
  const out = new Uint8Array(row.length);
  for (let i = 0; i < row.length; i++) {
    const a = i >= bpp ? row[i - bpp]! : 0, b = previous ? previous[i]! : 0, c = previous && i >= bpp ? previous[i - bpp]! : 0;
    const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
    const predictor = [0, a, b, (a + b) >> 1, pa <= pb && pa <= pc ? a : pb <= pc ? b : c][type]!;
    out[i] = row[i]! - predictor;
  }
  return out;
}

/** The image's raw (inflated) data: rows of each pass, cycling through the five filters. */
export function imageData(image: RawImage): Uint8Array {
  const { width, height } = image;
  const bpp = Math.max(1, (CHANNELS[image.colorType]! * image.bitDepth) >> 3);
  const passes = image.interlaced ? ADAM7 : [[0, 0, 1, 1]];
  const rows: Uint8Array[] = [];
  for (const [x0, y0, dx, dy] of passes as Array<[number, number, number, number]>) {
    let previous: Uint8Array | null = null;
    for (let y = y0; y < height; y += dy) {
      const pixels: number[] = [];
      for (let x = x0; x < width; x += dx) pixels.push(y * width + x);
      if (pixels.length === 0) break;
      const row = packRow(image, pixels);
      const type = rows.length % 5;
      rows.push(Uint8Array.of(type), filterRow(type, row, previous, bpp));
      previous = row;
    }
  }
  return new Uint8Array(Buffer.concat(rows));
}

export function craftPng(image: RawImage): Uint8Array {
  const chunks = [ihdr(image.width, image.height, image.bitDepth, image.colorType, image.interlaced ?? false)];
  if (image.palette) chunks.push(chunk("PLTE", Uint8Array.from(image.palette)));
  if (image.trns) chunks.push(chunk("tRNS", Uint8Array.from(image.trns)));
  chunks.push(chunk("IDAT", deflateSync(imageData(image))));
  return pngFile(chunks);
}
