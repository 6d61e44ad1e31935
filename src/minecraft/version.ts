// The game version a banner shows, from what servers report: the plugin
// pushes Bukkit's getVersion() ("1.21.4-232-ab12cd3 (MC: 1.21.4)"), a live
// lookup gives the version name the server chose ("Paper 1.21.4", "1.8.x-1.21.x",
// sometimes with `§` colours).

import { stripFormatting } from "./format.ts";

/** Longest version text a banner shows; longer names are cut (they are drawn ellipsized anyway). */
const MAX_VERSION_LENGTH = 64;

/** "(MC: 1.21.4)" as Bukkit-based servers append it. */
const BUKKIT_GAME_VERSION = /\(MC:\s*([^)\s]+)\s*\)/i;
/** A leading release number followed by a build suffix: "1.21.4-R0.1-SNAPSHOT", "1.20.1-196-abc". */
const LEADING_RELEASE = /^(\d+\.\d+(?:\.\d+)?)-[\w.-]+$/;

/** The game version to draw, or null when there is nothing to show. */
export function gameVersion(reported: string | null | undefined): string | null {
  if (reported == null) return null;
  const text = stripFormatting(reported).trim();
  if (text === "") return null;
  const version = BUKKIT_GAME_VERSION.exec(text)?.[1] ?? LEADING_RELEASE.exec(text)?.[1] ?? text;
  return version.slice(0, MAX_VERSION_LENGTH);
}
