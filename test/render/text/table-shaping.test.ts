// The tables of the shipped DejaVu faces (glyphs/dejavu/tables.json) shape
// exactly as fontkit's layout does (glyph ids, advances, offsets), on every
// pair of the table alphabet, on every triple in which some pair kerns or
// ligates, on banner-like texts and on seeded random strings; and they are
// really used (the comparisons are not of fontkit with itself).

import { describe, expect, test } from "bun:test";
import * as fontkit from "fontkit";
import { sansFamily } from "../../../src/render/index.ts";
import type { ShapedRun } from "../../../src/render/text/face.ts";
import { DEJAVU_FILES } from "../../../src/render/text/fonts.ts";
import type { OutlineFace } from "../../../src/render/text/outline-face.ts";
import { provePairwise } from "../../../src/render/text/pairwise-proof.ts";
import { ALPHABET_SIZE, TABLE_ALPHABET } from "../../../src/render/text/table-alphabet.ts";
import { Random } from "../../fuzz/support/random.ts";

const family = sansFamily();
const DEJAVU = [family.regular, family.bold!, family.italic!] as OutlineFace[];

const ALPHABET = [...TABLE_ALPHABET];
const PAIRS = ALPHABET.flatMap((a) => ALPHABET.map((b) => a + b));

const BANNER_TEXTS = [
  "Skyblock Network", "Hypixel Network", "Mineplex", "The Hive", "CubeCraft Games", "Wynncraft", "2b2t",
  "SKYBLOCK - New season!", "Join now at play.example.com", "mc.office-staff.net", "Survival | Factions | PvP",
  "1,234 / 5,000", "Players: 1,234 / 5,000", "0 / 100", "12 players online", "v1.21.4", "1.21.4", "1.8.9-1.21.4",
  "Paper 1.21.4 (MC: 1.21.4)", "35 ms", "Offline", "Online", "Version: 1.20.1", "office", "affluent fjord", "ff fi fl ffi ffl",
  "Fly off the cliff!", "TAVERN", "AVATAR", "Type: \"Yo!\"", "L'Tower", "P.J. & T.V.", "ECOFF", "www.WAVE.to", "W.A.T.",
  "  two  spaces  ", "~!@#$%^&*()_+`-={}|[]\\:\";'<>?,./", "Ty, Tw, Va, Wo, Yo, Av, LT, LV, PA, r., y., F., T;",
  "", " ", "f", "ff", "fff", "ffff", "fif", "flf", "fiffl",
];

interface Mismatch { text: string; fast: ShapedRun; fontkit: ShapedRun }

/** The texts whose shape by the face differs from fontkit's own layout, and how many took the fast path. */
function compare(face: OutlineFace, texts: Iterable<string>): { mismatches: Mismatch[]; fast: number } {
  const mismatches: Mismatch[] = [];
  let fast = 0;
  for (const text of texts) {
    if (face.tables!.shape(text)) fast++;
    const shaped = face.shape(text);
    const reference = face.shapeWithFontkit(text);
    if (!Bun.deepEquals(shaped, reference, true)) mismatches.push({ text, fast: shaped, fontkit: reference });
  }
  return { mismatches: mismatches.slice(0, 5), fast };
}

/** Pairs that fontkit shapes other than as the two characters alone: kerned, or not two glyphs (ligatures). Found from fontkit, not from the tables. */
function interactingPairs(face: OutlineFace): string[] {
  return PAIRS.filter((pair) => {
    const both = face.shapeWithFontkit(pair);
    const [a, b] = [face.shapeWithFontkit(pair[0]!), face.shapeWithFontkit(pair[1]!)];
    const apart: ShapedRun = {
      glyphIds: [...a.glyphIds, ...b.glyphIds], advances: [...a.advances, ...b.advances],
      xOffsets: [...a.xOffsets, ...b.xOffsets], yOffsets: [...a.yOffsets, ...b.yOffsets],
    };
    return !Bun.deepEquals(both, apart, true);
  });
}

