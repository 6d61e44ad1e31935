import { describe, expect, test } from "bun:test";
import { IDENTITY, Path, invert, rotate, scale, compose, translate } from "../../src/render/index.ts";
import { flattenPath } from "../../src/render/raster/flatten.ts";

const apply = (t: typeof IDENTITY, x: number, y: number) => [t.a * x + t.c * y + t.e, t.b * x + t.d * y + t.f];

describe("transforms", () => {
  test("compose applies the first transform first; invert undoes it", () => {
    const t = compose(compose(scale(2, 3), rotate(Math.PI / 2)), translate(10, 20));
    const [x, y] = apply(t, 1, 1);
    expect(x).toBeCloseTo(10 - 3, 9);
    expect(y).toBeCloseTo(20 + 2, 9);
    const back = apply(invert(t)!, x!, y!);
    expect(back[0]).toBeCloseTo(1, 9);
    expect(back[1]).toBeCloseTo(1, 9);
    expect(invert(scale(0, 1))).toBeNull();
  });

  test("the engine's entries import dynamically: neither exports `then`, which would make its module a thenable that never resolves", async () => {
    for (const entry of ["index.ts", "basics.ts"]) {
      const engine = await import(`../../src/render/${entry}`);
      expect(Object.keys(engine)).not.toContain("then");
    }
  });
});

describe("paths and flattening", () => {
  test("curves flatten within the tolerance of the true curve", () => {
    const [circle] = flattenPath(new Path().circle(50, 50, 40), IDENTITY, 0.05);
    const points = circle!.points;
    for (let i = 0; i < points.length; i += 2) expect(Math.abs(Math.hypot(points[i]! - 50, points[i + 1]! - 50) - 40)).toBeLessThan(0.02);
    // Mid-chords stay within the tolerance too.
    for (let i = 2; i < points.length; i += 2) {
      const mx = (points[i]! + points[i - 2]!) / 2, my = (points[i + 1]! + points[i - 1]!) / 2;
      expect(40 - Math.hypot(mx - 50, my - 50)).toBeLessThan(0.05);
    }
    expect(circle!.closed).toBe(true);
  });

  test("a quadratic's points lie on the parabola", () => {
    const [c] = flattenPath(new Path().moveTo(0, 0).quadTo(50, 100, 100, 0), IDENTITY, 0.1);
    const p = c!.points;
    for (let i = 0; i < p.length; i += 2) {
      const t = p[i]! / 100; // x = 100 t on this symmetric curve
      expect(p[i + 1]).toBeCloseTo(2 * t * (1 - t) * 100, 6);
    }
    expect(c!.closed).toBe(false);
  });

  test("arc follows canvas conventions: a line to its start, clockwise by default", () => {
    const [c] = flattenPath(new Path().moveTo(0, 0).arc(50, 50, 10, 0, Math.PI / 2), IDENTITY, 0.1);
    const p = c!.points;
    expect([p[2], p[3]]).toEqual([60, 50]);
    expect(p[p.length - 2]).toBeCloseTo(50, 9);
    expect(p[p.length - 1]).toBeCloseTo(60, 9);
    const [ccw] = flattenPath(new Path().arc(0, 0, 10, 0, Math.PI / 2, true), IDENTITY, 0.1);
    // Counter-clockwise from 0 to 90 degrees goes the long way round, through (0, -10).
    expect(ccw!.points.some((v, i) => i % 2 === 1 && v < -9.9)).toBe(true);
  });

  test("rounded rectangle radii are clamped to fit; zero radii give a plain rectangle", () => {
    const [c] = flattenPath(new Path().roundRect(0, 0, 20, 10, 50), IDENTITY, 0.1);
    const ys = c!.points.filter((_, i) => i % 2 === 1);
    expect(Math.min(...ys)).toBeCloseTo(0, 9);
    expect(Math.max(...ys)).toBeCloseTo(10, 9);
    const [square] = flattenPath(new Path().roundRect(0, 0, 20, 10, 0), IDENTITY, 0.1);
    expect(square!.points.length).toBe(10);
  });

  test("each moveTo starts a new contour; close marks it closed", () => {
    const contours = flattenPath(new Path().moveTo(0, 0).lineTo(5, 0).close().moveTo(1, 1).lineTo(2, 2).ellipse(10, 10, 4, 2), IDENTITY);
    expect(contours.map((c) => c.closed)).toEqual([true, false, true]);
  });
});
