// From inflated PNG image data to straight 8-bit RGBA: rows unfiltered in
// place, pixels of each interlace pass put where they belong, samples of
// every bit depth scaled to 0..255, palettes and colour keys applied.

import { bitsPerPixel, channelsOf, passesOf, PngFormatError, rowBytes, type PngStructure } from "./png-structure.ts";

function paeth(left: number, up: number, upLeft: number): number {
  const p = left + up - upLeft;
  const pa = Math.abs(p - left), pb = Math.abs(p - up), pc = Math.abs(p - upLeft);
  return pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
}

/** Reverses the row's filter in place; `previous` is the unfiltered row above in the same pass (null: zeros). */
function unfilterRow(filter: number, row: Uint8Array, previous: Uint8Array | null, stride: number): void {
  if (filter === 0 || (filter === 2 && !previous)) return;
  if (filter > 4) throw new PngFormatError(`unknown filter type ${filter}`);
  for (let i = 0; i < row.length; i++) {
    const left = i >= stride ? row[i - stride]! : 0;
    const up = previous ? previous[i]! : 0;
    const predictor = filter === 1 ? left : filter === 2 ? up : filter === 3 ? (left + up) >> 1
      : paeth(left, up, previous && i >= stride ? previous[i - stride]! : 0);
    row[i] = row[i]! + predictor;
  }
}

/** The index-th sample of a row at the given bit depth (samples of less than a byte are packed from the high bits). */
function sampleAt(row: Uint8Array, index: number, depth: number): number {
  if (depth === 8) return row[index]!;
  if (depth === 16) return (row[index * 2]! << 8) | row[index * 2 + 1]!;
  const bit = index * depth;
  return (row[bit >> 3]! >> (8 - depth - (bit & 7))) & ((1 << depth) - 1);
}

/** Straight RGBA, 4 bytes per pixel, from image data of exactly imageDataSize(header) bytes. */
export function toStraightRgba(png: PngStructure, data: Uint8Array): Uint8Array {
  const { header, palette, transparentKey: key } = png;
  const { width, colorType, bitDepth: depth } = header;
  const out = new Uint8Array(width * header.height * 4);
  const stride = Math.max(1, bitsPerPixel(header) >> 3);
  const channels = channelsOf(header);
  const maxSample = (1 << depth) - 1;
  // Every sample value scaled to 0..255 (palette indices stay as they are).
  const toByte = Uint8Array.from({ length: maxSample + 1 }, (_, v) => (colorType === 3 ? v : Math.round((v * 255) / maxSample)));
  const values = new Uint16Array(width * channels);
  let offset = 0;
  for (const pass of passesOf(header)) {
    const length = rowBytes(header, pass.width);
    let previous: Uint8Array | null = null;
    for (let y = 0; y < pass.height; y++) {
      const row = data.subarray(offset + 1, offset + 1 + length);
      unfilterRow(data[offset]!, row, previous, stride);
      previous = row;
      offset += 1 + length;
      for (let i = 0; i < pass.width * channels; i++) values[i] = sampleAt(row, i, depth);
      let o = ((pass.y0 + y * pass.dy) * width + pass.x0) * 4;
      for (let x = 0, v = 0; x < pass.width; x++, v += channels, o += pass.dx * 4) {
        if (colorType === 3) {
          const index = values[v]!;
          if (index * 4 >= palette.length) throw new PngFormatError(`palette index ${index} out of range`);
          out.set(palette.subarray(index * 4, index * 4 + 4), o);
        } else if (colorType === 0 || colorType === 4) {
          out[o] = out[o + 1] = out[o + 2] = toByte[values[v]!]!;
          out[o + 3] = colorType === 4 ? toByte[values[v + 1]!]! : key && values[v] === key[0] ? 0 : 255;
        } else {
          out[o] = toByte[values[v]!]!;
          out[o + 1] = toByte[values[v + 1]!]!;
          out[o + 2] = toByte[values[v + 2]!]!;
          out[o + 3] = colorType === 6 ? toByte[values[v + 3]!]!
            : key && values[v] === key[0] && values[v + 1] === key[1] && values[v + 2] === key[2] ? 0 : 255;
        }
      }
    }
  }
  return out;
}
