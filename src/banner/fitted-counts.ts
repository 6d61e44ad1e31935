// Values as templates print them, fitted to their slots.

import { compactCount, exactCount } from "./numbers.ts";
import type { FittedText, TextFont } from "./fit-text.ts";
import type { PlayerCount } from "./model.ts";
import { fitSlot, type TextSlot } from "./slots.ts";
import type { Surface } from "./surface.ts";

/** Shown where a count is unknown. */
export const UNKNOWN = "\u2014";

/** Written in the count's place when players are unknown (playersUnknown): words, where a dash would read as none. */
export const PLAYERS_UNKNOWN = "players unknown";

export function playersText(players: PlayerCount | null, count: (n: number) => string): string {
  return players ? `${count(players.online)}/${count(players.max)}` : UNKNOWN;
}

/**
 * Exact counts when they fit the slot (shrinking within its range), compact
 * ones ("12.3k/100k") only when they do not.
 */
export function fitPlayers(surface: Surface, slot: TextSlot, players: PlayerCount | null, font: TextFont, separator?: string): FittedText {
  const exact = fitSlot(surface, slot, playersText(players, (n) => exactCount(n, separator)), font);
  return exact.truncated ? fitSlot(surface, slot, playersText(players, compactCount), font) : exact;
}

/** One count in a slot, the same way. */
export function fitCount(surface: Surface, slot: TextSlot, value: number, font: TextFont, separator?: string): FittedText {
  const exact = fitSlot(surface, slot, exactCount(value, separator), font);
  return exact.truncated ? fitSlot(surface, slot, compactCount(value), font) : exact;
}
