// Whether fontkit's layout of text in the table alphabet (table-alphabet.ts:
// printable ASCII and three more) in a font is pairwise: each glyph's position
// depends only on its own character and its neighbours, so that it can be
// rebuilt from shapes of one and two characters (table-learning.ts).
// Read from the font's own GSUB/GPOS lookups, not guessed: a lookup either
// works on adjacent pairs (pair kerning, single positioning, ligatures, which
// the shaper detects per pair), or provably never fires on a run of ASCII
// glyphs (mark attachment, contextual rules whose sequences need a non-ASCII
// glyph). "ASCII" below stands for the whole alphabet. Anything else (a
// contextual rule that could match ASCII, a glyph
// substituted one for one, a variable font) makes the context not pairwise.

import type * as fontkit from "fontkit";
import { ALPHABET_SIZE, TABLE_ALPHABET } from "./table-alphabet.ts";

// The parts of fontkit's parsed OpenType tables read here (fontkit's types leave them as `any`).
interface Coverage { version: number; glyphs?: number[]; rangeRecords?: Array<{ start: number; end: number }> }
interface ClassDef { version: number; startGlyph?: number; classValueArray?: number[]; classRangeRecord?: Array<{ start: number; end: number; class: number }> }
interface LazyList<T> { length: number; get(index: number): T }
interface Lookup { lookupType: number; flags: { flags: { ignoreBaseGlyphs: boolean } }; subTables: Subtable[] }
// One shape for all subtable formats: each reads the fields its lookup type and version has.
interface Subtable {
  version: number;
  lookupType?: number;
  extension?: Subtable;
  coverage?: Coverage;
  markCoverage?: Coverage;
  mark1Coverage?: Coverage;
  ligatureSets?: LazyList<Array<{ components: number[] }>>;
  ruleSets?: Array<Array<{ input: number[] }>>;
  chainRuleSets?: Array<Array<{ backtrack: number[]; input: number[]; lookahead: number[] }>>;
  classDef?: ClassDef;
  classSet?: Array<Array<{ classes: number[] }> | null>;
  backtrackClassDef?: ClassDef;
  inputClassDef?: ClassDef;
  lookaheadClassDef?: ClassDef;
  chainClassSet?: Array<Array<{ backtrack: number[]; input: number[]; lookahead: number[] }> | null>;
  coverages?: Coverage[];
  backtrackCoverage?: Coverage[];
  inputCoverage?: Coverage[];
  lookaheadCoverage?: Coverage[];
}
interface LayoutTable {
  scriptList: Array<{ tag: string; script: { defaultLangSys: { featureIndexes: number[] } | null } }>;
  featureList: Array<{ tag: string; feature: { lookupListIndexes: number[] } }>;
  lookupList: LazyList<Lookup>;
}

export interface PairwiseProof {
  /** Glyph ids fontkit maps each character of the alphabet to (by cmap). */
  glyphIds: number[];
  /**
   * Character pairs (first * ALPHABET_SIZE + second, places in the alphabet) that begin a ligature of three or more
   * glyphs: the pair's own shape cannot reveal such a ligature, so runs holding it go to fontkit.
   */
  ligaturePrefixes: Set<number>;
}

function coverageGlyphs(coverage: Coverage): number[] {
  if (coverage.version === 1) return coverage.glyphs ?? [];
  return (coverage.rangeRecords ?? []).flatMap(({ start, end }) => Array.from({ length: end - start + 1 }, (_, k) => start + k));
}

function classOf(glyph: number, classDef: ClassDef | undefined): number {
  if (!classDef) return 0;
  if (classDef.version === 1) return classDef.classValueArray?.[glyph - classDef.startGlyph!] ?? 0;
  return classDef.classRangeRecord?.find((range) => range.start <= glyph && glyph <= range.end)?.class ?? 0;
}

/** Proves one lookup harmless for runs of `ascii` glyphs, or says why not. */
class LookupCheck {
  constructor(private readonly ascii: Map<number, number>, private readonly ligaturePrefixes: Set<number>) {}

  private touches(coverage: Coverage | undefined): boolean {
    return coverage !== undefined && coverageGlyphs(coverage).some((glyph) => this.ascii.has(glyph));
  }

  private allAscii(glyphs: number[]): boolean {
    return glyphs.every((glyph) => this.ascii.has(glyph));
  }

  private asciiClasses(classDef: ClassDef | undefined): Set<number> {
    return new Set([...this.ascii.keys()].map((glyph) => classOf(glyph, classDef)));
  }

  /** Whether a (chaining) contextual subtable could match a sequence of ASCII glyphs only. */
  private contextCanMatch(table: Subtable, chaining: boolean): boolean {
    if (table.version === 3) {
      const sequences = chaining ? [table.backtrackCoverage!, table.inputCoverage!, table.lookaheadCoverage!] : [table.coverages!];
      return sequences.every((sequence) => sequence.every((coverage) => this.touches(coverage)));
    }
    const covered = coverageGlyphs(table.coverage!).map((glyph, index) => ({ glyph, index })).filter(({ glyph }) => this.ascii.has(glyph));
    if (table.version === 1) {
      return covered.some(({ index }) => chaining
        ? (table.chainRuleSets![index] ?? []).some((rule) => this.allAscii([...rule.backtrack, ...rule.input, ...rule.lookahead]))
        : (table.ruleSets![index] ?? []).some((rule) => this.allAscii(rule.input)));
    }
    // Class-based: a rule can match only if each class it asks for holds an ASCII glyph.
    if (chaining) {
      const [back, input, ahead] = [this.asciiClasses(table.backtrackClassDef), this.asciiClasses(table.inputClassDef), this.asciiClasses(table.lookaheadClassDef)];
      return covered.some(({ glyph }) => (table.chainClassSet![classOf(glyph, table.inputClassDef)] ?? []).some((rule) =>
        rule.backtrack.every((c) => back.has(c)) && rule.input.every((c) => input.has(c)) && rule.lookahead.every((c) => ahead.has(c))));
    }
    const classes = this.asciiClasses(table.classDef);
    return covered.some(({ glyph }) => (table.classSet![classOf(glyph, table.classDef)] ?? []).some((rule) => rule.classes.every((c) => classes.has(c))));
  }

