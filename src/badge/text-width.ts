// Text widths exactly as shields.io sizes its badges: badge-maker looks each
// character up in a table of advances measured in Chrome (Verdana 11px; 10px
// and bold 10px for for-the-badge; Helvetica bold 11px for social), adds them
// up without kerning, and stretches the text to that width (textLength). The
// same tables (font-widths.ts, written by scripts/write-badge-widths.ts) size
// our PNG and SVG badges, so both are as wide as shields' for any text. We
// draw DejaVu Sans stretched over the width, as shields' SVG looks in a
// browser without Verdana.

import { FONT_WIDTHS } from "./font-widths.ts";
import { UNKNOWN_WIDTH, WIDTH_DIGITS, type FontTableName } from "./font-width-format.ts";

export interface BadgeFont {
  /** Pixels per em. */
  size: number;
  bold: boolean;
  /** The table shields measures this font's text with. */
  widths: FontTableName;
}

/** A font's table, decoded: runs of code points from `starts[i]` on, `widths[i]` pixels each (NaN: not measured). */
interface WidthTable {
  starts: Uint32Array;
  widths: Float64Array;
  /** What an unmeasured character counts: the width of "m". */
  unknown: number;
}

/**
 * Decoded on first use, four at most: a pure function of constant data, so
 * left at module level (each ~11,000 runs, ~130 KB).
 */
const tables = new Map<FontTableName, WidthTable>();

const DIGIT_VALUES = new Map([...WIDTH_DIGITS].map((digit, value) => [digit, value]));

function decode(encoded: string): WidthTable {
  const starts: number[] = [], widths: number[] = [];
  const digit = (at: number) => DIGIT_VALUES.get(encoded[at]!)!;
  let next = 0;
  for (let at = 0; at < encoded.length; ) {
    let length = 0, value: number;
    do {
      value = digit(at++);
      length = length * 32 + (value % 32);
    } while (value >= 32);
    const hundredths = digit(at) * 64 + digit(at + 1);
    at += 2;
    starts.push(next);
    // Divided as written: the same double as the table's decimal, so sums round as shields' do.
    widths.push(hundredths === UNKNOWN_WIDTH ? Number.NaN : hundredths / 100);
    next += length;
  }
  // Past the last run, nothing is measured.
  starts.push(next);
  widths.push(Number.NaN);
  const table = { starts: Uint32Array.from(starts), widths: Float64Array.from(widths), unknown: 0 };
  table.unknown = charWidth(table, "m".codePointAt(0)!);
  return table;
}

function tableOf(name: FontTableName): WidthTable {
  let table = tables.get(name);
  if (!table) tables.set(name, (table = decode(FONT_WIDTHS[name])));
  return table;
}

/** A code point's width in `table`, NaN when not measured. */
function charWidth(table: WidthTable, code: number): number {
  const { starts } = table;
  let low = 0, high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >>> 1;
    if (starts[middle]! <= code) low = middle;
    else high = middle - 1;
  }
  return table.widths[low]!;
}

/** The width shields would measure for `text`, in pixels, before rounding. */
export function textWidth(text: string, font: BadgeFont): number {
  const table = tableOf(font.widths);
  let width = 0;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    // Control characters take no space; unmeasured ones count as "m".
    if (code <= 31 || code === 127) continue;
    const measured = charWidth(table, code);
    width += Number.isNaN(measured) ? table.unknown : measured;
  }
  return width;
}

/** shields' rounding of a text width: whole pixels (truncated), then up to odd "for pixel grid alignment". */
export function preferredWidth(text: string, font: BadgeFont): number {
  const whole = Math.trunc(textWidth(text, font));
  return whole % 2 === 0 ? whole + 1 : whole;
}
