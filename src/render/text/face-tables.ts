// What a shipped outline face needs to draw text of the table alphabet
// (table-alphabet.ts), read from tables learned from fontkit ahead of time
// (table-learning.ts, written to glyphs/dejavu/tables.json by
// `npm run glyphs:update`): the face's name and metrics, which characters it
// has, each glyph's outline, and how runs shape. Opening fontkit costs a
// thread ~25 MiB (its parser, shaper and Unicode data); a render thread that
// draws only such text never opens it.
//
// Shaping from the tables: where a font's layout of the alphabet is pairwise
// (pairwise-proof.ts), each glyph's position is its character's own shape
// plus what the pair it starts adds to its advance (kerning), as fontkit
// shapes it. A pair that fontkit shapes otherwise (a ligature: "fi", the
// start of a longer one, a glyph moved any other way) sends the whole run to
// fontkit. fontkit shapes a run under the script of its first character that
// has one; in the alphabet only the ASCII letters have one (Latin), so runs
// with a letter and runs without one have tables of their own (a font may
// kern a pair under one script and not under the other).

import { CLOSE, CUBIC, LINE, MOVE, Path, QUAD } from "../path.ts";
import type { FaceMetrics, ShapedRun } from "./face.ts";
import { ALPHABET_SIZE, IN_ALPHABET, alphabetIndex } from "./table-alphabet.ts";

/** How runs of one script context shape. */
export interface ContextTables {
  /** Each character's advance alone, in font units; null where a run holding it goes to fontkit. */
  advances: Array<number | null>;
  /**
   * One character per pair of characters, at first * ALPHABET_SIZE + second (places in the alphabet):
   * "." adds nothing, "k" adds the next number of `kerning` to the first's advance, "x" sends the run to fontkit.
   */
  pairs: string;
  kerning: number[];
}

/** A glyph's Path as stored: its verbs as digits, and its coordinates. */
export interface StoredOutline {
  verbs: string;
  coords: number[];
}

export interface FaceTables {
  name: string;
  metrics: FaceMetrics;
  /** The glyph of each character of the alphabet; 0 where the face lacks it. */
  glyphIds: number[];
  /** The outlines of those glyphs, by glyph id. */
  outlines: Record<string, StoredOutline>;
  /** Runs holding an ASCII letter (shaped as Latin); null when that context is not pairwise. */
  latin: ContextTables | null;
  /** Runs without one (fontkit's default script). */
  detected: ContextTables | null;
}

const LATIN_LETTER = /[A-Za-z]/;
const PLAIN = ".";
const KERNED = "k";

/** One context's tables, unpacked for shaping. */
class ContextShaper {
  /** Per pair: 0 to fontkit, 1 plain, 2 kerned. */
  private readonly pairState = new Uint8Array(ALPHABET_SIZE * ALPHABET_SIZE);
  private readonly kerning = new Map<number, number>();

  constructor(private readonly tables: ContextTables, private readonly glyphIds: readonly number[]) {
    let next = 0;
    for (let index = 0; index < tables.pairs.length; index++) {
      const state = tables.pairs[index];
      if (state === KERNED) this.kerning.set(index, tables.kerning[next++]!);
      this.pairState[index] = state === PLAIN ? 1 : state === KERNED ? 2 : 0;
    }
  }

  shape(text: string): ShapedRun | undefined {
    const count = text.length;
    const chars = new Array<number>(count);
    for (let i = 0; i < count; i++) {
      chars[i] = alphabetIndex(text.charCodeAt(i));
      if (this.tables.advances[chars[i]!] === null) return undefined;
    }
    const run: ShapedRun = { glyphIds: [], advances: [], xOffsets: [], yOffsets: [] };
    for (let i = 0; i < count; i++) {
      const k = chars[i]!;
      let kerning = 0;
      if (i + 1 < count) {
        const pair = k * ALPHABET_SIZE + chars[i + 1]!;
        const state = this.pairState[pair];
        if (state === 0) return undefined;
        if (state === 2) kerning = this.kerning.get(pair)!;
      }
      run.glyphIds.push(this.glyphIds[k]!);
      run.advances.push(this.tables.advances[k]! + kerning);
      run.xOffsets.push(0);
      run.yOffsets.push(0);
    }
    return run;
  }
}

/** A Path from its stored form, built by the same calls that made it. */
export function outlineFromStored({ verbs, coords }: StoredOutline): Path {
  const path = new Path();
  let c = 0;
  for (const verb of verbs) {
    switch (Number(verb)) {
      case MOVE: path.moveTo(coords[c++]!, coords[c++]!); break;
      case LINE: path.lineTo(coords[c++]!, coords[c++]!); break;
      case QUAD: path.quadTo(coords[c++]!, coords[c++]!, coords[c++]!, coords[c++]!); break;
      case CUBIC: path.cubicTo(coords[c++]!, coords[c++]!, coords[c++]!, coords[c++]!, coords[c++]!, coords[c++]!); break;
      case CLOSE: path.close(); break;
    }
  }
  return path;
}

/** A Path's stored form. */
export function storedOutline(path: Path): StoredOutline {
  return { verbs: path.verbs.join(""), coords: [...path.coords] };
}

/** Answers from one face's tables; undefined where they do not hold the answer (ask fontkit). */
export class TableShaper {
  private readonly latin: ContextShaper | null;
  private readonly detected: ContextShaper | null;

  constructor(private readonly tables: FaceTables) {
    this.latin = tables.latin && new ContextShaper(tables.latin, tables.glyphIds);
    this.detected = tables.detected && new ContextShaper(tables.detected, tables.glyphIds);
  }

  /** Whether the face has the character, for characters of the alphabet. */
  covers(codePoint: number): boolean | undefined {
    const k = codePoint <= 0xffff ? alphabetIndex(codePoint) : -1;
    return k < 0 ? undefined : this.tables.glyphIds[k] !== 0;
  }

  /** The run as fontkit would shape it, for text of the alphabet that the tables compose. */
  shape(text: string): ShapedRun | undefined {
    if (!IN_ALPHABET.test(text)) return undefined;
    return (LATIN_LETTER.test(text) ? this.latin : this.detected)?.shape(text);
  }

  /** The outline of a glyph of the alphabet. */
  outline(glyphId: number): Path | undefined {
    const stored = this.tables.outlines[glyphId];
    return stored && outlineFromStored(stored);
  }
}
