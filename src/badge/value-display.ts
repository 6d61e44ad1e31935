// How values read on a badge, with shields.io's rules where shields has one:
// compact numbers, "v" prefixes and version colours, download-count colours,
// licence names and classes. Pure functions of their inputs.

import { compactNumber } from "../compact-number.ts";

export { compactNumber };

const PLAIN = new Intl.NumberFormat("en-US", { useGrouping: false, maximumFractionDigits: 20 });

/** A number in plain digits as sent, never an exponent: 1e-7 -> "0.0000001", 1e15 -> "1000000000000000", -0 -> "0". */
export function plainNumber(value: number): string {
  return PLAIN.format(value + 0);
}

/** shields' colour of a download count: none red, then yellow, yellowgreen, green from 10, 100, 1000. */
export function downloadsColor(count: number): string {
  if (count <= 0) return "red";
  if (count < 10) return "yellow";
  if (count < 100) return "yellowgreen";
  if (count < 1000) return "green";
  return "brightgreen";
}

/** Versions shields shows without a "v": those not starting with a digit, dated ones, commit hashes. */
const NO_V_PREFIX = /^[^0-9]|\d{4}-\d{2}-\d{2}|^(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}$/i;

/** "1.2.3" -> "v1.2.3"; "v1.2.3", "beta-4", "2024-05-01" and hashes as they are. */
export function versionText(version: string): string {
  return NO_V_PREFIX.test(version) ? version : `v${version}`;
}

const PRE_RELEASE = /alpha|beta|\brc|-rc|pre|snapshot|dev|nightly|canary|preview|experimental/i;

/** shields' version colour: orange for 0.x and pre-releases, blue for the rest. */
export function versionColor(version: string): string {
  const bare = version.replace(/^v/i, "");
  return /^0\./.test(bare) || PRE_RELEASE.test(bare) ? "orange" : "blue";
}

/** A rating of `outOf` stars: "4.5/5", with the number of votes when known: "4.5/5 (1.2k)". */
export function ratingText(rating: number, outOf: number, votes?: number): string {
  const base = `${rating.toFixed(1)}/${outOf}`;
  return votes === undefined ? base : `${base} (${compactNumber(votes)})`;
}

/** shields' star-rating colours: below 2 red, below 3 yellow, below 4 yellowgreen, else brightgreen. */
export function ratingColor(rating: number): string {
  if (rating < 2) return "red";
  if (rating < 3) return "yellow";
  if (rating < 4) return "yellowgreen";
  return "brightgreen";
}

/** Open issues at and above which the badge turns warning yellow. */
export const MANY_ISSUES = 25;

/** Greener the fewer: none brightgreen, under 10 green, under MANY_ISSUES yellowgreen, else yellow. */
export function issuesColor(count: number): string {
  if (count === 0) return "brightgreen";
  if (count < 10) return "green";
  if (count < MANY_ISSUES) return "yellowgreen";
  return "yellow";
}

const MINUTE_MS = 60_000, HOUR_MS = 60 * MINUTE_MS, DAY_MS = 24 * HOUR_MS;

/** How long ago, in its largest whole unit: "5 minutes ago", "3 days ago", "2 years ago" (months of 30 days, years of 365). */
export function ageText(elapsedMs: number): string {
  const units: Array<[string, number]> = [["year", 365 * DAY_MS], ["month", 30 * DAY_MS], ["day", DAY_MS], ["hour", HOUR_MS], ["minute", MINUTE_MS]];
  const [unit, size] = units.find(([, size]) => elapsedMs >= size) ?? ["minute", MINUTE_MS];
  const count = Math.max(1, Math.floor(elapsedMs / size));
  return `${count} ${unit}${count === 1 ? "" : "s"} ago`;
}

/** shields' age colours: brightgreen within a week, then green (a month), yellowgreen (half a year), yellow (a year), orange (two), red. */
export function ageColor(elapsedMs: number): string {
  const days = elapsedMs / DAY_MS;
  if (days < 7) return "brightgreen";
  if (days < 30) return "green";
  if (days < 180) return "yellowgreen";
  if (days < 365) return "yellow";
  if (days < 730) return "orange";
  return "red";
}

/** "Paper", "Paper/Folia", "Paper/Folia+2": the first two names, then how many more; duplicates (any case) once. */
export function softwareList(names: readonly string[]): string | null {
  const seen = new Set<string>();
  const unique: string[] = [];
  for (const name of names) {
    const trimmed = name.trim();
    if (trimmed === "" || seen.has(trimmed.toLowerCase())) continue;
    seen.add(trimmed.toLowerCase());
    unique.push(trimmed);
  }
  if (unique.length === 0) return null;
  const shown = unique.slice(0, 2).join("/");
  return unique.length > 2 ? `${shown}+${unique.length - 2}` : shown;
}

type LicenseClass = "permissive" | "copyleft" | "public-domain" | "unknown";

