// Network badges (issue 24): players summed over a network's online servers,
// and how many of its servers are online ("3/4 online"). Servers read as
// server badges read them: a stale one counts offline.

import { onlineShare, type NetworkTotals } from "../minecraft/network-totals.ts";
import type { Metric } from "./metric.ts";

export const NETWORK_METRICS: ReadonlyMap<string, Metric<NetworkTotals>> = new Map(Object.entries<Metric<NetworkTotals>>({
  players: {
    label: "players",
    cache: "live",
    // The whole sum, every digit: a shields endpoint reader may take it as a number.
    read: (totals) => ({ message: String(totals.players?.online ?? 0), color: totals.online > 0 ? "brightgreen" : "lightgrey" }),
  },
  status: {
    label: "status",
    cache: "live",
    read: (totals) => ({
      message: onlineShare(totals),
      color: totals.online === totals.servers ? "brightgreen" : totals.online > 0 ? "yellow" : "red",
    }),
  },
}));
