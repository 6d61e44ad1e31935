import { describe, expect, test } from "bun:test";
import { BANNER_SIZES } from "../../../src/banner/model.ts";
import { LARGEST_DRAW_UNITS } from "../../../src/config.ts";
import { CHARACTERS_PER_UNIT, drawCost, UNIT_PIXELS } from "../../../src/http/drawing/draw-cost.ts";

const png = (pixels: number) => drawCost({ pixels, contentType: "image/png" });
const webp = (pixels: number) => drawCost({ pixels, contentType: "image/webp" });

describe("drawCost", () => {
  test("every banner size, scale and format costs what the table of docs/draw-cost.md says", () => {
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

describe("drawCost weighs text the faces' tables do not shape", () => {
  const withText = (textBeyondTables: number, pixels = UNIT_PIXELS, contentType: "image/png" | "image/webp" = "image/png") =>
    drawCost({ pixels, contentType, textBeyondTables });

  test("none of it: the units of the pixels alone, as before (the table of docs/draw-cost.md)", () => {
    for (const { width, height } of BANNER_SIZES) {
      for (const pixels of [width * height, width * height * 4]) {
        expect([withText(0, pixels), withText(0, pixels, "image/webp")]).toEqual([png(pixels), webp(pixels)]);
      }
    }
  });

  test("a unit per CHARACTERS_PER_UNIT characters beyond them, added to the pixels' units before rounding up", () => {
    expect(CHARACTERS_PER_UNIT).toBe(8);
    // A 468x60 PNG: a Japanese name of 7 characters, then the longest name and MOTD line (640).
    expect(withText(7)).toBe(2);
    expect(withText(8)).toBe(2);
    expect(withText(9)).toBe(3);
    expect(withText(640)).toBe(81);
    // Whatever the format or size: shaping and outlining are the same work.
    expect(withText(640, 1200 * 300 * 4, "image/webp")).toBe(206 + 80);
    // A badge of a few hundred pixels: its fraction of a unit and the text's, rounded up together.
    expect(drawCost({ pixels: 2_000, contentType: "image/png", textBeyondTables: 4 })).toBe(1);
  });
});
