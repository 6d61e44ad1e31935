// Straight alpha from the premultiplied pixmap (what PNG and WebP are given):
// every alpha level, and images whose pixel count is not a multiple of four
// (opaque pixels are skipped four at a time).

import { expect, test } from "bun:test";
import { Pixmap, writeStraight } from "../../src/render/pixmap.ts";

/** The conversion one pixel at a time: c * 255 / a with 255/a in 16.16 fixed point, rounded. */
function reference(p: Pixmap): number[] {
  const out: number[] = [];
  for (let i = 0; i < p.data.length; i += 4) {
    const a = p.data[i + 3]!;
    if (a === 0) out.push(0, 0, 0, 0);
    else out.push(...[0, 1, 2].map((k) => (p.data[i + k]! * Math.round((255 * 65536) / a) + 32768) >>> 16), a);
  }
  return out;
}

test("every alpha level, and translucent pixels in the last, unaligned few", () => {
  for (const [width, height] of [[256, 4], [7, 3], [5, 1], [1, 1], [3, 2]] as const) {
    const p = new Pixmap(width, height);
    for (let i = 0, k = 0; i < p.data.length; i += 4, k++) {
      // Mostly opaque, as drawings are, with every level of alpha among them and at the very end.
      const a = k === width * height - 1 ? 77 : k % 3 === 0 ? 255 : (k * 37) % 256;
      const c = (k * 11) % (a + 1);
      p.data.set([c, (c * 7) % (a + 1), a >> 1, a], i);
    }
    const out = new Uint8Array(p.data.length);
    expect(writeStraight(p, out)).toBe(false);
    expect({ width, height, pixels: [...out] }).toEqual({ width, height, pixels: reference(p) });
  }
});

test("reports an opaque image as opaque, and one transparent pixel as not", () => {
  const p = new Pixmap(9, 3);
  p.fill({ r: 10, g: 20, b: 30, a: 255 });
  expect(writeStraight(p, new Uint8Array(p.data.length))).toBe(true);
  p.data[p.data.length - 1] = 0;
  p.data.fill(0, p.data.length - 4);
  expect(writeStraight(p, new Uint8Array(p.data.length))).toBe(false);
});
