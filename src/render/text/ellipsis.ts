// Cutting text to a width with an ellipsis, by whatever measure the caller
// gives: drawn text (layout.ts's ellipsize) and badges sized by shields'
// width tables (src/badge) share it. Loads no font.

const ELLIPSIS = "\u2026";

/**
 * The longest prefix of `text` (cut at a character, trailing spaces dropped)
 * followed by "…" whose `widthOf` is at most `maxWidth`, or "" when not even
 * the ellipsis fits: for text that does not fit whole, measured as its caller
 * measures (ellipsize as drawn, badges as shields sizes them).
 */
export function ellipsizedPrefix(text: string, maxWidth: number, widthOf: (text: string) => number): string {
  const chars = [...text];
  const shown = (count: number): string => chars.slice(0, count).join("").trimEnd() + ELLIPSIS;
  if (widthOf(shown(0)) > maxWidth) return "";
  // Binary search for the longest prefix that fits: widths grow with the prefix.
  let low = 0, high = chars.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (widthOf(shown(middle)) <= maxWidth) low = middle;
    else high = middle - 1;
  }
  return shown(low);
}