function* randomTexts(seed: number, count: number, alphabet: string): Generator<string> {
  const random = new Random(seed);
  for (let i = 0; i < count; i++) {
    const length = 1 + random.int(40);
    let text = "";
    for (let k = 0; k < length; k++) text += alphabet[random.int(alphabet.length)];
    yield text;
  }
}

describe.each(DEJAVU.map((face) => [face.name, face] as const))("%s", (_, face) => {
  const interacting = interactingPairs(face);

  test("kerns and ligates some pairs (so the corpora below test something)", () => {
    expect(interacting.length).toBeGreaterThan(50);
    expect(interacting).toEqual(expect.arrayContaining(["fi", "fl", "ff", "AV", "Ty"]));
  });

  test("every pair, alone and in a run with a letter, shapes as with fontkit; only ligatures leave the fast path", () => {
    const alone = compare(face, PAIRS);
    expect(alone.mismatches).toEqual([]);
    // Pairs without a letter are shaped under another script than in a run with a letter.
    const inLatinRun = compare(face, PAIRS.map((pair) => `${pair}a`));
    expect(inLatinRun.mismatches).toEqual([]);
    expect(alone.fast).toBe(PAIRS.length - 3);
    for (const ligature of ["ff", "fi", "fl"]) expect(face.tables!.shape(ligature)).toBeUndefined();
  });

  test("every triple in which a pair kerns or ligates shapes as with fontkit", () => {
    const triples = new Set<string>();
    for (const pair of interacting) for (const c of ALPHABET) triples.add(pair + c).add(c + pair);
    const { mismatches, fast } = compare(face, triples);
    expect(mismatches).toEqual([]);
    expect(fast).toBeGreaterThan(triples.size * 0.9);
  });

  test("banner texts shape as with fontkit, by the fast path unless they hold a ligature", () => {
    const { mismatches, fast } = compare(face, BANNER_TEXTS);
    expect(mismatches).toEqual([]);
    expect(face.tables!.shape("Players: 1,234 / 5,000")).toBeDefined();
    expect(face.tables!.shape("now · peak 24h: \u2014")).toBeDefined();
    expect(face.tables!.shape("Skyblock Netw\u2026")).toBeDefined();
    expect(face.tables!.shape("office")).toBeUndefined();
    expect(fast).toBeGreaterThan(BANNER_TEXTS.length * 0.7);
  });

  test("seeded random strings shape as with fontkit", () => {
    const kerning = [...new Set(interacting.join(""))].join("");
    const everything = compare(face, randomTexts(0x5eed, 1500, TABLE_ALPHABET));
    const kerningOnly = compare(face, randomTexts(0xbe11, 1500, kerning));
    expect(everything.mismatches).toEqual([]);
    expect(kerningOnly.mismatches).toEqual([]);
    expect(everything.fast).toBeGreaterThan(500);
    expect(kerningOnly.fast).toBeGreaterThan(100);
  });
});

describe("the pairwise proof", () => {
  const font = fontkit.openSync(DEJAVU_FILES["DejaVuSans.ttf"]) as fontkit.Font;

  test("finds DejaVu's three-glyph ligatures (ffi, ffl), whose first pair alone could be missed", () => {
    const proof = provePairwise(font, "latn", ["liga"]);
    const ff = ("f".charCodeAt(0) - 0x20) * ALPHABET_SIZE + ("f".charCodeAt(0) - 0x20);
    expect(proof?.ligaturePrefixes).toEqual(new Set([ff]));
  });

  test("refuses a substitution of ASCII glyphs, accepts a contextual rule that needs a combining mark", () => {
    // Latin 'aalt' is an alternate substitution covering "IJaly": not pairwise.
    expect(provePairwise(font, "latn", ["aalt"])).toBeUndefined();
    // 'ccmp' holds a chaining rule on i and j, but only before combining marks: never on ASCII alone.
    expect(provePairwise(font, "latn", ["ccmp"])).toBeDefined();
  });
});
