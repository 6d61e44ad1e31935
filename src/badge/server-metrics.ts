// Server badges (beyond the spec): players, status, version and TPS from the
// pushed server record, uptime and peak players from its history over a range.
// A record not refreshed within PENNANT_STALE_AFTER reads offline, as banners
// read it (statusAt).

import { shownPlayers } from "../minecraft/players.ts";
import { statusAt } from "../minecraft/status.ts";
import { gameVersion } from "../minecraft/version.ts";
import type { ServerHistory } from "../store/history-ranges.ts";
import type { ServerRow } from "../store/records.ts";
import { compactNumber } from "./value-display.ts";
import type { Metric, MetricValue } from "./metric.ts";
import { capMessage } from "./record-values.ts";

/** A server record with what decides its status, and its history when the metric reads one. */
export interface ServerView {
  row: ServerRow;
  staleAfterMs: number;
  history?: ServerHistory;
}

/** `readsHistory`: the badge needs the server's history over its range (?range=, 7d by default). */
type ServerMetric = Metric<ServerView> & { readsHistory?: true };

const OFFLINE: MetricValue = { message: "offline", color: "lightgrey" };
/** An online server that does not say its players (a push without them): as its banners say it, never a count. */
const PLAYERS_UNKNOWN: MetricValue = { message: "unknown", color: "lightgrey" };

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

/** Uptime at and above which the badge is each colour, best first; below the last, red. */
export const UPTIME_COLORS: ReadonlyArray<readonly [number, string]> = [
  [0.999, "brightgreen"],
  [0.99, "green"],
  [0.97, "yellowgreen"],
  [0.95, "yellow"],
  [0.9, "orange"],
];

/** A percentage with one decimal, rounded down so that 99.96% never shows as 100%: 0.992 -> "99.2%", 1 -> "100%". */
function percentText(fraction: number): string {
  return `${Math.floor(fraction * 1000 + 1e-9) / 10}%`;
}

export const SERVER_METRICS: ReadonlyMap<string, ServerMetric> = new Map(Object.entries<ServerMetric>({
  players: {
    label: "players",
    cache: "live",
    read: (view, now) => {
      if (!isOnline(view, now)) return OFFLINE;
      const { playersOnline, playersMax } = view.row;
      if (playersOnline === null) return PLAYERS_UNKNOWN;
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
  uptime: {
    label: "uptime",
    cache: "live",
    readsHistory: true,
    read: ({ history }) => {
      const uptime = history?.uptime;
      if (uptime === null || uptime === undefined) return undefined;
      return { message: percentText(uptime), color: UPTIME_COLORS.find(([least]) => uptime >= least)?.[1] ?? "red" };
    },
  },
  peak: {
    label: "peak",
    cache: "live",
    readsHistory: true,
    read: ({ history }) => {
      const peak = history?.peak;
      return peak === null || peak === undefined ? undefined : { message: compactNumber(peak), color: "blue" };
    },
  },
}));
