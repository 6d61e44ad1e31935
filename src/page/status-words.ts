// A server's state in the words its page, widget and link preview use.

import type { ServerPageView } from "./page-view.ts";
import { spanWords } from "./time-words.ts";
import type { HistoryRange } from "../store/history-ranges.ts";

/** How the page names each range: its links, its table's columns. */
export const CHART_RANGE_LABELS: Readonly<Record<HistoryRange, string>> = { "24h": "24 h", "7d": "7 days", "30d": "30 days", "1y": "1 year" };

/** "Online" and "for 3 h 20 min": since the state last changed, or since the first push when it never has. */
export function statusWords(view: Pick<ServerPageView, "status" | "since" | "firstSeen">, now: number): { state: string; since: string } {
  const state = view.status === "online" ? "Online" : "Offline";
  return { state, since: `for ${spanWords(Math.max(0, now - view.since))}` };
}

/** One line: the state, players, version and join address ("Online for 2 h · 12/100 players · 1.21.4 · play.example.net"). */
export function summaryLine(view: ServerPageView, now: number): string {
  const words = statusWords(view, now);
  return [
    `${words.state} ${words.since}`,
    view.players ? `${view.players.online}/${view.players.max} players` : null,
    view.version,
    view.address,
  ].filter((part): part is string => part !== null).join(" · ");
}
