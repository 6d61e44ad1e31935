// The shipped faces: every script and symbol the issue names draws as a real
// glyph from some face of the chain (never .notdef, never an empty box), and
// the pixel font's own data is complete and well formed.

import { describe, expect, test } from "bun:test";
import * as fontkit from "fontkit";
import { readFileSync } from "node:fs";
import {
  GlyphCache, maskBytes, PixelFace, Pixmap, drawTextLine, layoutText, pixelFamily, rasterizeToMask, rgba, sansFamily, type FontFamily, type Mask,
} from "../../../src/render/index.ts";
import { BoundedCache } from "../../../src/cache/bounded-cache.ts";
import { parsePixelFont, PixelFontError } from "../../../src/render/text/pixel-face.ts";
import type { Face } from "../../../src/render/text/face.ts";
import type { OutlineFace } from "../../../src/render/text/outline-face.ts";

function glyphsOf(text: string, family: FontFamily) {
  return layoutText(text, { family, size: 16 }).glyphs;
}

/** Each character of `text` lays out to a covered glyph with ink. */
function expectDrawable(text: string, family: FontFamily): void {
  const chars = [...text];
  const glyphs = glyphsOf(text, family);
  expect(glyphs.length).toBe(chars.length);
  glyphs.forEach((glyph, i) => {
    expect({ char: chars[i], covered: glyph.face.covers(chars[i]!.codePointAt(0)!) }).toEqual({ char: chars[i], covered: true });
    expect(glyph.glyphId).toBeGreaterThan(0);
    const mask = rasterizeToMask(glyph.face.outline(glyph.glyphId));
    expect(mask.data.some((c) => c > 0)).toBe(true);
  });
}

const LATIN = "AaZz09ÀéÎõÜßçÆøŁœŠž";
const GREEK_CYRILLIC = "ΑΩαωΣσЖжЯяЩщЁё";
const CJK = "中文日本語ひらがなカタカナ한국어";
const SYMBOLS = "★❤►✦⚔☀☂♠♣♥♦✔✘→←↑↓█░▲▼●■";
const EMOJI = "😀🎮🔥🏆💎🗡🌍🚀";

describe("sans family (DejaVu Sans + Unifont)", () => {
  const family = sansFamily();

  test("regular, bold and italic are real faces", () => {
    expect(family.regular.name).toMatch(/DejaVu Sans/);
    expect(family.bold?.name).toMatch(/Bold/);
    expect(family.bold?.bold).toBe(true);
    expect(family.italic?.name).toMatch(/Oblique/);
    expect(family.italic?.italic).toBe(true);
  });

  test.each([["Latin", LATIN], ["Greek and Cyrillic", GREEK_CYRILLIC]])("%s comes from DejaVu itself", (_, text) => {
    expectDrawable(text, family);
    for (const glyph of glyphsOf(text, family)) expect(glyph.face).toBe(family.regular);
    for (const glyph of layoutText(text, { family, size: 16, bold: true }).glyphs) expect(glyph.face).toBe(family.bold!);
  });

  test.each([["CJK", CJK], ["symbols", SYMBOLS], ["emoji", EMOJI]])("%s draw as glyphs", (_, text) => expectDrawable(text, family));

  test("CJK falls back to Unifont, emoji to Unifont's upper planes", () => {
    expect(glyphsOf("中", family)[0]!.face.name).toMatch(/Unifont/);
    expect(glyphsOf("🎮", family)[0]!.face.name).toMatch(/Unifont Upper/);
  });
});

