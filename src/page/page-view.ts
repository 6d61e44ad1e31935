// What a server's page, widget and link preview show, read from its pushed
// record and its history at `now` by the rules banners read them with: the
// status of src/minecraft/status.ts (stale is offline), the player count of
// players.ts, the MOTD's two lines, the version as drawn, the join address
// as players type it (a pushed server is read as Java's, as its banners
// are), a name that is not the server software's.

import { stripFormatting } from "../minecraft/format.ts";
import { DEFAULT_EDITION, pushedEdition } from "../minecraft/edition.ts";
import { joinAddress } from "../minecraft/join-address.ts";
import { splitMotd } from "../minecraft/motd.ts";
import { shownPlayers, type PlayerCount } from "../minecraft/players.ts";
import { isSoftwareName } from "../minecraft/software-names.ts";
import { statusAt, type ServerStatus } from "../minecraft/status.ts";
import { gameVersion } from "../minecraft/version.ts";
import { HISTORY_RANGES, type HistoryRange, type ReadCharge, type ServerHistories, type ServerHistory } from "../store/history-ranges.ts";
import type { ServerRow } from "../store/records.ts";

/** Shown when a server pushed neither a name of its own nor an address. */
export const NAMELESS_SERVER = "Minecraft server";

/** What a server's record shows at `now` without its history (its owner's console lists these). */
export interface ServerFacts {
  uuid: string;
  name: string;
  status: ServerStatus;
  /** Players now, while online. */
  players: PlayerCount | null;
  /** The MOTD's two lines as `§` text; null when none was pushed, or it shows nothing. */
  motd: readonly [string, string] | null;
  version: string | null;
  /** The join address as players type it; null when none was pushed (or it is none). */
  address: string | null;
  /** The last push (update or heartbeat). */
  lastPush: number;
  firstSeen: number;
}

export interface ServerPageView extends ServerFacts {
  /** Since when the status holds, as far as the history tells; the first push when it always has. */
  since: number;
  /** Uptime (0..1) and peak of each range; null where the range holds no data yet. */
  ranges: Readonly<Record<HistoryRange, { uptime: number | null; peak: number | null }>>;
}

/** A step counts as online when the server was online for at least half of it (as the chart shades it). */
const ONLINE_FRACTION = 0.5;

/** A pushed MOTD's two lines, or null when it shows no text. */
function shownMotd(motd: string | null): readonly [string, string] | null {
  if (motd === null) return null;
  const lines = splitMotd(motd);
  return lines.some((line) => stripFormatting(line).trim() !== "") ? lines : null;
}

/** The name a page shows: the pushed name unless it is the software's, else the address, else NAMELESS_SERVER; plain text. */
export function shownServerName(row: Pick<ServerRow, "name" | "extra">): string {
  const name = row.name?.trim() ? stripFormatting(row.name).trim() : "";
  if (name !== "" && !isSoftwareName(name)) return name;
  const address = typeof row.extra?.address === "string" ? stripFormatting(row.extra.address).trim() : "";
  return address !== "" ? address : NAMELESS_SERVER;
}

/**
 * Since when `status` holds: the end of the newest whole step of the
 * histories (finest first) whose state differs; the first push when none in
 * any range does.
 */
function statusSince(status: ServerStatus, histories: readonly ServerHistory[], firstSeen: number, now: number): number {
  for (const history of histories) {
    const byStart = new Map(history.points.map((point) => [point.at, point]));
    const newest = Math.floor(now / history.stepMs) * history.stepMs - history.stepMs;
    const oldest = history.points[0]?.at ?? newest;
    for (let at = newest; at >= Math.max(oldest, firstSeen - history.stepMs); at -= history.stepMs) {
      const online = (byStart.get(at)?.online ?? 0) >= ONLINE_FRACTION;
      if (online !== (status === "online")) return Math.max(firstSeen, at + history.stepMs);
    }
  }
  return firstSeen;
}

/** The server's histories of every range at `now`, as its page reads them (each read charged to `charge`, the cached ones free). */
export async function pageHistories(histories: ServerHistories, row: ServerRow, now: number, charge: ReadCharge): Promise<Record<HistoryRange, ServerHistory>> {
  const marks = await histories.marks();
  const read = await Promise.all(HISTORY_RANGES.map((range) => histories.read(row, range, now, charge, marks)));
  return Object.fromEntries(HISTORY_RANGES.map((range, i) => [range, read[i]!])) as Record<HistoryRange, ServerHistory>;
}

/** What `row` shows at `now`, read by the rules banners read it with. */
export function serverFacts(row: ServerRow, now: number, staleAfterMs: number): ServerFacts {
  const status = statusAt(row, now, staleAfterMs);
  const pushedAddress = typeof row.extra?.address === "string" ? row.extra.address : null;
  return {
    uuid: row.uuid,
    name: shownServerName(row),
    status,
    players: status === "online" && row.playersOnline !== null ? shownPlayers(row.playersOnline, row.playersMax) : null,
    motd: shownMotd(row.motd),
    version: gameVersion(row.version),
    address: pushedAddress === null ? null : joinAddress(pushedAddress, pushedEdition(row.extra) ?? DEFAULT_EDITION),
    lastPush: row.lastSeen,
    firstSeen: row.firstSeen,
  };
}

/** The view of `row` at `now`, its histories read for every range. */
export function serverPageView(row: ServerRow, histories: Readonly<Record<HistoryRange, ServerHistory>>, now: number, staleAfterMs: number): ServerPageView {
  const { uuid, name, status, ...facts } = serverFacts(row, now, staleAfterMs);
  return {
    uuid,
    name,
    status,
    since: statusSince(status, HISTORY_RANGES.map((range) => histories[range]), row.firstSeen, now),
    ...facts,
    ranges: Object.fromEntries(HISTORY_RANGES.map((range) => [range, { uptime: histories[range].uptime, peak: histories[range].peak }])) as ServerPageView["ranges"],
  };
}
