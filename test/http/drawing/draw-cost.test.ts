import { describe, expect, test } from "bun:test";
import { BANNER_SIZES } from "../../../src/banner/model.ts";
import { LARGEST_DRAW_UNITS } from "../../../src/config.ts";
import { drawCost } from "../../../src/http/drawing/draw-cost.ts";

const png = (pixels: number) => drawCost({ pixels, contentType: "image/png" });
const webp = (pixels: number) => drawCost({ pixels, contentType: "image/webp" });

describe("drawCost", () => {
  test("every banner size, scale and format costs what the README's table says", () => {
    const table = BANNER_SIZES.map(({ width, height }) => {
      const [one, two] = [width * height, width * height * 4];
      return `${width}x${height}: ${png(one)} ${png(two)} ${webp(one)} ${webp(two)}`;
    });
    expect(table).toEqual([
      "468x60: 1 4 4 16",
      "728x90: 3 10 10 38",
      "300x250: 3 11 11 43",
      "1200x300: 13 52 52 206",
    ]);
  });

  test("whole units, at least 1: a badge, or an image of no pixels, costs 1", () => {
    expect(png(90 * 20)).toBe(1);
    expect(png(180 * 40)).toBe(1);
    expect(png(0)).toBe(1);
    expect(png(468 * 60 + 1)).toBe(2);
  });

  test("the largest draw is the cost the configuration's floor for PENNANT_DRAW_BUDGET names", () => {
    const largest = Math.max(...BANNER_SIZES.map(({ width, height }) => webp(width * height * 4)));
    expect(largest).toBe(LARGEST_DRAW_UNITS);
  });
});
