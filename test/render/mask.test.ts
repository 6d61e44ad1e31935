import { describe, expect, test } from "bun:test";
import { Path, Pixmap, blurMask, drawMask, rasterizeToMask, rgba, scale, translate, compose } from "../../src/render/index.ts";
import { trimMask } from "../../src/render/raster/mask.ts";
import type { Mask } from "../../src/render/index.ts";
import { div255 } from "../../src/render/color.ts";
import { blendPixel } from "../../src/render/paint/blend.ts";
import { CacheBudget } from "../../src/cache/budget.ts";
import { CACHE_SHARES } from "../../src/config.ts";
import { RenderContext } from "../../src/render/context.ts";
import { packPixel } from "../../src/render/pixmap.ts";

const at = (mask: Mask, x: number, y: number): number => mask.data[(y - mask.y) * mask.width + (x - mask.x)]!;
const total = (mask: Mask): number => mask.data.reduce((sum, c) => sum + c, 0) / 255;

describe("rasterizeToMask", () => {
  test("an integer-aligned rectangle covers exactly its pixels", () => {
    const mask = rasterizeToMask(new Path().rect(2, 3, 5, 4));
    expect([mask.x, mask.y, mask.width, mask.height]).toEqual([2, 3, 5, 4]);
    expect([...mask.data].every((c) => c === 255)).toBe(true);
  });

  test("edges at half pixels give half coverage, corners a quarter", () => {
    const mask = rasterizeToMask(new Path().rect(0.5, 0.5, 3, 2));
    expect([mask.x, mask.y, mask.width, mask.height]).toEqual([0, 0, 4, 3]);
    expect(at(mask, 0, 0)).toBe(64);
    expect(at(mask, 1, 0)).toBe(128);
    expect(at(mask, 1, 1)).toBe(255);
    expect(at(mask, 3, 1)).toBe(128);
    expect(at(mask, 3, 2)).toBe(64);
  });

  test("a diagonal edge covers each pixel by its exact area", () => {
    // Triangle (0,0) (4,0) (0,4): the diagonal halves pixels (i, 3-i).
    const mask = rasterizeToMask(new Path().moveTo(0, 0).lineTo(4, 0).lineTo(0, 4).close());
    for (let i = 0; i < 4; i++) expect(at(mask, i, 3 - i)).toBe(128);
    expect(at(mask, 0, 0)).toBe(255);
    expect(at(mask, 3, 3)).toBe(0);
  });

  test("a shallow edge spanning many columns in one row", () => {
    // From (0,0) to (10,1), closed along the top: coverage of column i is (i + 0.5) / 10.
    const mask = rasterizeToMask(new Path().moveTo(0, 0).lineTo(10, 0).lineTo(10, 1).close());
    for (let i = 0; i < 10; i++) expect(Math.abs(at(mask, i, 0) - ((i + 0.5) / 10) * 255)).toBeLessThanOrEqual(0.6);
  });

  test("a polygon with arbitrary vertices is covered by exactly its area", () => {
    const xs = [3.2, 17.9, 21.4, 9.1, 1.3];
    const ys = [1.7, 4.05, 14.6, 19.33, 9.8];
    const path = new Path().moveTo(xs[0]!, ys[0]!);
    for (let i = 1; i < xs.length; i++) path.lineTo(xs[i]!, ys[i]!);
    let area = 0;
    for (let i = 0; i < xs.length; i++) {
      const j = (i + 1) % xs.length;
      area += (xs[i]! * ys[j]! - xs[j]! * ys[i]!) / 2;
    }
    expect(Math.abs(total(rasterizeToMask(path.close())) - Math.abs(area))).toBeLessThan(0.05);
  });

  test("a circle's mask hugs its bounds; its area is pi r^2 less the chords' slivers (under 1.5%)", () => {
    const mask = rasterizeToMask(new Path().circle(20.3, 15.7, 9.5));
    expect(Math.abs(total(mask) / (Math.PI * 9.5 * 9.5) - 1)).toBeLessThan(0.015);
    expect([mask.x, mask.y, mask.width, mask.height]).toEqual([10, 6, 20, 20]);
  });

  test("tall shapes (several accumulation bands) stay exact", () => {
    const mask = rasterizeToMask(new Path().moveTo(0.5, 0).lineTo(3.5, 100).lineTo(0.5, 100).close());
    expect(mask.height).toBe(100);
    expect(Math.abs(total(mask) - 150)).toBeLessThan(0.3); // 200 edge pixels, each rounded to 1/255
  });

  test("opposite windings cancel under non-zero; even-odd empties the overlap", () => {
    const ring = new Path().rect(0, 0, 10, 10).moveTo(3, 3).lineTo(3, 7).lineTo(7, 7).lineTo(7, 3).close();
    expect(at(rasterizeToMask(ring), 5, 5)).toBe(0);
    const sameWay = new Path().rect(0, 0, 10, 10).rect(3, 3, 4, 4);
    expect(at(rasterizeToMask(sameWay, undefined, "nonzero"), 5, 5)).toBe(255);
    expect(at(rasterizeToMask(sameWay, undefined, "evenodd"), 5, 5)).toBe(0);
    expect(at(rasterizeToMask(sameWay, undefined, "evenodd"), 1, 1)).toBe(255);
  });

  test("even-odd is exact on an anti-aliased edge between windings 1 and 2", () => {
    const sameWay = new Path().rect(0, 0, 10, 10).rect(2.5, 2, 5, 5);
    const mask = rasterizeToMask(sameWay, undefined, "evenodd");
    expect(at(mask, 2, 4)).toBe(128);
    expect(at(mask, 7, 4)).toBe(128);
  });

  test("transforms apply before flattening", () => {
    const mask = rasterizeToMask(new Path().rect(0, 0, 1, 1), compose(scale(4, 2), translate(10, 20)));
    expect([mask.x, mask.y, mask.width, mask.height]).toEqual([10, 20, 4, 2]);
    expect(total(mask)).toBeCloseTo(8, 5);
  });

  test("empty, degenerate and non-finite paths give an empty mask", () => {
    expect(rasterizeToMask(new Path()).width).toBe(0);
    expect(rasterizeToMask(new Path().moveTo(1, 1).lineTo(5, 1)).data.length).toBe(0);
    expect(rasterizeToMask(new Path().rect(0, 0, Number.NaN, 3)).width).toBe(0);
  });

  test("the clip rectangle bounds the mask; parts left of it still cover", () => {
    const mask = rasterizeToMask(new Path().rect(-50.5, 0, 60, 2), undefined, "nonzero", { x: 0, y: 0, width: 5, height: 5 });
    expect([mask.x, mask.y, mask.width, mask.height]).toEqual([0, 0, 5, 2]);
    expect([...mask.data].every((c) => c === 255)).toBe(true);
  });

  test("huge coordinates are bounded", () => {
    const mask = rasterizeToMask(new Path().rect(-1e9, -1e9, 2e9, 2e9));
    expect(mask.width).toBe(4096);
    expect(mask.data[0]).toBe(255);
  });
});

