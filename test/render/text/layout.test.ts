import { describe, expect, test } from "bun:test";
import { ellipsize, layoutText, measureText, pixelFamily, sansFamily, stretchToWidth, type FontStyle } from "../../../src/render/index.ts";
import { MAX_LINE_CHARACTERS } from "../../../src/render/text/layout.ts";
import type { Face } from "../../../src/render/text/face.ts";

const sans: FontStyle = { family: sansFamily(), size: 16 };
const pixel: FontStyle = { family: pixelFamily(), size: 16 };

/** Right edge of the last advancing glyph. */
function lastEdge(line: ReturnType<typeof layoutText>, letterSpacing = 0): number {
  const advancing = line.glyphs.filter((g) => g.advance > 0);
  const last = advancing.at(-1)!;
  return last.x + last.advance - letterSpacing;
}

describe("layoutText", () => {
  test("kerning pulls pairs such as AV together", () => {
    expect(measureText("AV", sans)).toBeLessThan(measureText("A", sans) + measureText("V", sans) - 0.5);
    expect(measureText("To", sans)).toBeLessThan(measureText("T", sans) + measureText("o", sans) - 0.5);
  });

  test("widths scale with the size and match DejaVu's advances", () => {
    // DejaVu Sans: 'H' advances 1540 of 2048 units.
    expect(measureText("H", { ...sans, size: 20.48 })).toBeCloseTo(15.4, 5);
    expect(measureText("Hello", { ...sans, size: 32 })).toBeCloseTo(2 * measureText("Hello", sans), 5);
  });

  test("letter spacing goes between characters, not after the last", () => {
    const plain = measureText("abcd", sans);
    expect(measureText("abcd", { ...sans, letterSpacing: 2 })).toBeCloseTo(plain + 6, 5);
    expect(measureText("abcd", { ...sans, letterSpacing: -1 })).toBeCloseTo(plain - 3, 5);
    expect(measureText("", { ...sans, letterSpacing: 5 })).toBe(0);
  });

  test("bold uses the bold face and is wider; italic uses the oblique face", () => {
    const bold = layoutText("Survival", { ...sans, bold: true });
    expect(bold.glyphs.every((g) => g.face === sans.family.bold && g.fauxBold === 0 && !g.slanted)).toBe(true);
    expect(bold.width).toBeGreaterThan(measureText("Survival", sans));
    const italic = layoutText("Survival", { ...sans, italic: true });
    expect(italic.glyphs.every((g) => g.face === sans.family.italic && !g.slanted)).toBe(true);
  });

  test("bold italic is the bold face slanted; faces without bold get a faux bold", () => {
    const line = layoutText("a中", { ...sans, bold: true, italic: true });
    expect(line.glyphs[0]).toMatchObject({ face: sans.family.bold, slanted: true, fauxBold: 0 });
    expect(line.glyphs[1]!.face.name).toMatch(/Unifont/);
    expect(line.glyphs[1]).toMatchObject({ slanted: true, fauxBold: 1 });
  });

  test("the pixel face's faux bold adds one font pixel per glyph, as the game does", () => {
    // At 16 px an em of 8 font pixels is 2 device pixels per font pixel.
    const regular = measureText("Hi!", pixel);
    // H, i and ! are 5, 1 and 1 pixels wide; the pixel after each is part of its advance, as in the game.
    expect(regular).toBe((6 + 2 + 2) * 2);
    const bold = layoutText("Hi!", { ...pixel, bold: true });
    expect(bold.glyphs.map((g) => g.fauxBold)).toEqual([2, 2, 2]);
    expect(bold.width).toBe(regular + 3 * 2);
  });

  test("falls back per character and keeps runs of one face together", () => {
    const line = layoutText("ab中文cd", sans);
    const faces = line.glyphs.map((g) => g.face.name);
    expect(faces[0]).toBe(faces[1]!);
    expect(faces[2]).toMatch(/Unifont/);
    expect(faces[3]).toBe(faces[2]!);
    expect(faces[4]).toBe(faces[0]!);
    // Pens only move forward.
    for (let i = 1; i < line.glyphs.length; i++) expect(line.glyphs[i]!.x).toBeGreaterThan(line.glyphs[i - 1]!.x);
  });

  test("plain ASCII is one run only when the face has every printable character; else it falls back per character too", () => {
    const dejavu = sansFamily().regular;
    // DejaVu as a face without "b" (a face may lack any character; the pixel face has b).
    const withoutB: Face = Object.assign(Object.create(dejavu) as Face, { covers: (codePoint: number) => codePoint !== 0x62 && dejavu.covers(codePoint) });
    const family = { regular: withoutB, fallbacks: [pixelFamily().regular] };
    const faces = layoutText("abc", { family, size: 16 }).glyphs.map((g) => g.face);
    expect(faces).toEqual([withoutB, pixelFamily().regular, withoutB]);
    const plain = layoutText("a b~c", sans).glyphs;
    expect(plain.map((g) => g.face)).toEqual(Array(5).fill(dejavu));
    expect(plain.map((g) => g.glyphId)).toEqual([..."a b~c"].map((char) => dejavu.shape(char).glyphIds[0]!));
    expect(layoutText("", sans).glyphs).toEqual([]);
    // ASCII controls are not printable: still dropped.
    expect(layoutText("a\tb\u007fc\n", sans).glyphs.map((g) => g.glyphId)).toEqual(plain.filter((_, i) => i % 2 === 0).map((g) => g.glyphId));
  });

  test("a family's fallbacks are read only for a character its own faces lack (reading them may open Unifont)", () => {
    const { regular, bold, italic } = sansFamily() as Required<FontStyle["family"]>;
    const unifont = sansFamily().fallbacks[0]!;
    let reads = 0;
    const family = {
      regular, bold, italic,
      get fallbacks() {
        reads++;
        return [unifont];
      },
    };
    for (const text of ["Skyblock 1.21", "Café §a Señor", "Ünïcödé ŵ"]) layoutText(text, { family, size: 16, bold: true });
    expect(reads).toBe(0);
    const faces = layoutText("Hi 你好", { family, size: 16, bold: true }).glyphs.map((g) => g.face);
    expect(reads).toBeGreaterThan(0);
    expect(faces).toEqual([bold, bold, bold, unifont, unifont]);
  });

  test("combining marks stay on their base and take no advance", () => {
    const composed = layoutText("e\u0301", sans);
    expect(composed.glyphs.length).toBe(2);
    expect(composed.glyphs[1]!.advance).toBe(0);
    expect(composed.width).toBeCloseTo(measureText("e", sans), 5);
  });

  test("controls, joiners and variation selectors draw nothing", () => {
    expect(layoutText("a\u0000b\u200dc\ufe0f\n\t", sans).glyphs.length).toBe(3);
  });

  test("a line lays out at most MAX_LINE_CHARACTERS characters", () => {
    expect(layoutText("ab".repeat(5000), sans).glyphs.length).toBe(MAX_LINE_CHARACTERS);
    const cut = ellipsize("x".repeat(100_000), sans, 100_000);
    expect([...cut].length).toBeLessThanOrEqual(MAX_LINE_CHARACTERS);
    expect(cut.endsWith("…")).toBe(true);
  });

  test("absurd sizes are clamped rather than trusted", () => {
    expect(layoutText("a", { ...sans, size: Number.NaN }).glyphs[0]!.size).toBe(12);
    expect(layoutText("a", { ...sans, size: 1e9 }).glyphs[0]!.size).toBe(1024);
    expect(layoutText("a", { ...sans, size: -5 }).glyphs[0]!.size).toBe(1);
  });

  test("ascent, descent and decoration bars come from the regular face", () => {
    const line = layoutText("x", { ...sans, size: 20.48 });
    expect(line.ascent).toBeCloseTo(19.01, 5); // DejaVu: 1901 / 2048
    expect(line.descent).toBeCloseTo(4.83, 5);
    expect(line.underline.offset).toBeGreaterThan(0);
    expect(line.strikethrough.offset).toBeLessThan(0);
  });
});