describe("pixel family (Pennant Pixel + Unifont)", () => {
  const family = pixelFamily();

  test("covers printable ASCII itself", () => {
    let ascii = "";
    for (let c = 0x21; c <= 0x7e; c++) ascii += String.fromCharCode(c);
    expectDrawable(ascii, family);
    for (const glyph of glyphsOf(ascii, family)) expect(glyph.face).toBe(family.regular);
    expect(family.regular.covers(0x20)).toBe(true);
  });

  test.each([["CJK", CJK], ["symbols", SYMBOLS], ["emoji", EMOJI], ["accents", "éÜñ"]])("%s fall back to Unifont", (_, text) => {
    expectDrawable(text, family);
  });

  test("draws ⚔, » and « itself: Unifont's, shrunk to the face's 8 px, lose their shape", () => {
    for (const glyph of glyphsOf("⚔»«", family)) expect(glyph.face).toBe(family.regular);
  });

  test("glyph outlines are whole font pixels", () => {
    const face = family.regular;
    const [glyph] = glyphsOf("A", family);
    const { coords } = face.outline(glyph!.glyphId);
    expect(coords.length).toBeGreaterThan(0);
    for (const value of coords) expect(Number.isInteger(value)).toBe(true);
  });
});

describe("characters no shipped face has", () => {
  // U+12000 (Cuneiform), at 16 px: one font unit is one pixel. Its code point, "012" over "000", in a frame.
  const CUNEIFORM_BOX = [
    "###############",
    "#.............#",
    "#.###..#..###.#",
    "#.#.#.##....#.#",
    "#.#.#..#..###.#",
    "#.#.#..#..#...#",
    "#.###.###.###.#",
    "#.............#",
    "#.............#",
    "#.###.###.###.#",
    "#.#.#.#.#.#.#.#",
    "#.#.#.#.#.#.#.#",
    "#.#.#.#.#.#.#.#",
    "#.###.###.###.#",
    "#.............#",
    "###############",
  ];

  /** The glyph drawn with its pen at (2, 16) in a pixmap of its own, as rows of '#' (opaque) and '.' (clear). */
  function drawn(text: string, family: FontFamily): string[] {
    const p = new Pixmap(20, 20);
    drawTextLine(p, layoutText(text, { family, size: 16 }), 2, 16, rgba(255, 255, 255));
    const rows: string[] = [];
    for (let y = 2; y < 18; y++) {
      let row = "";
      for (let x = 2; x < 17; x++) {
        const alpha = p.data[(y * p.width + x) * 4 + 3]!;
        row += alpha === 255 ? "#" : alpha === 0 ? "." : "?";
      }
      rows.push(row);
    }
    return rows;
  }

  test.each([["sans", sansFamily], ["pixel", pixelFamily]] as const)("%s: U+12000 is a box of its hex digits, sharp at 16 px", (_, family) => {
    expect(drawn("\u{12000}", family())).toEqual(CUNEIFORM_BOX);
    const [glyph] = glyphsOf("\u{12000}", family());
    expect(glyph!.face.name).toBe("code point box");
    expect(glyph!.advance).toBe(16);
  });

  test("every hex digit has its own picture; basic-plane code points show four digits, in a narrower box", () => {
    const family = sansFamily();
    const pictures = new Set<string>();
    for (let digit = 0; digit < 16; digit++) pictures.add(drawn(String.fromCodePoint(0x10fff0 + digit), family).join("\n"));
    expect(pictures.size).toBe(16);
    expect(glyphsOf("\ue000", family)[0]!.advance).toBe(12);
    expect(drawn("\ue000", family)[2]).toBe("#.###.###.#....");
  });

  test("the glyph cache keeps a box (its glyph id is the code point, up to 2^21) apart from the next face's glyphs", () => {
    const box = glyphsOf("\u{12000}", sansFamily())[0]!.face;
    const unifont = sansFamily().fallbacks[0]!;
    // A face numbered right after the box's: with 16 bits for glyph ids, its glyph 0x2000 had the box's key.
    const next: Face = Object.assign(Object.create(unifont) as Face, { id: box.id + 1 });
    const masks = new BoundedCache<Mask, number>({ maxBytes: 8 * 1024 * 1024, sizeOf: maskBytes });
    const cache = new GlyphCache(masks);
    const boxMask = cache.get(box, 0x12000, 16, 0, false);
    expect(cache.get(next, 0x2000, 16, 0, false)).not.toBe(boxMask);
    expect(masks.stats.entries).toBe(2);
  });

  test("the coverage docs/drawing.md and glyphs/README.md state: Unifont Upper has 13,547 characters, 303 of them CJK ideographs of planes 2 and 3", () => {
    const upper = fontkit.create(readFileSync(new URL("../../../glyphs/unifont/unifont_upper.otf", import.meta.url))) as fontkit.Font;
    const beyondBasicPlane = upper.characterSet.filter((codePoint) => codePoint > 0xffff);
    expect(beyondBasicPlane.length).toBe(13_547);
    expect(beyondBasicPlane.filter((codePoint) => codePoint >= 0x20000 && codePoint <= 0x3ffff).length).toBe(303);
    for (const codePoint of [0x12000, 0x1254f, 0x13000, 0x14400, 0x16800, 0x17000, 0x18800, 0x20000, 0x30000]) {
      expect({ codePoint, covered: upper.hasGlyphForCodePoint(codePoint) }).toEqual({ codePoint, covered: false });
    }
  });

  test("Cuneiform, Egyptian hieroglyphs, Tangut, CJK Extension B beyond Unifont's few, private use: boxes, in both families", () => {
    for (const family of [sansFamily(), pixelFamily()]) {
      for (const char of ["\u{12000}", "\u{13000}", "\u{17000}", "\u{20000}", "\ue000", "\u{f0000}"]) {
        const glyphs = glyphsOf(char, family);
        expect({ char, face: glyphs.map((glyph) => glyph.face.name) }).toEqual({ char, face: ["code point box"] });
      }
    }
  });
});

