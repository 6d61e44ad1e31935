// The scaled drawing surface: layout pixels to device pixels, and the
// outline that keeps low-contrast MOTD colours readable.

import { describe, expect, test } from "bun:test";
import { relativeLuminance } from "../../src/banner/contrast.ts";
import { fitFormatted } from "../../src/banner/fit.ts";
import { motdLineRuns } from "../../src/banner/motd.ts";
import { Surface } from "../../src/banner/surface.ts";
import { Path, parseHexColor, rgba, solid, type Pixmap } from "../../src/render/index.ts";

const DARK = parseHexColor("#0f172a")!, LIGHT = parseHexColor("#f8fafc")!;

function drawMotd(line: string, background: typeof DARK, halo: typeof DARK): Pixmap {
  const surface = new Surface(160, 30, 1);
  surface.pixmap.fill(background);
  const fitted = fitFormatted(motdLineRuns(line), "sans", 150, { max: 14, min: 14 }, 1);
  surface.formatted(fitted, 5, 20, { defaultColor: rgba(200, 200, 200), backdrop: background, halo });
  return surface.pixmap;
}

/** Pixels clearly lighter (or darker) than both the background and the text colour: an outline. */
function outlinePixels(p: Pixmap, lighter: boolean, text: typeof DARK, background: typeof DARK): number {
  const limit = lighter ? Math.max(relativeLuminance(text), relativeLuminance(background)) : Math.min(relativeLuminance(text), relativeLuminance(background));
  let count = 0;
  for (let y = 0; y < p.height; y++) {
    for (let x = 0; x < p.width; x++) {
      const l = relativeLuminance(p.pixel(x, y));
      if (lighter ? l > limit + 0.05 : l < limit - 0.02) count++;
    }
  }
  return count;
}

describe("MOTD contrast", () => {
  test("a dark colour on the dark theme keeps its hue and gets a light outline", () => {
    const blue = parseHexColor("#0000aa")!;
    const p = drawMotd("§1Dark blue text", DARK, rgba(255, 255, 255));
    expect(outlinePixels(p, true, blue, DARK)).toBeGreaterThan(50);
    let own = 0;
    for (let y = 0; y < p.height; y++) for (let x = 0; x < p.width; x++) if (p.pixel(x, y).b === 170 && p.pixel(x, y).r === 0) own++;
    expect(own).toBeGreaterThan(10);
  });

  test("a light colour on the light theme gets a dark outline; readable colours get none", () => {
    const yellow = parseHexColor("#ffff55")!;
    expect(outlinePixels(drawMotd("§eYellow text here", LIGHT, rgba(0, 0, 0)), false, yellow, LIGHT)).toBeGreaterThan(50);
    const green = parseHexColor("#55ff55")!;
    expect(outlinePixels(drawMotd("§aGreen text here", DARK, rgba(255, 255, 255)), true, green, DARK)).toBe(0);
    const darkGrey = parseHexColor("#555555")!;
    expect(outlinePixels(drawMotd("§8Grey text here", LIGHT, rgba(0, 0, 0)), false, darkGrey, LIGHT)).toBe(0);
  });
});

describe("scale", () => {
  test("shapes and text at 2x cover twice the pixels in each direction", () => {
    const one = new Surface(40, 20, 1), two = new Surface(40, 20, 2);
    for (const s of [one, two]) s.fill(new Path().rect(10, 5, 10, 5), solid(rgba(255, 0, 0)));
    expect([two.pixmap.width, two.pixmap.height]).toEqual([80, 40]);
    expect(two.pixmap.pixel(20, 10)).toEqual(rgba(255, 0, 0));
    expect(two.pixmap.pixel(39, 19)).toEqual(rgba(255, 0, 0));
    expect(two.pixmap.pixel(40, 19).a).toBe(0);
    expect(one.pixmap.pixel(19, 9)).toEqual(rgba(255, 0, 0));
    expect(one.pixmap.pixel(20, 9).a).toBe(0);
  });
});
