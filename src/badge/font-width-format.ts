// The form of the width tables in font-widths.ts, shared by the script that
// writes them (scripts/write-badge-widths.ts) and the code that reads them
// (text-width.ts): per font, runs of consecutive code points from 0 on, each
// its length in base-32 digits (a digit from the upper half of WIDTH_DIGITS
// says more follow) and then its width in hundredths of a pixel in two digits.

/** The fonts shields' badge-maker measures with, as it names them, and the anafanafo file of each. */
export const FONT_TABLE_NAMES = {
  "11px Verdana": "verdana-11px-normal",
  "10px Verdana": "verdana-10px-normal",
  "bold 10px Verdana": "verdana-10px-bold",
  "bold 11px Helvetica": "helvetica-11px-bold",
} as const;
export type FontTableName = keyof typeof FONT_TABLE_NAMES;

/** The 64 digits, in value order. */
export const WIDTH_DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_";
/** The width of code points the table does not measure (shields counts them as wide as "m"). */
export const UNKNOWN_WIDTH = 64 * 64 - 1;
