// Pixel-art textures (src/render/texture.ts): stable hash noise, cells that
// repeat with the tile, tiles coloured pixel by pixel and repeated.

import { describe, expect, test } from "bun:test";
import { cellNoise, hashNoise, pixelTile, repeatTile, rgba } from "../../src/render/index.ts";

describe("hashNoise", () => {
  test("the same value for the same input on every call, in [0, 1), and spread out", () => {
    const values: number[] = [];
    for (let y = -8; y < 24; y++) for (let x = -8; x < 24; x++) values.push(hashNoise(x, y, 3));
    expect(values.every((value) => value >= 0 && value < 1)).toBe(true);
    expect(hashNoise(5, 7, 3)).toBe(hashNoise(5, 7, 3));
    // Neither coordinates swapped nor another seed give the same field.
    expect(hashNoise(5, 7, 3)).not.toBe(hashNoise(7, 5, 3));
    expect(hashNoise(5, 7, 3)).not.toBe(hashNoise(5, 7, 4));
    // Each quarter of [0, 1) gets a fair share of 1,024 values.
    for (let quarter = 0; quarter < 4; quarter++) {
      const share = values.filter((value) => Math.floor(value * 4) === quarter).length / values.length;
      expect(share).toBeGreaterThan(0.2);
      expect(share).toBeLessThan(0.3);
    }
  });
});

describe("cellNoise", () => {
  test("constant over each cell, repeating every period both ways (negative coordinates too)", () => {
    for (let y = -16; y < 32; y++) {
      for (let x = -16; x < 32; x++) {
        const value = cellNoise(x, y, 4, 2, 16, 9);
        expect(value).toBe(cellNoise(x - (((x % 4) + 4) % 4), y - (((y % 2) + 2) % 2), 4, 2, 16, 9));
        expect(value).toBe(cellNoise(x + 16, y - 16, 4, 2, 16, 9));
      }
    }
    expect(cellNoise(0, 0, 4, 2, 16, 9)).not.toBe(cellNoise(4, 0, 4, 2, 16, 9));
  });
});

describe("pixelTile and repeatTile", () => {
  test("each pixel its colour (premultiplied), repeated from the top-left and cut at the far edges", () => {
    const tile = pixelTile(4, (x, y) => rgba(x * 60, y * 60, 255, x === 3 ? 128 : 255));
    expect([...tile.data.subarray(0, 4)]).toEqual([0, 0, 255, 255]);
    const last = (3 * 4 + 3) * 4;
    expect([...tile.data.subarray(last, last + 4)]).toEqual([90, 90, 128, 128]);
    const texture = repeatTile(tile, 10, 6);
    expect([texture.width, texture.height]).toEqual([10, 6]);
    for (let y = 0; y < 6; y++) {
      for (let x = 0; x < 10; x++) expect(texture.pixels[y * 10 + x]).toBe(tile.pixels[(y % 4) * 4 + (x % 4)]!);
    }
  });
});
