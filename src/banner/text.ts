// Small pure text helpers shared by the banner domain.

/** A `§` and the code after it (or a lone `§` at the end). */
const FORMATTING_CODE = /§[\s\S]?/g;

/** Plain text without `§` codes, for values drawn in one style (names, versions). */
export function stripFormatting(text: string): string {
  return text.replace(FORMATTING_CODE, "");
}
