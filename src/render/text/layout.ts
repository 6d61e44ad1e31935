// Single-line text layout: per-character font fallback, shaping (kerning,
// ligatures) per run of one face, letter spacing, faux bold and italic where a
// family lacks the real face, measuring, ellipsizing and stretching to a width.
// Pure functions of their inputs (shaping results are cached in the render
// context given, if any).

import { CodePointBoxFace } from "./code-point-box.ts";
import { ellipsizedPrefix } from "./ellipsis.ts";
import { NO_CACHES, type RenderContext } from "../context.ts";
import type { Face } from "./face.ts";
import { MAX_FONT_SIZE } from "./glyph-cache.ts";
import { shapeCached } from "./shape-cache.ts";

/** A family of faces: the styles of one design, then faces for characters it lacks, in order. */
export interface FontFamily {
  regular: Face;
  bold?: Face;
  italic?: Face;
  /** Read only for a character the faces above lack (fonts.ts opens Unifont on that first read). */
  fallbacks: readonly Face[];
}

export interface FontStyle {
  family: FontFamily;
  /** Pixels per em. */
  size: number;
  bold?: boolean;
  italic?: boolean;
  /** Extra pixels between characters (may be negative). */
  letterSpacing?: number;
}

export interface PlacedGlyph {
  face: Face;
  glyphId: number;
  /** Pen position in pixels from the start of the line. */
  x: number;
  /** Vertical offset in pixels, down positive (marks positioned by the font). */
  y: number;
  /** Pixels the pen moves after this glyph, spacing and faux bold included (0 for marks). */
  advance: number;
  size: number;
  slanted: boolean;
  /** Offset in pixels of the second stroke of a faux bold; 0 for none. */
  fauxBold: number;
}

export interface TextLine {
  glyphs: PlacedGlyph[];
  /** Advance width in pixels. */
  width: number;
  /** Pixels above and below the baseline, from the family's regular face. */
  ascent: number;
  descent: number;
  /** Decoration bars from the regular face: pixels from the baseline to the bar's top (down positive) and thickness. */
  underline: DecorationBar;
  strikethrough: DecorationBar;
}

export interface DecorationBar {
  offset: number;
  thickness: number;
}

// Characters that draw nothing in a one-line banner: controls, zero-width
// joiners and emoji variation selectors (emoji are drawn monochrome anyway).
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufe00-\ufe0f\ufeff]|\udb40[\udc00-\udfff]/g;
const MARK = /^\p{M}$/u;
/**
 * Characters laid out per line; the rest is dropped. Wider than any banner
 * (4096 px of 4 px glyphs), and it bounds the shaping work a hostile string
 * can cause (fontkit takes a few microseconds a character).
 */
export const MAX_LINE_CHARACTERS = 1024;

/** `text` cut to MAX_LINE_CHARACTERS code points. */
function capped(text: string): string {
  if (text.length <= MAX_LINE_CHARACTERS) return text;
  return [...text].slice(0, MAX_LINE_CHARACTERS).join("");
}

function clampFontSize(size: number): number {
  return Number.isFinite(size) ? Math.min(Math.max(size, 1), MAX_FONT_SIZE) : 12;
}

function primaryFace(style: FontStyle): Face {
  const { family } = style;
  if (style.bold && family.bold) return family.bold;
  if (style.italic && family.italic) return family.italic;
  return family.regular;
}

let lastResort: CodePointBoxFace | undefined;

/**
 * The face that draws `codePoint`: the styled face, the regular one, then the
 * fallbacks; when none has it, a box showing the code point in hex (never a
 * missing-glyph box, the same for every character). The fallbacks are read
 * only for a character the family's own faces lack: reading them may open a
 * font (fonts.ts).
 */
function faceFor(codePoint: number, primary: Face, family: FontFamily): Face {
  if (primary.covers(codePoint)) return primary;
  if (family.regular !== primary && family.regular.covers(codePoint)) return family.regular;
  for (const face of family.fallbacks) if (face.covers(codePoint)) return face;
  return (lastResort ??= new CodePointBoxFace());
}

