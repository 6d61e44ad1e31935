// Pixel faces: Pennant's own bitmap font data (glyphs/pixel/*.txt), drawn as
// unions of whole-pixel squares so that they go through the same outline and
// glyph-cache path as every other face and stay sharp at integer scales.

import { Path } from "../path.ts";
import { allocateFaceId, type Face, type FaceMetrics, type ShapedRun } from "./face.ts";

/** Rows above the baseline; further rows hang below it. */
const ROWS_ABOVE = 7;
const MAX_ROWS = 9;
/** One font unit is one pixel; an em is eight pixels (seven above the baseline, one below). */
const UNITS_PER_EM = 8;

interface PixelGlyph {
  width: number;
  /** Rows top to bottom, true for ink. */
  rows: boolean[][];
}

export class PixelFontError extends Error {}

/** Parses the text format described at the top of glyphs/pixel/pennant-pixel.txt. */
export function parsePixelFont(source: string): Map<number, PixelGlyph> {
  const glyphs = new Map<number, PixelGlyph>();
  const lines = source.split(/\r?\n/);
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line === "" || line.startsWith(";")) {
      i++;
      continue;
    }
    const header = /^U\+([0-9A-F]{4,6})\b/.exec(line);
    if (!header) throw new PixelFontError(`line ${i + 1}: expected a "U+XXXX" glyph header`);
    const codePoint = Number.parseInt(header[1]!, 16);
    const rows: boolean[][] = [];
    for (i++; i < lines.length && lines[i] !== ""; i++) {
      if (!/^[#.]+$/.test(lines[i]!)) throw new PixelFontError(`line ${i + 1}: rows hold only '#' and '.'`);
      rows.push([...lines[i]!].map((c) => c === "#"));
    }
    const width = rows[0]?.length ?? 0;
    if (rows.length < ROWS_ABOVE || rows.length > MAX_ROWS || rows.some((row) => row.length !== width)) {
      throw new PixelFontError(`U+${header[1]}: needs ${ROWS_ABOVE}-${MAX_ROWS} rows of equal width`);
    }
    if (glyphs.has(codePoint)) throw new PixelFontError(`U+${header[1]} is defined twice`);
    glyphs.set(codePoint, { width, rows });
  }
  return glyphs;
}

const METRICS: FaceMetrics = {
  unitsPerEm: UNITS_PER_EM,
  ascent: ROWS_ABOVE,
  descent: ROWS_ABOVE - MAX_ROWS,
  lineGap: 1,
  underlinePosition: -1,
  underlineThickness: 1,
  strikeoutPosition: 3,
  strikeoutThickness: 1,
};

export class PixelFace implements Face {
  readonly id = allocateFaceId();
  readonly metrics = METRICS;
  readonly bold = false;
  readonly italic = false;
  readonly pixelAligned = true;
  readonly fauxBoldEm = 1 / UNITS_PER_EM;
  /** Glyph id i + 1 is the i-th code point; 0 is the missing glyph (drawn as nothing). */
  private readonly idByCodePoint = new Map<number, number>();
  private readonly glyphs: PixelGlyph[] = [];

  constructor(readonly name: string, source: string) {
    for (const [codePoint, glyph] of parsePixelFont(source)) {
      this.glyphs.push(glyph);
      this.idByCodePoint.set(codePoint, this.glyphs.length);
    }
  }

  covers(codePoint: number): boolean {
    return this.idByCodePoint.has(codePoint);
  }

  shape(text: string): ShapedRun {
    const glyphIds: number[] = [];
    const advances: number[] = [];
    for (const char of text) {
      const id = this.idByCodePoint.get(char.codePointAt(0)!) ?? 0;
      glyphIds.push(id);
      advances.push(id === 0 ? 0 : this.glyphs[id - 1]!.width + 1);
    }
    const zeros = glyphIds.map(() => 0);
    return { glyphIds, advances, xOffsets: zeros, yOffsets: [...zeros] };
  }

  outline(glyphId: number): Path {
    const path = new Path();
    const glyph = this.glyphs[glyphId - 1];
    if (glyph) addInkRows(path, glyph.rows, 0, ROWS_ABOVE);
    return path;
  }
}

/**
 * Adds bitmap rows (top to bottom, true for ink) to `path` as unit squares in
 * font units, y up: the first row's top edge at `top`, its first column at
 * `left`. One rectangle per horizontal run of ink: fewer edges than a square
 * per pixel.
 */
export function addInkRows(path: Path, rows: readonly (readonly boolean[])[], left: number, top: number): void {
  rows.forEach((row, r) => {
    for (let x = 0; x < row.length; x++) {
      if (!row[x]) continue;
      const start = x;
      while (x < row.length && row[x]) x++;
      path.rect(left + start, top - r - 1, x - start, 1);
    }
  });
}
