// Fitting text into layout slots: shrink within the range, then ellipsize;
// wrapping MOTD lines for box layouts; WCAG contrast of the palettes.

import { describe, expect, test } from "bun:test";
import { contrastRatio, TEXT_CONTRAST } from "../../src/banner/contrast.ts";
import { fitBlock, fitText } from "../../src/banner/fit-text.ts";
import { motdLineRuns } from "../../src/minecraft/motd.ts";
import { PALETTES, paletteFor } from "../../src/banner/theme.ts";
import { wrapRuns } from "../../src/banner/wrap.ts";
import { layoutFormatted, rgba, sansFamily } from "../../src/render/index.ts";

const bold = { face: "sans", bold: true } as const;
const ELLIPSIS_GLYPH = () => sansFamily().bold!.shape("…").glyphIds[0]!;

describe("fitText", () => {
  test("keeps the largest size when the text fits", () => {
    const fitted = fitText("Skyblock", bold, 200, { max: 18, min: 10 }, 1);
    expect(fitted.size).toBe(18);
    expect(fitted.truncated).toBe(false);
  });

  test("shrinks a longer text to the largest half-pixel size that fits", () => {
    const text = "Skyblock Paradise Network";
    const fitted = fitText(text, bold, 200, { max: 18, min: 10 }, 1);
    expect(fitted.size).toBeLessThan(18);
    expect(fitted.size).toBeGreaterThanOrEqual(10);
    expect(fitted.size * 2).toBe(Math.round(fitted.size * 2));
    expect(fitted.width).toBeLessThanOrEqual(200);
    expect(fitText(text, bold, 200, { max: fitted.size + 0.5, min: fitted.size + 0.5 }, 1).truncated).toBe(true);
    expect(fitted.line.glyphs.at(-1)!.glyphId).not.toBe(ELLIPSIS_GLYPH());
  });

  test("ellipsizes at the smallest size when even that is too wide", () => {
    const fitted = fitText("A".repeat(2000), bold, 120, { max: 18, min: 10 }, 1);
    expect(fitted.size).toBe(10);
    expect(fitted.truncated).toBe(true);
    expect(fitted.width).toBeLessThanOrEqual(120);
    expect(fitted.line.glyphs.at(-1)!.glyphId).toBe(ELLIPSIS_GLYPH());
  });

  test("measures in device pixels: the same size at 2x, twice the pixels", () => {
    const text = "Skyblock Paradise Network";
    const one = fitText(text, bold, 200, { max: 18, min: 10 }, 1);
    const two = fitText(text, bold, 200, { max: 18, min: 10 }, 2);
    expect(two.size).toBe(one.size);
    expect(two.line.width).toBeLessThanOrEqual(400);
    expect(two.line.glyphs[0]!.size).toBe(one.size * 2);
  });

  test("pixel faces only take sizes on their step", () => {
    // "Skyblock" is 43 font pixels wide (an em is 8): 129 px at 24, 86 at 16, 43 at 8.
    expect(fitText("Skyblock", { face: "pixel" }, 100, { max: 24, min: 8, step: 8 }, 1).size).toBe(16);
    expect(fitText("Skyblock", { face: "pixel" }, 80, { max: 24, min: 8, step: 8 }, 1).size).toBe(8);
  });
});

describe("wrapping and blocks", () => {
  const measure = (runs: Parameters<typeof layoutFormatted>[0]) => layoutFormatted(runs, sansFamily(), 12).width;

  test("wraps at spaces, keeps each word's styles and puts the rest on the last row", () => {
    const runs = motdLineRuns("§aWelcome to §6Skyblock§a! §7Islands, quests and weekly events");
    const rows = wrapRuns(runs, 120, 2, measure);
    expect(rows.length).toBe(2);
    expect(measure(rows[0]!)).toBeLessThanOrEqual(120);
    const text = rows.map((row) => row.map((run) => run.text).join(""));
    expect(text.join(" ")).toBe("Welcome to Skyblock! Islands, quests and weekly events");
    expect(rows.flat().find((run) => run.text.startsWith("Skyblock"))?.color).toBe("#ffaa00");
    expect(rows.flat().find((run) => run.text.startsWith("Islands"))?.color).toBe("#aaaaaa");
  });

  test("a block's lines share one size; empty lines take no row", () => {
    const long = motdLineRuns("A much longer second line of the message of the day");
    const block = { x: 0, width: 200, baseline: 10, lineHeight: 1.3, size: { max: 16, min: 8 }, wrap: 1 };
    const fitted = fitBlock([motdLineRuns("Short"), [], long], "sans", block, 1);
    expect(fitted.rows.length).toBe(2);
    expect(fitted.rows.every((row) => row.size === fitted.size)).toBe(true);
    expect(fitted.size).toBeLessThan(16);
    expect(Math.max(...fitted.rows.map((row) => row.width))).toBeLessThanOrEqual(200);
  });

  test("a wrapping block keeps a larger size by using more rows", () => {
    const lines = [motdLineRuns("Welcome to Skyblock Paradise!"), motdLineRuns("Islands, quests and weekly events")];
    const flat = fitBlock(lines, "sans", { x: 0, width: 150, baseline: 10, lineHeight: 1.3, size: { max: 14, min: 8 }, wrap: 1 }, 1);
    const wrapped = fitBlock(lines, "sans", { x: 0, width: 150, baseline: 10, lineHeight: 1.3, size: { max: 14, min: 8 }, wrap: 2 }, 1);
    expect(wrapped.size).toBeGreaterThan(flat.size);
    expect(wrapped.rows.length).toBeGreaterThan(2);
    expect(wrapped.rows.length).toBeLessThanOrEqual(4);
  });
});

describe("palettes", () => {
  test("text, labels, MOTD default and status words hold 4.5:1 on both ends of their background", () => {
    for (const palette of Object.values(PALETTES)) {
      for (const background of palette.background) {
        for (const color of [palette.text, palette.muted, palette.motd, palette.statusText.online, palette.statusText.offline]) {
          expect({ theme: palette.theme, color, ratio: contrastRatio(color, background) >= TEXT_CONTRAST }).toEqual({ theme: palette.theme, color, ratio: true });
        }
      }
    }
  });

  test("contrast ratio is WCAG's: 21 for black on white, 1 for equal colours", () => {
    expect(contrastRatio(rgba(0, 0, 0), rgba(255, 255, 255))).toBeCloseTo(21, 5);
    expect(contrastRatio(rgba(85, 255, 85), rgba(85, 255, 85))).toBe(1);
  });

  test("a banner's own accent and background replace the theme's", () => {
    const accent = rgba(255, 0, 128), background = rgba(10, 40, 20, 0);
    const palette = paletteFor({ theme: "dark", accent, background });
    expect(palette.accent).toEqual(accent);
    expect(palette.background[0]).toEqual(background);
    expect(palette.text).toEqual(PALETTES.dark.text);
  });
});
