// Readable MOTD colours: OKLCH conversions, and readableOn's lightness shift
// (same hue, least shift that reaches 4.5:1, passing colours untouched).

import { describe, expect, test } from "bun:test";
import { fromOklch, toOklch } from "../../src/banner/color-space.ts";
import { readableOn, TEXT_CONTRAST, worstContrast } from "../../src/banner/contrast.ts";
import { PALETTES, backdrops } from "../../src/banner/theme.ts";
import { COLOR_BY_CODE } from "../../src/minecraft/format.ts";
import { parseHexColor, rgba, type Color } from "../../src/render/index.ts";

const GAME_COLORS = [...COLOR_BY_CODE.values()].map((hex) => parseHexColor(hex)!);

/** Backgrounds to judge against: both themes' gradients and a few single colours. */
const GROUNDS: Array<[string, Color[]]> = [
  ["dark theme", backdrops(PALETTES.dark)],
  ["light theme", backdrops(PALETTES.light)],
  ["white", [rgba(255, 255, 255)]],
  ["mid grey", [rgba(119, 119, 119)]],
  ["navy and teal", [rgba(18, 52, 86), rgba(20, 110, 110)]],
];

/** Hue difference in degrees, around the circle. */
const hueGap = (a: number, b: number) => Math.abs(((a - b + 540) % 360) - 180);

describe("OKLCH", () => {
  test("matches published values and round-trips every 8-bit colour of a coarse grid", () => {
    // OKLab of sRGB red and white (Ottosson's reference implementation).
    const red = toOklch(rgba(255, 0, 0));
    expect(red.l).toBeCloseTo(0.62796, 4);
    expect(red.c).toBeCloseTo(0.25768, 4);
    expect(red.h).toBeCloseTo(29.2339, 2);
    expect(toOklch(rgba(255, 255, 255)).l).toBeCloseTo(1, 6);
    for (let r = 0; r < 256; r += 17) {
      for (let g = 0; g < 256; g += 17) {
        for (let b = 0; b < 256; b += 17) expect(fromOklch(toOklch(rgba(r, g, b)))).toEqual(rgba(r, g, b));
      }
    }
  });

  test("a lightness sRGB cannot show at full chroma keeps its hue and loses chroma", () => {
    const yellow = toOklch(rgba(255, 255, 85));
    const dark = toOklch(fromOklch({ ...yellow, l: 0.45 }));
    expect(dark.l).toBeCloseTo(0.45, 2);
    expect(hueGap(dark.h, yellow.h)).toBeLessThan(2);
    expect(dark.c).toBeLessThan(yellow.c);
    expect(dark.c).toBeGreaterThan(0.05);
  });
});

describe("readableOn", () => {
  test("a colour that holds 4.5:1 comes back unchanged", () => {
    for (const [where, grounds] of GROUNDS) {
      for (const color of GAME_COLORS) {
        if (worstContrast(color, grounds) >= TEXT_CONTRAST) expect({ where, color: readableOn(color, grounds) }).toEqual({ where, color });
      }
    }
  });

  test("a failing colour reaches 4.5:1 in its own hue, by the least lightness shift", () => {
    let shifted = 0;
    for (const [where, grounds] of GROUNDS) {
      for (const color of GAME_COLORS) {
        if (worstContrast(color, grounds) >= TEXT_CONTRAST) continue;
        shifted++;
        const result = readableOn(color, grounds);
        const before = toOklch(color), after = toOklch(result);
        const ratio = worstContrast(result, grounds);
        expect({ where, color, passes: ratio >= TEXT_CONTRAST }).toEqual({ where, color, passes: true });
        // Hue kept (where there is colour left to have one); on the themes' grounds, the colour too.
        if (before.c > 0.05 && after.c > 0.03) expect({ where, color, hue: hueGap(before.h, after.h) <= 3 }).toEqual({ where, color, hue: true });
        if (before.c > 0.05 && where.endsWith("theme")) expect({ where, color, chroma: after.c > 0.05 }).toEqual({ where, color, chroma: true });
        // The least shift: just over the line, and a slightly smaller shift falls short.
        expect({ where, color, close: ratio < TEXT_CONTRAST + 0.1 }).toEqual({ where, color, close: true });
        const back = fromOklch({ ...after, l: after.l + Math.sign(before.l - after.l) * 0.01 });
        expect({ where, color, smaller: worstContrast(back, grounds) < TEXT_CONTRAST }).toEqual({ where, color, smaller: true });
      }
    }
    expect(shifted).toBeGreaterThan(20);
  });

  test("darker on light backgrounds, lighter on dark ones", () => {
    const green = rgba(85, 255, 85), blue = rgba(0, 0, 170);
    expect(toOklch(readableOn(green, backdrops(PALETTES.light))).l).toBeLessThan(toOklch(green).l);
    expect(toOklch(readableOn(blue, backdrops(PALETTES.dark))).l).toBeGreaterThan(toOklch(blue).l);
    // Black on a dark theme is on the wrong side: it goes up past the background.
    expect(worstContrast(readableOn(rgba(0, 0, 0), backdrops(PALETTES.dark)), backdrops(PALETTES.dark))).toBeGreaterThanOrEqual(TEXT_CONTRAST);
  });

  test("when nothing reaches the ratio, the lightness bound (black or white) is as far as it goes", () => {
    const grey = [rgba(119, 119, 119)];
    expect(readableOn(rgba(130, 120, 110), grey, 7)).toEqual(rgba(0, 0, 0));
    expect(readableOn(rgba(100, 100, 100), [rgba(40, 40, 40)], 30)).toEqual(rgba(255, 255, 255));
  });
});
