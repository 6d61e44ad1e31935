const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A UUID in its canonical lower-case form, or null when the text is not one. */
export function parseUuid(raw: string): string | null {
  const uuid = raw.trim().toLowerCase();
  return UUID.test(uuid) ? uuid : null;
}

const UUID_FORM = "a UUID is 32 hex digits in groups of 8-4-4-4-12 joined by dashes";
/** Characters of a refused value shown back: a UUID and some; the rest is cut (the path may be long). */
const SHOWN_CHARACTERS = 40;

/** What is wrong with `raw` as a UUID, in words: the first character that does not belong, the digit count, or the dashes. */
function uuidProblem(raw: string): string {
  const chars = [...raw.trim()];
  const stray = chars.findIndex((char) => !/^[0-9a-f-]$/i.test(char));
  if (stray >= 0) return `has ${JSON.stringify(chars[stray])} at character ${stray + 1}, where only hex digits (0-9, a-f) and dashes belong`;
  const digits = chars.filter((char) => char !== "-").length;
  if (digits !== 32) return `has ${digits} hex digits, not 32`;
  return digits === chars.length ? "lacks its dashes" : "has its dashes out of place";
}

/**
 * Why `raw`, given as the UUID of `subject` and refused by parseUuid, is not
 * one: `plugin UUID "not-a-uuid" has "n" at character 1, where only ... belong;
 * a UUID is ...`.
 */
export function malformedUuidMessage(subject: string, raw: string): string {
  const chars = [...raw];
  const shown = chars.length > SHOWN_CHARACTERS ? `${chars.slice(0, SHOWN_CHARACTERS).join("")}\u2026` : raw;
  return `${subject} UUID ${JSON.stringify(shown)} ${uuidProblem(raw)}; ${UUID_FORM}`;
}
