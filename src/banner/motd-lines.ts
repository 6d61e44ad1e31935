// The MOTD lines a server banner draws, for every server template: the rule
// is here and nowhere else (issue 39: three copies once disagreed).

import type { StyledRun } from "../minecraft/format.ts";
import { motdLineRuns } from "../minecraft/motd.ts";
import { shows, type ServerBannerData } from "./model.ts";

/** What the game's server list shows, in its red (§c), in place of the MOTD of a server it cannot reach. */
const UNREACHABLE = "§cCan't connect to server";

/** In place of the MOTD of a stopped server whose host answered for it (its placeholder is the host's, not drawn): gold (§6), naming the host. */
function sleepingLine(host: string): string {
  return `§6Sleeping (${host})`;
}

/**
 * The lines to draw, each as runs in its place (a blank first line stays
 * first): the server's own; for an offline server whose lines all draw
 * nothing, "Sleeping (host)" when its host answered for it, else the game's
 * red "Can't connect to server": either tells the status, so a banner that
 * hides its status never gets here offline (renderBanner draws it as
 * online); none when the MOTD is hidden or blank. A template with room for
 * fewer lines draws the first ones.
 */
export function bannerMotdLines(data: Pick<ServerBannerData, "status" | "motd" | "hidden" | "sleepingHost">): StyledRun[][] {
  if (!shows(data, "motd")) return [];
  const lines = data.motd.map(motdLineRuns);
  // Blank as fitBlock drops it: trimmed padding leaves no text (spaces that draw, underlined or struck, stay).
  if (lines.some((runs) => runs.some((run) => run.text !== ""))) return lines;
  if (data.status !== "offline") return [];
  return [motdLineRuns(data.sleepingHost ? sleepingLine(data.sleepingHost) : UNREACHABLE)];
}