describe("drawMask", () => {
  test("composites tinted coverage source-over at the mask's position plus the offset", () => {
    const pixmap = new Pixmap(8, 8);
    pixmap.fill(rgba(0, 0, 255));
    const mask = rasterizeToMask(new Path().rect(1, 1, 2, 1).rect(1.5, 3, 1, 1));
    drawMask(pixmap, mask, 2, 1, rgba(255, 0, 0));
    expect(pixmap.pixel(3, 2)).toEqual(rgba(255, 0, 0));
    expect(pixmap.pixel(0, 0)).toEqual(rgba(0, 0, 255));
    // Half coverage of red over blue.
    expect(pixmap.pixel(3, 4)).toEqual(rgba(128, 0, 127));
  });

  test("opacity and translucent colours blend; clipping at the pixmap's edges", () => {
    const pixmap = new Pixmap(4, 4);
    const mask = rasterizeToMask(new Path().rect(0, 0, 10, 10));
    drawMask(pixmap, mask, -3, -3, rgba(255, 255, 255, 200), 0.5);
    expect(pixmap.pixel(0, 0)).toEqual(rgba(255, 255, 255, 100));
    expect(pixmap.pixel(3, 3)).toEqual(rgba(255, 255, 255, 100));
    drawMask(pixmap, mask, 100, 0, rgba(0, 0, 0));
    expect(pixmap.pixel(3, 3).a).toBe(100);
  });

  test("every coverage level over varied backdrops, in more colours than the tint tables kept, is the engine's source-over", () => {
    const coverage = { x: 0, y: 0, width: 16, height: 16, data: Uint8Array.from({ length: 256 }, (_, c) => c) };
    const backdrop = (i: number) => packPixel(div255((i * 37) % 256 * 200), div255((i * 11) % 256 * 200), div255(i * 200), 200);
    // Tint tables (2 KB each) for 64 colours.
    const budget = new CacheBudget({ ...CACHE_SHARES, tint_tables: 64 * 2200 });
    const context = new RenderContext(budget);
    // Opaque ones (a fully covered pixel is then a plain store) and translucent ones.
    const colors = Array.from({ length: 3 * 64 }, (_, k) => rgba((k * 53) % 256, (k * 29) % 256, (k * 97) % 256, k % 3 === 0 ? 255 : 255 - ((k * 7) % 200)));
    // Forwards, then backwards: tables evicted and built again, and tables kept, must both be right.
    let mismatches = 0, worst = 0;
    for (const [k, color] of [...colors, ...[...colors].reverse()].entries()) {
      const pixmap = new Pixmap(16, 16);
      for (let i = 0; i < 256; i++) pixmap.pixels[i] = backdrop(i);
      const opacity = k % 2 === 0 ? 1 : 0.9;
      drawMask(pixmap, coverage, 0, 0, color, opacity, context);
      const alpha = div255(color.a * (opacity === 1 ? 255 : 230));
      const source = packPixel(div255(color.r * alpha), div255(color.g * alpha), div255(color.b * alpha), alpha);
      const s = [div255(color.r * alpha), div255(color.g * alpha), div255(color.b * alpha), alpha];
      for (let c = 0; c < 256; c++) {
        if (pixmap.pixels[c] !== (c === 0 ? backdrop(c) : blendPixel(source, backdrop(c), c))) mismatches++;
        // And close to exact arithmetic, computed without the engine.
        const dest = new Uint8Array(Int32Array.of(backdrop(c)).buffer), out = pixmap.data.subarray(c * 4, c * 4 + 4);
        for (let ch = 0; ch < 4; ch++) worst = Math.max(worst, Math.abs(out[ch]! - (s[ch]! * c / 255 + dest[ch]! * (1 - alpha * c / 65025))));
      }
    }
    expect(mismatches).toBe(0);
    // Within 2 levels: the engine scales by 256ths and rounds twice.
    expect(worst).toBeLessThanOrEqual(2);
    const tints = new Map(budget.usage()).get("tint_tables")!;
    expect(tints.bytes).toBeLessThanOrEqual(tints.maxBytes);
    expect(tints.evictions).toBeGreaterThan(0);
  });
});

