// The scaled drawing surface: layout pixels to device pixels, and MOTD runs
// whose colour fails 4.5:1 drawn in the same hue, just light or dark enough.

import { describe, expect, test } from "bun:test";
import { toOklch } from "../../src/banner/color-space.ts";
import { TEXT_CONTRAST, worstContrast } from "../../src/banner/contrast.ts";
import { fitFormatted } from "../../src/banner/fit-text.ts";
import { motdLineRuns } from "../../src/minecraft/motd.ts";
import { Surface } from "../../src/banner/surface.ts";
import { PALETTES, backdrops } from "../../src/banner/theme.ts";
import { Path, parseHexColor, rgba, solid, type Color, type Pixmap } from "../../src/render/index.ts";

type ThemeName = keyof typeof PALETTES;

/** One MOTD line drawn in sans on the second end of the theme's gradient (the one nearer the text's side: the harder). */
function drawMotd(line: string, theme: ThemeName, scale = 1): { p: Pixmap; ground: Color } {
  const ends = backdrops(PALETTES[theme]);
  const ground = ends[1];
  const surface = new Surface(300, 30, scale);
  surface.pixmap.fill(ground);
  const fitted = fitFormatted(motdLineRuns(line), "sans", 290, { max: 20, min: 20 }, scale);
  surface.formatted(fitted, 5, 23, { defaultColor: PALETTES[theme].motd, backdrops: ends });
  return { p: surface.pixmap, ground };
}

const key = (c: Color) => `${c.r},${c.g},${c.b}`;

/**
 * The text's own colour: the pixel that contrasts most with the ground
 * (edges blend towards the ground, so only fully covered pixels reach it),
 * with how many pixels have exactly that colour.
 */
function ink(p: Pixmap, ground: Color): { color: Color; count: number } {
  let color = ground, best = 1;
  for (let y = 0; y < p.height; y++) {
    for (let x = 0; x < p.width; x++) {
      const ratio = worstContrast(p.pixel(x, y), [ground]);
      if (ratio > best) [color, best] = [p.pixel(x, y), ratio];
    }
  }
  let count = 0;
  for (let y = 0; y < p.height; y++) for (let x = 0; x < p.width; x++) if (key(p.pixel(x, y)) === key(color)) count++;
  return { color, count };
}

const hueGap = (a: number, b: number) => Math.abs(((a - b + 540) % 360) - 180);

describe("MOTD contrast", () => {
  const failing: Array<[ThemeName, string]> = [
    ["light", "§aWelcome to Skyblock"], ["light", "§6Skyblock Paradise"], ["light", "§eYellow text here"], ["light", "§bAqua text here"],
    ["dark", "§1Dark blue text"], ["dark", "§4Dark red text"], ["dark", "§5Dark purple text"],
  ];

  for (const [theme, line] of failing) {
    test(`${theme}: "${line}" is drawn in its own hue, just ${theme === "light" ? "dark" : "light"} enough for 4.5:1`, () => {
      const original = parseHexColor(motdLineRuns(line)[0]!.color!)!;
      const ends = backdrops(PALETTES[theme]);
      expect(worstContrast(original, ends)).toBeLessThan(TEXT_CONTRAST);
      for (const scale of [1, 2]) {
        const { p, ground } = drawMotd(line, theme, scale);
        const { color: drawn, count } = ink(p, ground);
        expect(count).toBeGreaterThan(10 * scale * scale);
        const ratio = worstContrast(drawn, ends);
        const before = toOklch(original), after = toOklch(drawn);
        expect({ scale, passes: ratio >= TEXT_CONTRAST, least: ratio < TEXT_CONTRAST + 0.1 }).toEqual({ scale, passes: true, least: true });
        expect(hueGap(before.h, after.h)).toBeLessThanOrEqual(3);
        expect(after.c).toBeGreaterThan(0.05);
        expect(theme === "light" ? after.l < before.l : after.l > before.l).toBe(true);
      }
    });
  }

  test("colours that already hold 4.5:1 are drawn unchanged", () => {
    const passing: Array<[ThemeName, string]> = [
      ["dark", "§aGreen text here"], ["dark", "§6Gold text here"], ["light", "§8Dark grey text"], ["light", "§1Dark blue text"],
      ["light", "Default colour"], ["dark", "Default colour"],
    ];
    for (const [theme, line] of passing) {
      const named = motdLineRuns(line)[0]!.color;
      const original = named ? parseHexColor(named)! : PALETTES[theme].motd;
      const { p, ground } = drawMotd(line, theme);
      const { color, count } = ink(p, ground);
      expect({ theme, line, color, many: count > 10 }).toEqual({ theme, line, color: original, many: true });
    }
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
