import { describe, expect, test } from "bun:test";
import {
  Path, Pixmap, blurMask, blurPixmap, drawImage, rasterizeToMask, rgba,
} from "../../src/render/index.ts";
import { boxSizes } from "../../src/render/image/blur.ts";

/** A 4x4 checkerboard of red and blue with one transparent corner pixel. */
function checker(): Pixmap {
  const p = new Pixmap(4, 4);
  for (let y = 0; y < 4; y++) for (let x = 0; x < 4; x++) {
    const i = (y * 4 + x) * 4;
    p.data.set((x + y) % 2 === 0 ? [255, 0, 0, 255] : [0, 0, 255, 255], i);
  }
  p.data.set([0, 0, 0, 0], 0);
  return p;
}

describe("drawImage", () => {
  test("whole-number up-scales keep hard pixels (nearest neighbour)", () => {
    const p = new Pixmap(16, 16);
    drawImage(p, checker(), { x: 0, y: 0, width: 16, height: 16 });
    expect(p.pixel(5, 1)).toEqual(rgba(0, 0, 255));
    expect(p.pixel(7, 3)).toEqual(rgba(0, 0, 255));
    expect(p.pixel(8, 0)).toEqual(rgba(255, 0, 0));
    expect(p.pixel(3, 3).a).toBe(0);
  });

  test("other scales are bilinear: a 2-pixel ramp blends between its ends", () => {
    const ramp = Pixmap.fromStraightRgba(2, 1, [0, 0, 0, 255, 200, 200, 200, 255]);
    const p = new Pixmap(5, 1);
    drawImage(p, ramp, { x: 0, y: 0, width: 5, height: 1 });
    expect(p.pixel(0, 0).r).toBe(0);
    expect(p.pixel(2, 0).r).toBe(100);
    expect(p.pixel(4, 0).r).toBe(200);
    const forced = new Pixmap(4, 1);
    drawImage(forced, ramp, { x: 0, y: 0, width: 4, height: 1 }, { filter: "bilinear" });
    expect(forced.pixel(1, 0).r).toBe(50);
  });

  test("strong down-scales average (no aliasing): a fine checkerboard becomes its mean", () => {
    const fine = new Pixmap(64, 64);
    for (let i = 0; i < 64 * 64; i++) fine.data.set(((i % 64) + (i >> 6)) % 2 === 0 ? [255, 255, 255, 255] : [0, 0, 0, 255], i * 4);
    const p = new Pixmap(8, 8);
    drawImage(p, fine, { x: 0, y: 0, width: 8, height: 8 });
    expect(Math.abs(p.pixel(3, 3).r - 128)).toBeLessThanOrEqual(1);
  });

  test("position, clipping to the pixmap, opacity and a clip mask", () => {
    const p = new Pixmap(10, 10);
    p.fill(rgba(255, 255, 255));
    drawImage(p, checker(), { x: 8, y: -2, width: 4, height: 4 }, { opacity: 0.5 });
    expect(p.pixel(8, 0)).toEqual(rgba(255, 127, 127)); // red at half opacity over white
    const clipped = new Pixmap(10, 10);
    drawImage(clipped, checker(), { x: 0, y: 0, width: 8, height: 8 }, { clip: rasterizeToMask(new Path().rect(2, 2, 2, 2)) });
    expect(clipped.pixel(1, 1).a).toBe(0);
    expect(clipped.pixel(2, 2)).toEqual(rgba(255, 0, 0));
    expect(clipped.pixel(4, 4).a).toBe(0);
  });
});

describe("blur", () => {
  test("three boxes have the variance of the Gaussian (odd integer widths: within 10% from sigma 2)", () => {
    for (const sigma of [2, 2.5, 6, 13]) {
      const variance = boxSizes(sigma).reduce((v, w) => v + (w * w - 1) / 12, 0);
      expect(Math.abs(Math.sqrt(variance) - sigma) / sigma).toBeLessThan(0.1);
    }
  });

  test("blurring a mask keeps its mass, grows it by 3 sigma and spreads a hard edge", () => {
    const mask = rasterizeToMask(new Path().rect(10, 10, 20, 10));
    const blurred = blurMask(mask, 2);
    expect([blurred.x, blurred.y, blurred.width, blurred.height]).toEqual([4, 4, 32, 22]);
    const mass = (m: typeof mask) => m.data.reduce((s, v) => s + v, 0);
    expect(Math.abs(mass(blurred) - mass(mask)) / mass(mask)).toBeLessThan(0.01);
    const at = (x: number, y: number) => blurred.data[(y - blurred.y) * blurred.width + (x - blurred.x)]!;
    expect(Math.abs(at(10, 15) - 128)).toBeLessThan(30); // the old edge is about half
    expect(at(20, 15)).toBe(255);
    expect(at(5, 15)).toBeLessThan(5);
  });

  test("blurring a pixmap keeps premultiplied colour within alpha", () => {
    const p = new Pixmap(20, 20);
    p.data.set([200, 100, 0, 200], (10 * 20 + 10) * 4);
    blurPixmap(p, 1.5);
    for (let i = 0; i < p.data.length; i += 4) expect(p.data[i]!).toBeLessThanOrEqual(p.data[i + 3]!);
    expect(p.data[(10 * 20 + 10) * 4 + 3]).toBeLessThan(200);
    expect(p.data[(10 * 20 + 12) * 4 + 3]).toBeGreaterThan(0);
  });
});
