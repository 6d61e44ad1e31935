// The link preview's card as the answering thread plans it, apart from its
// drawing (og-card.ts loads the engine): its size, where its chart goes, and
// the text it writes.

import type { ServerPageView } from "./page-view.ts";
import { statusWords } from "./status-words.ts";

export const CARD_SIZE = { width: 1200, height: 630 } as const;
/** Where the chart goes on the card, and its frame (chart-layout.ts lays it out for this): below the MOTD, or taller without one. */
export function cardChart(motd: boolean): { left: number; top: number; width: number; height: number; fontSize: number } {
  const top = motd ? 384 : 270;
  return { left: 64, top, width: 1072, height: CARD_SIZE.height - 24 - top, fontSize: 18 };
}

/** What the card writes, as plain text. */
export interface CardText {
  name: string;
  online: boolean;
  /** "Online for 3 h". */
  state: string;
  /** The MOTD's lines as `§` text; none when it shows nothing (server-view.ts). */
  motd: readonly string[];
  /** "12 / 100 players · 1.21.4 · play.example.net". */
  facts: string;
}

/** The card's words for `view` at `now`: the state as the page says it, and the players, version and address on one line. */
export function cardText(view: ServerPageView, now: number): CardText {
  const words = statusWords(view, now);
  const facts = [view.players ? `${view.players.online} / ${view.players.max} players` : null, view.version, view.address].filter((fact): fact is string => fact !== null);
  return { name: view.name, online: view.status === "online", state: `${words.state} ${words.since}`, motd: view.motd ?? [], facts: facts.join(" · ") };
}
