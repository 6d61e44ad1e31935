// A font face as the text engine sees it: metrics, coverage, shaping into
// glyph ids with advances, and glyph outlines. Two kinds implement it:
// outline faces read with fontkit (TrueType/OpenType/WOFF2) and pixel faces
// read from Pennant's own bitmap data.

import type { Path } from "../path.ts";

/** Vertical metrics in font units, y up (descent and decoration positions below the baseline are negative). */
export interface FaceMetrics {
  unitsPerEm: number;
  ascent: number;
  descent: number;
  lineGap: number;
  /** Top of the underline bar. */
  underlinePosition: number;
  underlineThickness: number;
  /** Top of the strikethrough bar. */
  strikeoutPosition: number;
  strikeoutThickness: number;
}

/** Glyphs of a shaped run of text, with advances and offsets in font units (kerning applied). */
export interface ShapedRun {
  glyphIds: number[];
  advances: number[];
  xOffsets: number[];
  yOffsets: number[];
}

export interface Face {
  /** Small integer unique to this face in the process: part of glyph cache keys. */
  readonly id: number;
  readonly name: string;
  readonly metrics: FaceMetrics;
  /** True for a bold face (no faux bold is added to it). */
  readonly bold: boolean;
  /** True for an italic or oblique face (no slant is added to it). */
  readonly italic: boolean;
  /**
   * Pixel faces: glyphs are drawn at whole device pixels so that integer
   * scales stay sharp. Outline faces use quarter-pixel positions.
   */
  readonly pixelAligned: boolean;
  /** Offset of the second stroke of a faux bold, in em (the game draws bold as the glyph twice, one pixel apart). */
  readonly fauxBoldEm: number;
  /** Whether the face has a real glyph (not .notdef) for this code point. */
  covers(codePoint: number): boolean;
  shape(text: string): ShapedRun;
  /** The glyph's outline in font units, y up, origin at the pen position on the baseline. */
  outline(glyphId: number): Path;
}

let nextFaceId = 1;

/** Ids stay below 256 so that glyph cache keys fit in a double's integer range. */
export function allocateFaceId(): number {
  if (nextFaceId > 255) throw new Error("too many font faces loaded");
  return nextFaceId++;
}
