// Learning a face's tables (face-tables.ts) from fontkit itself, ahead of
// time: `npm run glyphs:update` writes the shipped faces' to
// glyphs/dejavu/tables.json, and a test checks that file against what this
// learns from the fonts and fontkit installed. Every character of the
// alphabet is shaped alone and every pair of them once, in each script
// context (~9,600 layouts of ~16 µs each), where the context's layout is
// proven pairwise (pairwise-proof.ts). Only what the shipped faces do is
// composed: advances, and kerning that changes the left glyph's advance; any
// other effect of a pair sends runs holding it to fontkit.

import type * as fontkit from "fontkit";
import { storedOutline, type ContextTables, type FaceTables } from "./face-tables.ts";
import { metricsOf, nameOf, outlineOf } from "./fontkit-font.ts";
import { provePairwise, type PairwiseProof } from "./pairwise-proof.ts";
import { ALPHABET_SIZE, TABLE_ALPHABET } from "./table-alphabet.ts";

/** The shaping part of a face's tables. */
export type ShapingTables = Pick<FaceTables, "glyphIds" | "latin" | "detected">;

const LATIN = "latn";

function offset(position: fontkit.GlyphPosition): boolean {
  return position.xOffset !== 0 || position.yOffset !== 0;
}

/** The tables of one script context (`script` undefined: fontkit detects it from the text), or null when its layout is not pairwise. */
function learnContext(font: fontkit.Font, script: string | undefined, sample: string): ContextTables | null {
  // fontkit's own plan for this context says which script tag and features its layout applies.
  const probe = font.layout(sample, [], script);
  const proof = provePairwise(font, probe.script, Object.keys(probe.features));
  if (!proof) return null;
  const layout = (text: string) => font.layout(text, [], script);
  // A character is composed where it shapes alone as its own one glyph, not offset.
  const advances = [...TABLE_ALPHABET].map((char, k) => {
    if (proof.glyphIds[k] === 0) return null;
    const run = layout(char);
    return run.glyphs.length === 1 && run.glyphs[0]!.id === proof.glyphIds[k] && !offset(run.positions[0]!) ? run.positions[0]!.xAdvance : null;
  });
  let pairs = "";
  const kerning: number[] = [];
  for (let a = 0; a < ALPHABET_SIZE; a++) {
    for (let b = 0; b < ALPHABET_SIZE; b++) {
      const added = pairKerning(layout, proof, advances, a, b);
      pairs += added === undefined ? "x" : added === 0 ? "." : "k";
      if (added) kerning.push(added);
    }
  }
  return { advances, pairs, kerning };
}

/** What pair (a, b) adds to the left glyph's advance, or undefined when runs holding it go to fontkit. */
function pairKerning(layout: (text: string) => fontkit.GlyphRun, proof: PairwiseProof, advances: Array<number | null>, a: number, b: number): number | undefined {
  const [advanceA, advanceB] = [advances[a], advances[b]];
  if (advanceA == null || advanceB == null || proof.ligaturePrefixes.has(a * ALPHABET_SIZE + b)) return undefined;
  const { glyphs, positions } = layout(TABLE_ALPHABET[a]! + TABLE_ALPHABET[b]!);
  // Anything but the two characters' own glyphs (a ligature, a substitution), an offset or a change to
  // the right glyph's advance is not composed.
  if (glyphs.length !== 2 || glyphs[0]!.id !== proof.glyphIds[a] || glyphs[1]!.id !== proof.glyphIds[b]
    || offset(positions[0]!) || offset(positions[1]!) || positions[1]!.xAdvance !== advanceB) return undefined;
  return positions[0]!.xAdvance - advanceA;
}

/** How runs of the alphabet shape in `font`, in both script contexts. */
export function learnShapingTables(font: fontkit.Font): ShapingTables {
  return {
    glyphIds: [...TABLE_ALPHABET].map((char) => font.glyphForCodePoint(char.charCodeAt(0)).id),
    latin: learnContext(font, LATIN, "a"),
    detected: learnContext(font, undefined, " "),
  };
}

/** Everything a face's tables hold: its name, metrics, shaping and the outlines of its glyphs of the alphabet. */
export function learnFaceTables(font: fontkit.Font): FaceTables {
  const shaping = learnShapingTables(font);
  const outlines = Object.fromEntries(shaping.glyphIds.filter((id) => id !== 0).map((id) => [id, storedOutline(outlineOf(font, id))]));
  return { name: nameOf(font), metrics: metricsOf(font), glyphIds: shaping.glyphIds, outlines, latin: shaping.latin, detected: shaping.detected };
}
