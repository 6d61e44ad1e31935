// Shaping printable ASCII without fontkit's layout for every new string.
// fontkit takes ~100 µs to lay out a banner line; a server name never seen
// before (a cold banner) pays that on each new run. Where pairwise-proof.ts
// shows that a font's layout of ASCII is pairwise, each glyph's position is
// its character's own shape plus what its left and right neighbour pairs add
// (kerning), so a run is rebuilt from tables learned from fontkit itself: one
// character shaped alone, and each pair shaped once the first time a run
// holds it. Only what the shipped faces do is composed: advances, and kerning
// that changes the left glyph's advance. A pair that fontkit does not shape
// as its two glyphs (a ligature: "fi"), that begins a longer ligature, or that
// moves glyphs any other way sends the whole run to fontkit.
//
// Tables are bounded by the alphabet: per face and script context, 95
// characters and at most 95 * 95 pairs (one byte of state each, plus one
// number for each kerned pair: ~220 in DejaVu Sans); learning every pair would
// cost ~9,000 fontkit calls of ~16 µs once in the life of the process.

import type * as fontkit from "fontkit";
import type { ShapedRun } from "./face.ts";
import { ASCII_COUNT, ASCII_FIRST, provePairwise, type PairwiseProof } from "./pairwise-proof.ts";

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
// fontkit shapes a run under the script of its first character that has one; in printable ASCII only
// the letters are Latin, the rest Common (DejaVu kerns fewer pairs under the default script than under
// Latin: "1," differs). Runs with a letter and runs without one have separate tables.
const LATIN_LETTER = /[A-Za-z]/;
const LATIN = "latn";

// Character and pair states.
const UNKNOWN = 0;
const PLAIN = 1;
const KERNED = 2;
const TO_FONTKIT = 3;

function offset(position: fontkit.GlyphPosition): boolean {
  return position.xOffset !== 0 || position.yOffset !== 0;
}

/** What one script context has learned. */
class PairTables {
  private readonly advances = new Float64Array(ASCII_COUNT);
  private readonly charState = new Uint8Array(ASCII_COUNT);
  private readonly pairState = new Uint8Array(ASCII_COUNT * ASCII_COUNT);
  /** What each kerned pair adds to its left glyph's advance. */
  private readonly kerning = new Map<number, number>();

  constructor(private readonly font: fontkit.Font, private readonly script: string | undefined, private readonly proof: PairwiseProof) {
    for (const pair of proof.ligaturePrefixes) this.pairState[pair] = TO_FONTKIT;
  }

  private layout(text: string): fontkit.GlyphRun {
    return this.font.layout(text, [], this.script);
  }

  /** Whether character `k` shapes alone as its own one glyph, not offset (learned once). */
  private charUsable(k: number): boolean {
    if (this.charState[k] === UNKNOWN) {
      const run = this.layout(String.fromCharCode(ASCII_FIRST + k));
      const usable = run.glyphs.length === 1 && run.glyphs[0]!.id === this.proof.glyphIds[k] && !offset(run.positions[0]!);
      if (usable) this.advances[k] = run.positions[0]!.xAdvance;
      this.charState[k] = usable ? PLAIN : TO_FONTKIT;
    }
    return this.charState[k] === PLAIN;
  }

  /**
   * What pair (a, b) adds to the left glyph's advance, learned from fontkit's shape of the two
   * characters the first time; undefined when runs holding the pair go to fontkit.
   */
  private pair(a: number, b: number): number | undefined {
    const index = a * ASCII_COUNT + b;
    if (this.pairState[index] === UNKNOWN) this.learnPair(a, b, index);
    switch (this.pairState[index]) {
      case PLAIN: return 0;
      case KERNED: return this.kerning.get(index);
      default: return undefined;
    }
  }

  private learnPair(a: number, b: number, index: number): void {
    const { glyphs, positions } = this.layout(String.fromCharCode(ASCII_FIRST + a, ASCII_FIRST + b));
    // Anything but the two characters' own glyphs (a ligature, a substitution), an offset or a change to
    // the right glyph's advance is not composed.
    if (glyphs.length !== 2 || glyphs[0]!.id !== this.proof.glyphIds[a] || glyphs[1]!.id !== this.proof.glyphIds[b]
      || offset(positions[0]!) || offset(positions[1]!) || positions[1]!.xAdvance !== this.advances[b]) {
      this.pairState[index] = TO_FONTKIT;
      return;
    }
    const kerning = positions[0]!.xAdvance - this.advances[a]!;
    if (kerning !== 0) this.kerning.set(index, kerning);
    this.pairState[index] = kerning === 0 ? PLAIN : KERNED;
  }

  /** The run, or undefined when it holds something that only fontkit can shape. */
  shape(text: string): ShapedRun | undefined {
    const count = text.length;
    const chars = new Array<number>(count);
    for (let i = 0; i < count; i++) {
      chars[i] = text.charCodeAt(i) - ASCII_FIRST;
      if (!this.charUsable(chars[i]!)) return undefined;
    }
    const run: ShapedRun = { glyphIds: [], advances: [], xOffsets: [], yOffsets: [] };
    for (let i = 0; i < count; i++) {
      const k = chars[i]!;
      const kerning = i + 1 < count ? this.pair(k, chars[i + 1]!) : 0;
      if (kerning === undefined) return undefined;
      run.glyphIds.push(this.proof.glyphIds[k]!);
      run.advances.push(this.advances[k]! + kerning);
      run.xOffsets.push(0);
      run.yOffsets.push(0);
    }
    return run;
  }

  /** How many pairs are known, and how many of them kern (for tests and benches). */
  learned(): { pairs: number; kerned: number } {
    return { pairs: this.pairState.reduce((n, state) => n + (state === UNKNOWN ? 0 : 1), 0), kerned: this.kerning.size };
  }
}

/** Fast shaping of printable ASCII for one font, or undefined answers where fontkit must shape. */
export class AsciiShaper {
  /** Per script context: the tables, or null once the context is known not to be pairwise. */
  private readonly contexts = new Map<string | undefined, PairTables | null>();

  constructor(private readonly font: fontkit.Font) {}

  private tables(script: string | undefined, sample: string): PairTables | null {
    let tables = this.contexts.get(script);
    if (tables === undefined) {
      // fontkit's own plan for this context says which script tag and features its layout applies.
      const probe = this.font.layout(sample, [], script);
      const proof = provePairwise(this.font, probe.script, Object.keys(probe.features));
      tables = proof ? new PairTables(this.font, script, proof) : null;
      this.contexts.set(script, tables);
    }
    return tables;
  }

  /** The run as fontkit would shape it, or undefined when `text` is not printable ASCII or not composable. */
  shape(text: string): ShapedRun | undefined {
    if (!PRINTABLE_ASCII.test(text)) return undefined;
    // Without a letter fontkit detects the script from the text itself, as it does for pairs of such characters.
    const tables = LATIN_LETTER.test(text) ? this.tables(LATIN, "a") : this.tables(undefined, " ");
    return tables?.shape(text);
  }

  /** What the tables of each context hold (for tests and benches). */
  learned(): Array<{ script: string; pairwise: boolean; pairs: number; kerned: number }> {
    return [...this.contexts].map(([script, tables]) => ({ script: script ?? "detected", pairwise: tables !== null, ...(tables?.learned() ?? { pairs: 0, kerned: 0 }) }));
  }
}