  /** Notes the ligatures of three or more glyphs that start with two ASCII glyphs. */
  private noteLongLigatures(table: Subtable): void {
    coverageGlyphs(table.coverage!).forEach((first, index) => {
      if (!this.ascii.has(first)) return;
      for (const { components } of table.ligatureSets!.get(index)) {
        const second = components[0]!;
        if (components.length >= 2 && this.ascii.has(second)) this.ligaturePrefixes.add(this.ascii.get(first)! * ALPHABET_SIZE + this.ascii.get(second)!);
      }
    });
  }

  /** Whether the subtable is pairwise for ASCII runs (noting long ligatures on the way). */
  gsub(type: number, table: Subtable): boolean {
    switch (type) {
      case 4: this.noteLongLigatures(table); return true;
      case 5: return !this.contextCanMatch(table, false);
      case 6: return !this.contextCanMatch(table, true);
      case 7: return this.gsub(table.lookupType!, table.extension!);
      // Single, multiple, alternate and reverse substitutions: pairwise only if no ASCII glyph is covered
      // (a one-for-one substitution would change glyph ids that later lookups match on).
      default: return !this.touches(table.coverage);
    }
  }

  gpos(type: number, table: Subtable, lookup: Lookup): boolean {
    switch (type) {
      // Single and pair adjustments: learned per character and per pair. A lookup skipping base
      // glyphs would pair glyphs that are not neighbours.
      case 1: case 2: return !lookup.flags.flags.ignoreBaseGlyphs;
      case 4: case 5: return !this.touches(table.markCoverage);
      case 6: return !this.touches(table.mark1Coverage);
      case 7: return !this.contextCanMatch(table, false);
      case 8: return !this.contextCanMatch(table, true);
      case 9: return this.gpos(table.lookupType!, table.extension!, lookup);
      default: return !this.touches(table.coverage);
    }
  }
}

/** The lookups fontkit applies for `features` under `script` (its own fallback order: the script, DFLT, dflt, latn; default language). */
function lookupsOf(table: LayoutTable | undefined, script: string, features: readonly string[]): Lookup[] {
  if (!table) return [];
  const entry = [script, "DFLT", "dflt", "latn"].map((tag) => table.scriptList.find((s) => s.tag === tag)).find(Boolean);
  const indexes = (entry?.script.defaultLangSys?.featureIndexes ?? [])
    .map((index) => table.featureList[index]!)
    .filter((record) => features.includes(record.tag))
    .flatMap((record) => record.feature.lookupListIndexes);
  return [...new Set(indexes)].map((index) => table.lookupList.get(index));
}

/**
 * The proof that fontkit's layout of the alphabet under `script` with
 * `features` (what fontkit's shaper plans, see table-learning.ts) is pairwise
 * in `font`, or undefined when it cannot be given.
 */
export function provePairwise(font: fontkit.Font, script: string, features: readonly string[]): PairwiseProof | undefined {
  const raw = font as unknown as { GSUB?: LayoutTable; GPOS?: LayoutTable; GDEF?: { glyphClassDef?: ClassDef }; morx?: unknown };
  // AAT layout and variation deltas are other engines than the one read here.
  if (raw.morx || font.variationAxes && Object.keys(font.variationAxes).length > 0) return undefined;
  const glyphIds = [...TABLE_ALPHABET].map((char) => font.glyphForCodePoint(char.charCodeAt(0)).id);
  const ascii = new Map(glyphIds.map((glyph, k) => [glyph, k]));
  // Two characters on one glyph (two the font lacks, on .notdef) could not be told apart in a pair table.
  if (ascii.size !== ALPHABET_SIZE) return undefined;
  // Marks and ligature glyphs are skipped by lookups that ignore them; ASCII glyphs must be neither.
  const glyphClasses = raw.GDEF?.glyphClassDef;
  if (glyphClasses && glyphIds.some((glyph) => classOf(glyph, glyphClasses) >= 2)) return undefined;
  const ligaturePrefixes = new Set<number>();
  const check = new LookupCheck(ascii, ligaturePrefixes);
  const gsubPairwise = lookupsOf(raw.GSUB, script, features).every((lookup) => lookup.subTables.every((table) => check.gsub(lookup.lookupType, table)));
  const gposPairwise = lookupsOf(raw.GPOS, script, features).every((lookup) => lookup.subTables.every((table) => check.gpos(lookup.lookupType, table, lookup)));
  return gsubPairwise && gposPairwise ? { glyphIds, ligaturePrefixes } : undefined;
}
