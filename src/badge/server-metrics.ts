// Server badges (beyond the spec): players, status, version and TPS from the
// pushed server record. A record not refreshed within PENNANT_STALE_AFTER
// reads offline, as banners read it (statusAt).

import { shownPlayers } from "../minecraft/players.ts";
import { statusAt } from "../minecraft/status.ts";
import { gameVersion } from "../minecraft/version.ts";
import type { ServerRow } from "../store/records.ts";
import { compactNumber } from "./value-display.ts";
import type { Metric, MetricValue } from "./metric.ts";
import { capMessage } from "./record-values.ts";

/** A server record with what decides its status. */
export interface ServerView {
  row: ServerRow;
  staleAfterMs: number;
}

type ServerMetric = Metric<ServerView>;

const OFFLINE: MetricValue = { message: "offline", color: "lightgrey" };

function isOnline({ row, staleAfterMs }: ServerView, now: number): boolean {
  return statusAt(row, now, staleAfterMs) === "online";
}

/** TPS at and above which the badge is green, and yellow; below, red. */
export const GOOD_TPS = 18;
export const FAIR_TPS = 15;

/** Up to two decimals, trailing zeros dropped: 20 -> "20", 19.5 -> "19.5", 19.978 -> "19.98". */
function tpsText(tps: number): string {
  return String(Math.round(tps * 100) / 100);
}

export const SERVER_METRICS: ReadonlyMap<string, ServerMetric> = new Map(Object.entries<ServerMetric>({
  players: {
    label: "players",
    cache: "live",
    read: (view, now) => {
      if (!isOnline(view, now)) return OFFLINE;
      const { playersOnline, playersMax } = view.row;
      if (playersOnline === null) return undefined;
      // The maximum as banners show it (20, or the online count, when none was set).
      const { online, max } = shownPlayers(playersOnline, playersMax);
      return { message: `${compactNumber(online)}/${compactNumber(max)}`, color: "brightgreen" };
    },
  },
  status: {
    label: "status",
    cache: "live",
    read: (view, now) => (isOnline(view, now) ? { message: "online", color: "brightgreen" } : { message: "offline", color: "red" }),
  },
  version: {
    label: "version",
    cache: "version",
    read: ({ row }) => {
      const version = gameVersion(row.version);
      return version === null ? undefined : { message: capMessage(version), color: "blue" };
    },
  },
  tps: {
    label: "tps",
    cache: "live",
    read: (view, now) => {
      if (!isOnline(view, now)) return OFFLINE;
      const { tps } = view.row;
      if (tps === null) return undefined;
      return { message: tpsText(tps), color: tps >= GOOD_TPS ? "brightgreen" : tps >= FAIR_TPS ? "yellow" : "red" };
    },
  },
}));