interface Segment {
  face: Face;
  text: string;
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
/** Whether a face has every printable ASCII character, asked once per face. */
const asciiFaces = new WeakMap<Face, boolean>();

function coversAscii(face: Face): boolean {
  let covers = asciiFaces.get(face);
  if (covers === undefined) {
    covers = true;
    for (let code = 0x20; code <= 0x7e && covers; code++) covers = face.covers(code);
    asciiFaces.set(face, covers);
  }
  return covers;
}

/** Splits text into runs of one face each. Combining marks stay with their base's face when it has them. */
function segment(text: string, primary: Face, family: FontFamily): Segment[] {
  // Printable ASCII (badges, most banner lines) in a face that has all of it: one run, nothing
  // invisible, no marks, no fallback; the per-character pass below would find the same.
  if (text.length <= MAX_LINE_CHARACTERS && PRINTABLE_ASCII.test(text) && coversAscii(primary)) return text ? [{ face: primary, text }] : [];
  const segments: Segment[] = [];
  let current: Segment | undefined;
  for (const char of capped(text.replace(INVISIBLE, ""))) {
    const codePoint = char.codePointAt(0)!;
    const face = current && MARK.test(char) && current.face.covers(codePoint) ? current.face : faceFor(codePoint, primary, family);
    if (current && current.face === face) current.text += char;
    else segments.push((current = { face, text: char }));
  }
  return segments;
}

export function layoutText(text: string, style: FontStyle, context: RenderContext = NO_CACHES): TextLine {
  const size = clampFontSize(style.size);
  const letterSpacing = style.letterSpacing ?? 0;
  const primary = primaryFace(style);

  const glyphs: PlacedGlyph[] = [];
  let pen = 0;
  for (const { face, text: runText } of segment(text, primary, style.family)) {
    const scale = size / face.metrics.unitsPerEm;
    const slanted = Boolean(style.italic) && !face.italic;
    const fauxBold = style.bold && !face.bold ? Math.max(1, Math.round(size * face.fauxBoldEm)) : 0;
    const run = shapeCached(face, runText, context.shapes);
    for (let i = 0; i < run.glyphIds.length; i++) {
      const advance = run.advances[i]! * scale;
      // Zero-advance glyphs (combining marks) take no spacing of their own.
      const step = advance === 0 ? 0 : advance + fauxBold + letterSpacing;
      glyphs.push({
        face,
        glyphId: run.glyphIds[i]!,
        x: pen + run.xOffsets[i]! * scale,
        y: -run.yOffsets[i]! * scale,
        advance: step,
        size,
        slanted,
        fauxBold,
      });
      pen += step;
    }
  }
  // Spacing goes between characters, not after the last.
  if (glyphs.some((glyph) => glyph.advance > 0)) pen -= letterSpacing;
  const metrics = style.family.regular.metrics;
  const emScale = size / metrics.unitsPerEm;
  return {
    glyphs,
    width: Math.max(0, pen),
    ascent: metrics.ascent * emScale,
    descent: -metrics.descent * emScale,
    underline: { offset: -metrics.underlinePosition * emScale, thickness: metrics.underlineThickness * emScale },
    strikethrough: { offset: -metrics.strikeoutPosition * emScale, thickness: metrics.strikeoutThickness * emScale },
  };
}

export function measureText(text: string, style: FontStyle, context: RenderContext = NO_CACHES): number {
  return layoutText(text, style, context).width;
}

/**
 * `text` if it fits in `maxWidth` pixels; otherwise its longest prefix (cut at
 * a character, trailing spaces dropped) followed by "…" that fits, or "" when
 * not even the ellipsis fits. Text past MAX_LINE_CHARACTERS always counts as
 * overflowing.
 */
export function ellipsize(text: string, style: FontStyle, maxWidth: number, context: RenderContext = NO_CACHES): string {
  const widthOf = (line: string) => measureText(line, style, context);
  if (text.length <= MAX_LINE_CHARACTERS && widthOf(text) <= maxWidth) return text;
  return ellipsizedPrefix(capped(text), maxWidth, widthOf);
}

/**
 * The line spread or squeezed to exactly `width` pixels by changing the space
 * between glyphs evenly (SVG's textLength with lengthAdjust="spacing", which
 * badges use). A line of one glyph is left as it is.
 */
export function stretchToWidth(line: TextLine, width: number): TextLine {
  const advancing = line.glyphs.filter((glyph) => glyph.advance > 0).length;
  if (advancing < 2 || !Number.isFinite(width)) return line;
  const extra = (width - line.width) / (advancing - 1);
  let shift = 0;
  let first = true;
  // The shift grows before each advancing glyph after the first, so marks move with their base.
  const glyphs = line.glyphs.map((glyph) => {
    if (glyph.advance > 0) {
      if (!first) shift += extra;
      first = false;
    }
    return { ...glyph, x: glyph.x + shift };
  });
  return { ...line, glyphs, width };
}
