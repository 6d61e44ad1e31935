// The MOTD as a lookup result keeps it: its raw text, not parsed runs (a
// hostile 24 KB MOTD parses into 4,096 run objects, ~100 times its size), and
// capped. Whoever shows it parses the raw text again (motdRuns).

import { COLOR_BY_CODE, cutFormatted, parseFormatted, type StyledRun } from "../minecraft/format.ts";
import { keptText } from "./kept-text.ts";

/** Room for the longest real MOTDs (a two-line per-character gradient in JSON is ~4,500 characters). */
export const MAX_MOTD_CHARS = 8_192;

export interface Motd {
  /**
   * As the server sent it (`§` text, or the JSON chat component re-serialized);
   * when longer than MAX_MOTD_CHARS, its `§`-coded form cut to at most that length.
   */
  raw: string;
}

const CODE_BY_COLOR = new Map([...COLOR_BY_CODE].map(([code, hex]) => [hex, code]));
const FLAG_CODES: Array<[keyof StyledRun, string]> = [
  ["bold", "l"],
  ["italic", "o"],
  ["underlined", "n"],
  ["strikethrough", "m"],
  ["obfuscated", "k"],
];

function colorCode(color: string | null): string {
  if (color === null) return "§r";
  const code = CODE_BY_COLOR.get(color);
  return code ? `§${code}` : `§x${[...color.slice(1)].map((digit) => `§${digit}`).join("")}`;
}

/** A run's whole style as `§` codes: the colour (§r for none) first, since a colour code resets the flags. */
function styleCodes(run: StyledRun): string {
  return colorCode(run.color) + FLAG_CODES.map(([flag, letter]) => (run[flag] ? `§${letter}` : "")).join("");
}

/** Runs as `§`-coded text that parses back into the same runs (cut at `maxChars` keeping whole codes: the first runs). */
export function legacyCoded(runs: readonly StyledRun[], maxChars: number): string {
  let text = "";
  for (const run of runs) {
    if (text.length >= maxChars) break;
    text += styleCodes(run) + run.text;
  }
  return cutFormatted(text, maxChars);
}

/** The MOTD to keep from a status `description` (string, chat component, or missing). */
export function keptMotd(description: unknown): Motd {
  const missing = description === undefined || description === null;
  const raw = typeof description === "string" ? description : missing ? "" : JSON.stringify(description);
  const kept = raw.length <= MAX_MOTD_CHARS ? raw : legacyCoded(parseFormatted(description), MAX_MOTD_CHARS);
  return { raw: keptText(kept, MAX_MOTD_CHARS) };
}

export function motdRuns(motd: Motd): StyledRun[] {
  return parseFormatted(motd.raw);
}
