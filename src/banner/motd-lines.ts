// The MOTD lines a server template draws: the server's own, or for an
// unreachable server that sent none, what the game's list shows instead.

import { stripFormatting, type StyledRun } from "../minecraft/format.ts";
import { motdLineRuns } from "../minecraft/motd.ts";
import { shows, type ServerBannerData } from "./model.ts";

/** What the game shows in place of the MOTD of a server it cannot reach. */
const UNREACHABLE = "§cCan't connect to server";

/** The lines to draw; the stand-in tells the status, so a banner that hides it draws none. */
export function motdLines(data: Pick<ServerBannerData, "status" | "motd" | "hidden">): StyledRun[][] {
  const empty = data.motd.every((line) => stripFormatting(line).trim() === "");
  return data.status === "offline" && empty && shows(data, "status") ? [motdLineRuns(UNREACHABLE)] : data.motd.map(motdLineRuns);
}
