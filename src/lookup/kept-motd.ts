// The MOTD as a lookup result keeps it: its raw text, not parsed runs (a
// hostile 24 KB MOTD parses into 4,096 run objects, ~100 times its size), and
// capped. Whoever shows it parses the raw text again (parseKeptMotd).

import { cutFormatted, parseFormatted, toSectionText, type StyledRun } from "../minecraft/format.ts";
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

/** The MOTD to keep from a status `description` (string, chat component, or missing). */
export function keptMotd(description: unknown): Motd {
  const missing = description === undefined || description === null;
  const raw = typeof description === "string" ? description : missing ? "" : JSON.stringify(description);
  const kept = raw.length <= MAX_MOTD_CHARS ? raw : cutFormatted(toSectionText(parseFormatted(description)), MAX_MOTD_CHARS);
  return { raw: keptText(kept, MAX_MOTD_CHARS) };
}

export function parseKeptMotd(motd: Motd): StyledRun[] {
  return parseFormatted(motd.raw);
}
