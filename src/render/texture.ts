// Pixel-art textures: noise from a small integer hash (the same picture on
// every run, no random state), a square tile coloured from it, and the tile
// repeated over an area. Drawn scaled by a whole factor with the "nearest"
// filter, each texture pixel becomes a hard square, as in pixel art.

import { type Color } from "./color.ts";
import { packPixel, Pixmap } from "./pixmap.ts";

/** A value in [0, 1) for integer coordinates and a seed: stable, with no visible pattern at texture sizes. */
export function hashNoise(x: number, y: number, seed: number): number {
  let h = (Math.imul(x, 374761393) + Math.imul(y, 668265263) + Math.imul(seed, 1013904223)) | 0;
  h = Math.imul(h ^ (h >>> 13), 1274126177);
  h ^= h >>> 16;
  return (h >>> 0) / 4_294_967_296;
}

/**
 * Noise constant over cells of `cellWidth` x `cellHeight` pixels (clumps,
 * streaks), repeating every `period` pixels both ways so that a tile of that
 * side joins its neighbours without a seam (the cells must divide it).
 */
export function cellNoise(x: number, y: number, cellWidth: number, cellHeight: number, period: number, seed: number): number {
  const wrap = (value: number, cell: number) => Math.floor((((value % period) + period) % period) / cell);
  return hashNoise(wrap(x, cellWidth), wrap(y, cellHeight), seed);
}

/** A `side` x `side` tile, each pixel coloured by `colorAt` (opaque or not, straight alpha). */
export function pixelTile(side: number, colorAt: (x: number, y: number) => Color): Pixmap {
  const tile = new Pixmap(side, side);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const { r, g, b, a } = colorAt(x, y);
      const premultiply = (channel: number) => Math.round((channel * a) / 255);
      tile.pixels[y * side + x] = packPixel(premultiply(r), premultiply(g), premultiply(b), a);
    }
  }
  return tile;
}

/** `tile` repeated from the top-left corner over `columns` x `rows` pixels (the last repeats cut). */
export function repeatTile(tile: Pixmap, columns: number, rows: number): Pixmap {
  const texture = new Pixmap(columns, rows);
  for (let y = 0; y < rows; y++) {
    const from = (y % tile.height) * tile.width;
    for (let x = 0; x < columns; x += tile.width) {
      const count = Math.min(tile.width, columns - x);
      texture.pixels.set(tile.pixels.subarray(from, from + count), y * columns + x);
    }
  }
  return texture;
}
