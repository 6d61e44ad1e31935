// The game versions a plugin or project supports, written as one short range
// instead of a list (a list of twenty versions makes a badge as wide as a
// page: shields #10346). Versions are compared as numbers: 1.8 comes before
// 1.21, 1.9 before 1.10.

/** A game version as numbers: "1.21.4" -> [1, 21, 4]; "1.21-pre1" -> [1, 21]; null when it does not start with one. */
function versionNumbers(text: string): number[] | null {
  const match = /^\s*v?(\d{1,4})\.(\d{1,4})(?:\.(\d{1,4}))?/i.exec(text);
  if (!match) return null;
  return match.slice(1).filter((part) => part !== undefined).map(Number);
}

function compareNumbers(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const difference = (a[i] ?? 0) - (b[i] ?? 0);
    if (difference !== 0) return difference;
  }
  return a.length - b.length;
}

/** The lowest and highest of `parsed` (at least one). */
function ends(parsed: number[][]): [number[], number[]] {
  parsed.sort(compareNumbers);
  return [parsed[0]!, parsed[parsed.length - 1]!];
}

/**
 * The versions a plugin pushed as one range (spec 4.6, "1.20-1.21"): across
 * minor lines the lowest and highest line, within one line the exact ends
 * ("1.21.1-1.21.4"), one version as it is. Entries that do not start with a
 * version ("latest", "24w14a") are skipped; null when none is left.
 */
export function versionRange(versions: readonly string[]): string | null {
  const parsed = versions.map(versionNumbers).filter((v): v is number[] => v !== null);
  if (parsed.length === 0) return null;
  const [low, high] = ends(parsed);
  if (compareNumbers(low, high) === 0) return low.join(".");
  const sameLine = low[0] === high[0] && low[1] === high[1];
  return sameLine ? `${low.join(".")}-${high.join(".")}` : `${low[0]}.${low[1]}-${high[0]}.${high[1]}`;
}

/** A release as the sites list it: "1.21", "1.21.4" (not "1.21-pre1", "24w14a", "1.21.x"). */
const RELEASE = /^\s*\d{1,4}\.\d{1,4}(?:\.\d{1,4})?\s*$/;

/**
 * The releases a marketplace lists for a project as one range with both ends
 * exact, so the newest supported release shows ("1.20-1.21.4", "1.8.8-1.21"):
 * the lowest and the highest, whatever lies between (the sites list what was
 * tested; a gap is not drawn). An entry that is itself a range ("1.8-1.21.4",
 * Hangar's form) counts both its ends. Snapshots, pre-releases and other
 * names are skipped; one release as it is; null when none is left.
 */
export function releaseSpan(versions: readonly string[]): string | null {
  const parsed = versions.flatMap(rangeEnds).filter((end) => RELEASE.test(end)).map((end) => versionNumbers(end)!);
  if (parsed.length === 0) return null;
  const [low, high] = ends(parsed);
  return compareNumbers(low, high) === 0 ? low.join(".") : `${low.join(".")}-${high.join(".")}`;
}

/** "1.8-1.21.4" -> its two ends; any other entry as it is. */
function rangeEnds(entry: string): string[] {
  const parts = entry.split("-");
  return parts.length === 2 && parts.every((part) => RELEASE.test(part)) ? parts : [entry];
}