describe("trimMask", () => {
  test("cuts a mask to its non-zero pixels: the same drawing from fewer pixels", () => {
    // A blurred square has zero rows and columns round it (the blur's margin is wider than its reach).
    const blurred = blurMask(rasterizeToMask(new Path().rect(10.5, 8, 6, 5)), 1.6);
    const trimmed = trimMask(blurred);
    expect(trimmed.width).toBeLessThan(blurred.width);
    expect(trimmed.height).toBeLessThan(blurred.height);
    const rows = (m: Mask) => Array.from({ length: m.height }, (_, y) => m.data.subarray(y * m.width, (y + 1) * m.width));
    // No zero border is left: the first and last row and column each hold ink.
    const [first, last] = [rows(trimmed)[0]!, rows(trimmed).at(-1)!];
    expect(Math.max(...first)).toBeGreaterThan(0);
    expect(Math.max(...last)).toBeGreaterThan(0);
    expect(Math.max(...rows(trimmed).map((row) => row[0]!))).toBeGreaterThan(0);
    expect(Math.max(...rows(trimmed).map((row) => row.at(-1)!))).toBeGreaterThan(0);
    const drawn = (m: Mask) => {
      const p = new Pixmap(40, 30);
      drawMask(p, m, 3, 2, rgba(20, 40, 200));
      return [...p.data];
    };
    expect(drawn(trimmed)).toEqual(drawn(blurred));
    // Tight already: the same mask. All zero: empty.
    expect(trimMask(trimmed)).toBe(trimmed);
    expect(trimMask({ x: 4, y: 4, width: 3, height: 2, data: new Uint8Array(6) }).width).toBe(0);
  });
});