describe("ellipsize", () => {
  const text = "A long message of the day that overflows";

  test("returns text that fits unchanged", () => {
    expect(ellipsize("Short", sans, 200)).toBe("Short");
  });

  test("cuts to the longest prefix that fits with an ellipsis", () => {
    for (const width of [40, 90, 150, 250]) {
      const cut = ellipsize(text, sans, width);
      expect(cut.endsWith("…")).toBe(true);
      expect(measureText(cut, sans)).toBeLessThanOrEqual(width);
      const kept = cut.slice(0, -1);
      expect(text.startsWith(kept)).toBe(true);
      // One more character would not fit.
      const longer = text.slice(0, kept.length + 1).trimEnd() + "…";
      if (longer.length > cut.length) expect(measureText(longer, sans)).toBeGreaterThan(width);
      expect(kept).toBe(kept.trimEnd());
    }
  });

  test("gives up to an empty string when not even the ellipsis fits", () => {
    expect(ellipsize(text, sans, 3)).toBe("");
  });

  test("never splits a surrogate pair", () => {
    const cut = ellipsize("😀😀😀😀😀😀😀😀", sans, 50);
    expect(cut.endsWith("…")).toBe(true);
    expect([...cut.slice(0, -1)].every((c) => c === "😀")).toBe(true);
  });
});

describe("stretchToWidth", () => {
  test("spreads or squeezes a line to the exact width, first pen unmoved", () => {
    const line = layoutText("downloads", { ...sans, size: 11 });
    for (const width of [line.width + 13.5, line.width - 4]) {
      const stretched = stretchToWidth(line, width);
      expect(stretched.width).toBe(width);
      expect(stretched.glyphs[0]!.x).toBe(line.glyphs[0]!.x);
      expect(lastEdge(stretched)).toBeCloseTo(width, 9);
      // The gaps grow evenly.
      const shifts = stretched.glyphs.map((g, i) => g.x - line.glyphs[i]!.x);
      for (let i = 1; i < shifts.length; i++) expect(shifts[i]! - shifts[i - 1]!).toBeCloseTo((width - line.width) / (shifts.length - 1), 9);
    }
  });

  test("marks move with their base; one glyph is left alone", () => {
    const line = layoutText("ae\u0301b", sans);
    const stretched = stretchToWidth(line, line.width + 10);
    expect(stretched.glyphs[2]!.x - stretched.glyphs[1]!.x).toBeCloseTo(line.glyphs[2]!.x - line.glyphs[1]!.x, 9);
    const single = layoutText("a", sans);
    expect(stretchToWidth(single, 100)).toBe(single);
  });
});
