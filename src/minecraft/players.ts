// The player count banners and badges show, from what a server, a lookup or
// the query said: one rule, so that a banner and a badge of the same record
// read the same.

/** Players online of a maximum, as a server reports them. */
export interface PlayerCount {
  online: number;
  max: number;
}

/** max_players when none is known: the game's own default (server.properties). */
export const DEFAULT_MAX_PLAYERS = 20;

/**
 * `online` of a maximum as shown. A maximum not sent, or of 0 or less, is
 * none (a server with no slots does not have players online: "1000000000/0"
 * says nothing), and reads as the game's default of 20, or the online count
 * if higher. A positive maximum below the online count is kept: the game lets
 * operators join a full server and shows "52/50" itself.
 */
export function shownPlayers(online: number, max: number | null | undefined): PlayerCount {
  return { online, max: max !== null && max !== undefined && max > 0 ? max : Math.max(DEFAULT_MAX_PLAYERS, online) };
}
