import { describe, expect, test } from "bun:test";
import { Path, Pixmap, rgba, scale, solid, strokePath } from "../../src/render/index.ts";
import type { StrokeStyle } from "../../src/render/index.ts";

function stroked(path: Path, style: StrokeStyle, size = 40): Pixmap {
  const p = new Pixmap(size, size);
  strokePath(p, path, style, solid(rgba(0, 0, 0)));
  return p;
}
const alpha = (p: Pixmap, x: number, y: number) => p.pixel(x, y).a;
const coverage = (p: Pixmap) => {
  let sum = 0;
  for (let i = 3; i < p.data.length; i += 4) sum += p.data[i]!;
  return sum / 255;
};

describe("strokes", () => {
  test("a horizontal line of width 2 with butt caps covers exactly length x width", () => {
    const p = stroked(new Path().moveTo(5, 10).lineTo(25, 10), { width: 2 });
    expect(coverage(p)).toBeCloseTo(40, 1);
    expect(alpha(p, 10, 9)).toBe(255);
    expect(alpha(p, 10, 11)).toBe(0);
    expect(alpha(p, 4, 9)).toBe(0);
  });

  test("square caps extend by half the width, round caps by a half disc", () => {
    expect(coverage(stroked(new Path().moveTo(5, 10).lineTo(25, 10), { width: 2, cap: "square" }))).toBeCloseTo(44, 1);
    const round = coverage(stroked(new Path().moveTo(5, 10).lineTo(25, 10), { width: 4, cap: "round" }));
    expect(Math.abs(round - (80 + Math.PI * 4))).toBeLessThan(0.2); // chords of the cap arcs lose up to ~0.17
  });

  test("miter, bevel and round joins differ only at the outer corner", () => {
    const corner = () => new Path().moveTo(5, 30).lineTo(20, 30).lineTo(20, 5);
    const miter = stroked(corner(), { width: 4, join: "miter" });
    const bevel = stroked(corner(), { width: 4, join: "bevel" });
    const round = stroked(corner(), { width: 4, join: "round" });
    // Outer corner square (20..22, 30..32): full for miter, half for bevel, a quarter disc for round.
    expect(coverage(miter) - coverage(bevel)).toBeCloseTo(2, 1);
    expect(coverage(miter) - coverage(round)).toBeCloseTo(4 - Math.PI, 1);
    expect(alpha(miter, 21, 31)).toBe(255);
    // The inner corner is filled once, not doubly.
    expect(alpha(miter, 19, 29)).toBe(255);
    expect(coverage(bevel)).toBeCloseTo(15 * 4 + 25 * 4 - 4 + 2, 1);
  });

  test("sharp angles beyond the miter limit fall back to a bevel", () => {
    const sharp = () => new Path().moveTo(5, 35).lineTo(20, 5).lineTo(35, 35);
    const limited = coverage(stroked(sharp(), { width: 3, join: "miter", miterLimit: 1.5 }));
    const bevel = coverage(stroked(sharp(), { width: 3, join: "bevel" }));
    const long = coverage(stroked(sharp(), { width: 3, join: "miter", miterLimit: 10 }));
    expect(limited).toBeCloseTo(bevel, 3);
    expect(long).toBeGreaterThan(bevel + 1);
  });

  test("a closed circle outline is a ring of the right area with an empty middle", () => {
    const p = stroked(new Path().circle(20, 20, 12), { width: 2 });
    expect(Math.abs(coverage(p) - 2 * Math.PI * 12 * 2) / (2 * Math.PI * 12 * 2)).toBeLessThan(0.01);
    expect(alpha(p, 20, 20)).toBe(0);
    expect(alpha(p, 20, 8)).toBeGreaterThan(200);
  });

  test("a lone point draws a dot for round caps and nothing for butt caps", () => {
    expect(coverage(stroked(new Path().moveTo(10, 10).lineTo(10, 10), { width: 4, cap: "round" }))).toBeCloseTo(Math.PI * 4, 0);
    expect(coverage(stroked(new Path().moveTo(10, 10).lineTo(10, 10), { width: 4 }))).toBe(0);
  });

  test("the width is in user units: it scales with the transform", () => {
    const p = new Pixmap(40, 40);
    strokePath(p, new Path().moveTo(1, 2).lineTo(9, 2), { width: 1 }, solid(rgba(0, 0, 0)), { transform: scale(4) });
    expect(coverage(p)).toBeCloseTo(32 * 4, 0);
  });

  test("zero, negative and non-finite widths draw nothing", () => {
    for (const width of [0, -2, Number.NaN, Infinity]) expect(coverage(stroked(new Path().moveTo(5, 5).lineTo(30, 30), { width }))).toBe(0);
  });
});
