// What the shipped faces never do, but other fonts may, stays exact: kerning
// that differs by script, pairs that move glyphs other than by the left
// advance, and contextual rules that could match ASCII. Shown on stand-in
// fonts, learned into tables as the shipped ones are (those are compared with
// fontkit in table-shaping.test.ts).

import { describe, expect, test } from "bun:test";
import type * as fontkit from "fontkit";
import type { ShapedRun } from "../../../src/render/text/face.ts";
import { TableShaper } from "../../../src/render/text/face-tables.ts";
import { provePairwise } from "../../../src/render/text/pairwise-proof.ts";
import { learnShapingTables } from "../../../src/render/text/table-learning.ts";

/**
 * A stand-in for a fontkit font: glyph id = code point, advance 500, "T." kerns in every script, "1," only
 * under Latin (what fontkit picks for text with a letter), "Vo" moves the o and "<-" substitutes the
 * hyphen. Its layout is the reference.
 */
function standInFont(GSUB?: unknown) {
  return {
    GSUB,
    variationAxes: {},
    glyphForCodePoint: (codePoint: number) => ({ id: codePoint }),
    layout(text: string, _features: string[], script?: string) {
      const detected = script ?? (/[A-Za-z]/.test(text) ? "latn" : "zzzz");
      const glyphs = [...text].map((char) => ({ id: char.charCodeAt(0) }));
      const positions = glyphs.map(() => ({ xAdvance: 500, yAdvance: 0, xOffset: 0, yOffset: 0 }));
      for (let i = 0; i + 1 < text.length; i++) {
        const pair = text.slice(i, i + 2);
        if (pair === "T.") positions[i]!.xAdvance -= 80;
        if (pair === "1," && detected === "latn") positions[i]!.xAdvance -= 30;
        if (pair === "Vo") positions[i + 1]!.xOffset -= 20;
        if (pair === "<-") glyphs[i + 1]!.id = 0x2190;
      }
      return { script: detected, features: { kern: true }, glyphs, positions };
    },
  };
}

function reference(font: ReturnType<typeof standInFont>, text: string): ShapedRun {
  const { glyphs, positions } = font.layout(text, []);
  return {
    glyphIds: glyphs.map((glyph) => glyph.id), advances: positions.map((p) => p.xAdvance),
    xOffsets: positions.map((p) => p.xOffset), yOffsets: positions.map((p) => p.yOffset),
  };
}

describe("composing runs", () => {
  const font = standInFont();
  const metrics = { unitsPerEm: 1000, ascent: 800, descent: -200, lineGap: 0, underlinePosition: -100, underlineThickness: 50, strikeoutPosition: 300, strikeoutThickness: 50 };
  const shaper = new TableShaper({ name: "stand-in", metrics, outlines: {}, ...learnShapingTables(font as unknown as fontkit.Font) });

  test("kerning learned per script: a pair kerned only under Latin stays unkerned in a run without letters", () => {
    for (const text of ["1,", "a1,", "1,000", "Players 1,000", "T.1,", "x T.T. 1,2"]) {
      expect({ text, run: shaper.shape(text) }).toEqual({ text, run: reference(font, text) });
    }
    expect(shaper.shape("1,")!.advances).toEqual([500, 500]);
    expect(shaper.shape("a1,")!.advances).toEqual([500, 470, 500]);
  });

  test("a pair that moves a glyph other than by the left advance goes to fontkit", () => {
    expect(shaper.shape("Vo")).toBeUndefined();
    expect(shaper.shape("a Vote")).toBeUndefined();
    expect(shaper.shape("V o")).toEqual(reference(font, "V o"));
  });

  test("a pair shaped as other glyphs than its own goes to fontkit", () => {
    expect(shaper.shape("go <- back")).toBeUndefined();
    expect(shaper.shape("< -")).toEqual(reference(font, "< -"));
  });
});

describe("the pairwise proof of contextual rules", () => {
  const glyphs = (text: string) => ({ version: 1, glyphs: [...text].map((char) => char.codePointAt(0)!) });
  const COMBINING = { version: 1, glyphs: [0x301] };
  /** A GSUB table whose 'calt' feature holds one chaining contextual subtable. */
  const withRule = (subtable: unknown) => ({
    scriptList: [{ tag: "DFLT", script: { defaultLangSys: { featureIndexes: [0] } } }],
    featureList: [{ tag: "calt", feature: { lookupListIndexes: [0] } }],
    lookupList: { length: 1, get: () => ({ lookupType: 6, flags: { flags: { ignoreBaseGlyphs: false } }, subTables: [subtable] }) },
  });
  const proves = (subtable: unknown) => provePairwise(standInFont(withRule(subtable)) as unknown as fontkit.Font, "latn", ["calt"]) !== undefined;

  test("by coverage: refused when every position can hold ASCII, accepted when one needs a mark", () => {
    expect(proves({ version: 3, backtrackCoverage: [], inputCoverage: [glyphs("a")], lookaheadCoverage: [glyphs("b")] })).toBe(false);
    expect(proves({ version: 3, backtrackCoverage: [], inputCoverage: [glyphs("a")], lookaheadCoverage: [COMBINING] })).toBe(true);
  });

  test("by glyph sequences", () => {
    const rule = (lookahead: number) => ({ version: 1, coverage: glyphs("a"), chainRuleSets: [[{ backtrack: [], input: [], lookahead: [lookahead] }]] });
    expect(proves(rule(0x62))).toBe(false);
    expect(proves(rule(0x301))).toBe(true);
  });

  test("by classes: a class that holds no ASCII glyph cannot match", () => {
    const marks = { version: 2, classRangeRecord: [{ start: 0x300, end: 0x36f, class: 1 }] };
    const rule = (lookaheadClass: number) => ({
      version: 2, coverage: glyphs("i"), backtrackClassDef: marks, inputClassDef: marks, lookaheadClassDef: marks,
      chainClassSet: [[{ backtrack: [], input: [], lookahead: [lookaheadClass] }]],
    });
    expect(proves(rule(1))).toBe(true);
    expect(proves(rule(0))).toBe(false);
  });
});