/** Short badge-safe names and the spellings they are known by (compared lower-case, spaces and "_" as "-"). */
const LICENSES: ReadonlyArray<{ name: string; kind: LicenseClass; spellings: string[] }> = [
  { name: "MIT", kind: "permissive", spellings: ["mit", "mit-license", "the-mit-license", "expat"] },
  { name: "Apache-2.0", kind: "permissive", spellings: ["apache-2.0", "apache-2", "apache2", "apache-license-2.0", "apache-license-version-2.0", "apache-license,-version-2.0", "asl-2.0"] },
  { name: "BSD-3-Clause", kind: "permissive", spellings: ["bsd-3-clause", "bsd-3", "new-bsd", "revised-bsd", "bsd-3-clause-license", "bsd-3-clause-\"new\"-or-\"revised\"-license"] },
  { name: "BSD-2-Clause", kind: "permissive", spellings: ["bsd-2-clause", "bsd-2", "simplified-bsd", "freebsd", "bsd-2-clause-\"simplified\"-license"] },
  { name: "ISC", kind: "permissive", spellings: ["isc", "isc-license"] },
  { name: "Zlib", kind: "permissive", spellings: ["zlib", "zlib-license"] },
  { name: "BSL-1.0", kind: "permissive", spellings: ["bsl-1.0", "boost", "boost-software-license-1.0"] },
  { name: "GPL-3.0", kind: "copyleft", spellings: ["gpl-3.0", "gpl-3.0-only", "gpl-3.0-or-later", "gpl-3.0+", "gplv3", "gpl-v3", "gpl3", "gnu-general-public-license-v3.0", "gnu-gplv3"] },
  { name: "GPL-2.0", kind: "copyleft", spellings: ["gpl-2.0", "gpl-2.0-only", "gpl-2.0-or-later", "gpl-2.0+", "gplv2", "gpl-v2", "gpl2", "gnu-general-public-license-v2.0"] },
  { name: "GPL", kind: "copyleft", spellings: ["gpl", "gnu-gpl"] },
  { name: "LGPL-3.0", kind: "copyleft", spellings: ["lgpl-3.0", "lgpl-3.0-only", "lgpl-3.0-or-later", "lgpl-3.0+", "lgplv3", "lgpl-v3", "lgpl3", "gnu-lesser-general-public-license-v3.0"] },
  { name: "LGPL-2.1", kind: "copyleft", spellings: ["lgpl-2.1", "lgpl-2.1-only", "lgpl-2.1-or-later", "lgpl-2.1+", "lgplv2.1", "gnu-lesser-general-public-license-v2.1"] },
  { name: "LGPL", kind: "copyleft", spellings: ["lgpl", "gnu-lgpl"] },
  { name: "AGPL-3.0", kind: "copyleft", spellings: ["agpl-3.0", "agpl-3.0-only", "agpl-3.0-or-later", "agpl-3.0+", "agplv3", "agpl-v3", "agpl3", "gnu-affero-general-public-license-v3.0"] },
  { name: "AGPL", kind: "copyleft", spellings: ["agpl", "gnu-agpl"] },
  { name: "MPL-2.0", kind: "copyleft", spellings: ["mpl-2.0", "mpl2", "mpl-2", "mozilla-public-license-2.0"] },
  { name: "EPL-2.0", kind: "copyleft", spellings: ["epl-2.0", "eclipse-public-license-2.0"] },
  { name: "CC-BY-SA-4.0", kind: "copyleft", spellings: ["cc-by-sa-4.0", "cc-by-sa"] },
  { name: "Unlicense", kind: "public-domain", spellings: ["unlicense", "the-unlicense"] },
  { name: "CC0-1.0", kind: "public-domain", spellings: ["cc0-1.0", "cc0", "cc0-1.0-universal", "creative-commons-zero-v1.0-universal"] },
  { name: "WTFPL", kind: "public-domain", spellings: ["wtfpl"] },
];

const LICENSE_BY_SPELLING = new Map(LICENSES.flatMap((license) => license.spellings.map((spelling) => [spelling, license] as const)));

/** What listing sites and repository hosts say when no licence was chosen: not a licence, look further. */
const NO_LICENSE = new Set(["", "unspecified", "none", "no-license", "n/a"]);

const CLASS_COLORS: Record<LicenseClass, string> = {
  permissive: "green",
  copyleft: "orange",
  "public-domain": "#7cd958",
  unknown: "lightgrey",
};

export interface LicenseBadge {
  name: string;
  color: string;
}

/**
 * A licence as a badge shows it: a known licence by its short name in its
 * class's colour (permissive green, copyleft orange, public domain light
 * green), anything else "Custom" in light grey; null when the text says no
 * licence was chosen.
 */
export function licenseBadge(text: string): LicenseBadge | null {
  const key = text.trim().toLowerCase().replace(/[\s_]+/g, "-");
  if (NO_LICENSE.has(key)) return null;
  const known = LICENSE_BY_SPELLING.get(key);
  if (known) return { name: known.name, color: CLASS_COLORS[known.kind] };
  return { name: "Custom", color: CLASS_COLORS.unknown };
}
