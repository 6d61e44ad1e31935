// The face of last resort: a character that no face of a family has is drawn
// as a box holding its code point in hex digits (U+12000 as "012" over "000",
// U+E000 as "E0" over "00"), the way GNU Unifont draws the code points it has
// no picture for. A name in a script we ship no font for (Cuneiform, Tangut,
// most CJK Extension B ideographs...) then still shows which characters were
// sent, where a missing-glyph box would look the same for all of them (and
// Pennant Pixel's missing glyph is nothing at all).

import { Path } from "../path.ts";
import { allocateFaceId, type Face, type FaceMetrics, type ShapedRun } from "./face.ts";
import { addInkRows } from "./pixel-face.ts";

/** Font units per em: one unit is one pixel at 16 px, Unifont's own grid. */
const UNITS_PER_EM = 16;

/** Hex digits 0-F, 3 by 5 units, rows top to bottom ('#' ink), drawn for Pennant. */
const DIGIT_ROWS: ReadonlyArray<readonly (readonly boolean[])[]> = [
  "###/#.#/#.#/#.#/###", ".#./##./.#./.#./###", "###/..#/###/#../###", "###/..#/.##/..#/###",
  "#.#/#.#/###/..#/..#", "###/#../###/..#/###", "###/#../###/#.#/###", "###/..#/.#./.#./.#.",
  "###/#.#/###/#.#/###", "###/#.#/###/..#/###", ".#./#.#/###/#.#/#.#", "##./#.#/##./#.#/##.",
  ".##/#../#../#../.##", "##./#.#/#.#/#.#/##.", "###/#../##./#../###", "###/#../##./#../#..",
].map((digit) => digit.split("/").map((row) => [...row].map((c) => c === "#")));

const DIGIT_WIDTH = 3;
/** Digit columns are 3 units apart by one unit; the frame is one unit thick, one unit off the digits. */
const DIGIT_PITCH = DIGIT_WIDTH + 1;
const FRAME = 1;
const PADDING = 1;
/** The box stands from 2 units below the baseline to 14 above, as Unifont's 16-unit cell does. */
const BOX_BOTTOM = -2;
const BOX_TOP = 14;
/** Tops of the two digit rows (each 5 units tall, 2 apart, one unit inside the frame). */
const UPPER_ROW_TOP = BOX_TOP - FRAME - PADDING;
const LOWER_ROW_TOP = 5;

const METRICS: FaceMetrics = {
  unitsPerEm: UNITS_PER_EM,
  ascent: BOX_TOP,
  descent: BOX_BOTTOM,
  lineGap: 0,
  underlinePosition: -1,
  underlineThickness: 1,
  strikeoutPosition: 5,
  strikeoutThickness: 1,
};

/** The hex digits a code point's box shows: four in the basic plane, six beyond. */
function hexDigits(codePoint: number): string {
  return codePoint.toString(16).toUpperCase().padStart(codePoint > 0xffff ? 6 : 4, "0");
}

/** Digits per row: half of them, one row over the other. */
const columns = (codePoint: number) => hexDigits(codePoint).length / 2;

/** The box's outer width in units: frame, padding, the digit columns, padding, frame. */
const boxWidth = (codePoint: number) => 2 * (FRAME + PADDING) + columns(codePoint) * DIGIT_PITCH - 1;

/** Covers every code point; glyph ids are the code points themselves. */
export class CodePointBoxFace implements Face {
  readonly id = allocateFaceId();
  readonly name = "code point box";
  readonly metrics = METRICS;
  readonly bold = false;
  readonly italic = false;
  readonly pixelAligned = false;
  readonly fauxBoldEm = 1 / UNITS_PER_EM;

  covers(): boolean {
    return true;
  }

  shape(text: string): ShapedRun {
    const glyphIds = [...text].map((char) => char.codePointAt(0)!);
    // One unit of space after the box.
    const advances = glyphIds.map((codePoint) => boxWidth(codePoint) + 1);
    const zeros = glyphIds.map(() => 0);
    return { glyphIds, advances, xOffsets: zeros, yOffsets: [...zeros] };
  }

  outline(codePoint: number): Path {
    const path = new Path();
    const width = boxWidth(codePoint);
    const height = BOX_TOP - BOX_BOTTOM;
    // The frame as four bars that do not overlap (a filled ring whatever the fill rule).
    path.rect(0, BOX_BOTTOM, width, FRAME).rect(0, BOX_TOP - FRAME, width, FRAME);
    path.rect(0, BOX_BOTTOM + FRAME, FRAME, height - 2 * FRAME).rect(width - FRAME, BOX_BOTTOM + FRAME, FRAME, height - 2 * FRAME);
    const digits = hexDigits(codePoint);
    const perRow = columns(codePoint);
    [...digits].forEach((digit, i) => {
      const left = FRAME + PADDING + (i % perRow) * DIGIT_PITCH;
      addInkRows(path, DIGIT_ROWS[Number.parseInt(digit, 16)]!, left, i < perRow ? UPPER_ROW_TOP : LOWER_ROW_TOP);
    });
    return path;
  }
}
