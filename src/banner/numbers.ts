// Counts as banners show them: exact, grouped by thin spaces from five
// digits on ("12 345", SI style), and compact ("12.3k"), which templates use
// only when the exact form does not fit: users complain when counts are hidden.

/** U+202F NARROW NO-BREAK SPACE: the SI digit-group separator. */
export const THIN_SPACE = "\u202f";

/** A count as drawn: integers only; negative or non-finite values count as 0. */
function sanitize(value: number): number {
  return Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}

/** "3", "1234", "12 345", "1 234 567" (groups of three from 10 000 on). */
export function exactCount(value: number, separator = THIN_SPACE): string {
  const digits = String(sanitize(value));
  if (digits.length < 5) return digits;
  return digits.replace(/\B(?=(\d{3})+$)/g, separator);
}

const UNITS: ReadonlyArray<readonly [number, string]> = [
  [1e12, "T"],
  [1e9, "B"],
  [1e6, "M"],
  [1e3, "k"],
];

/** At most one decimal: "999", "1.2k", "12.3k", "123k", "1.2M". */
export function compactCount(value: number): string {
  const n = sanitize(value);
  if (n < 1000) return String(n);
  const [unit, suffix] = UNITS.find(([unit]) => n >= unit)!;
  // Tenths by integer division (no float noise), truncated: 999 999 must not read as a million.
  const tenths = Math.floor((n * 10) / unit);
  return `${tenths < 1000 ? tenths / 10 : Math.floor(tenths / 10)}${suffix}`;
}