describe("pixel font data", () => {
  const glyph = (rows: string[]) => `U+0041 A\n${rows.join("\n")}\n`;
  const seven = ["#", "#", "#", "#", "#", "#", "#"];

  test("parses headers, rows and descenders", () => {
    const font = parsePixelFont(`; comment\n${glyph(seven)}\nU+0067 g\n${[".", ".", "#", "#", "#", "#", "#", "#", "#"].join("\n")}\n`);
    expect(font.get(0x41)!.width).toBe(1);
    expect(font.get(0x67)!.rows.length).toBe(9);
  });

  test.each([
    ["rows of unequal width", glyph(["##", ...seven.slice(1)])],
    ["too few rows", glyph(seven.slice(1))],
    ["too many rows", glyph([...seven, "#", "#", "#"])],
    ["a stray character", glyph(["x", ...seven.slice(1)])],
    ["a missing header", "##\n"],
    ["a glyph defined twice", glyph(seven) + "\n" + glyph(seven)],
  ])("rejects %s", (_, source) => {
    expect(() => parsePixelFont(source)).toThrow(PixelFontError);
  });

  test("advances are the glyph width plus one pixel", () => {
    const face = new PixelFace("test", glyph(["##.", "...", "...", "...", "...", "...", "..."]));
    expect(face.shape("AA").advances).toEqual([4, 4]);
    expect(face.shape("B").glyphIds).toEqual([0]);
    expect(face.covers(0x42)).toBe(false);
  });
});

describe("memory", () => {
  test("fontkit's own glyph cache stays bounded over thousands of distinct characters", () => {
    const family = sansFamily();
    const unifont = family.fallbacks[0] as OutlineFace;
    for (let i = 0; i < 4000; i++) {
      const char = String.fromCodePoint(0x4e00 + i);
      const [glyph] = layoutText(char, { family, size: 16 }).glyphs;
      glyph!.face.outline(glyph!.glyphId);
    }
    // The limit, plus what one check interval can add (a shape and an outline per character).
    expect(unifont.fontkitGlyphCount()).toBeLessThanOrEqual(1024 + 128);
    expect(unifont.fontkitGlyphCount()).toBeGreaterThan(0);
  });
});
