// The characters outline faces shape from tables learned ahead of time
// (face-tables.ts) instead of with fontkit: printable ASCII (badges, most
// banner lines) and the three Pennant writes itself beyond it: "·" between
// captions, "—" for a count it does not know and "…" ending cut text. A run
// of only these in a shipped face never needs fontkit, so a render thread
// that draws nothing else never loads it.

const PRINTABLE_ASCII_FIRST = 0x20;
const PRINTABLE_ASCII_LAST = 0x7e;
const BEYOND_ASCII = "\u00b7\u2014\u2026";

/** The alphabet in table order: printable ASCII, then the characters beyond it. */
export const TABLE_ALPHABET = String.fromCharCode(...Array.from({ length: PRINTABLE_ASCII_LAST - PRINTABLE_ASCII_FIRST + 1 }, (_, k) => PRINTABLE_ASCII_FIRST + k)) + BEYOND_ASCII;
export const ALPHABET_SIZE = TABLE_ALPHABET.length;

/** Whether `text` holds only characters of the alphabet. */
export const IN_ALPHABET = new RegExp(`^[\\x20-\\x7e${BEYOND_ASCII}]*$`);

/** The character's place in TABLE_ALPHABET, or -1. */
export function alphabetIndex(charCode: number): number {
  if (charCode >= PRINTABLE_ASCII_FIRST && charCode <= PRINTABLE_ASCII_LAST) return charCode - PRINTABLE_ASCII_FIRST;
  // A scan of three codes, not a string made per character: this runs for every character shaped.
  for (let k = 0; k < BEYOND_ASCII.length; k++) if (BEYOND_ASCII.charCodeAt(k) === charCode) return PRINTABLE_ASCII_LAST - PRINTABLE_ASCII_FIRST + 1 + k;
  return -1;
}

/**
 * How many characters of `text` are outside the alphabet: what the tables do
 * not shape, so fontkit shapes and outlines them (loaded for it on first
 * use), a fresh glyph at a time (docs/performance-notes.md: tens of
 * microseconds a character, where the tables take a fraction of one). From
 * the code points alone, opening no font: the answering thread weighs a
 * drawing's cost by it (src/http/drawing/draw-cost.ts). A surrogate pair is
 * one character; a lone surrogate is one too (drawn as a box).
 */
export function charactersBeyondTables(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (alphabetIndex(code) >= 0) continue;
    count += 1;
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i += 1;
    }
  }
  return count;
}
