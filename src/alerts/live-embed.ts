// What a live Discord message shows of a server, and the digest that tells
// when it would show something else. The view is the server's public page's
// (serve hands in the reader), so the message and the page never disagree;
// the message is one embed within Discord's limits (docs/resources/message,
// "Embed Limits"), every text from the server escaped so that a name or a
// MOTD cannot format, link or mention anything. Times are Discord's
// timestamp markup (<t:seconds:R>), which every reader's client shows as
// "5 minutes ago" and keeps current without an edit.

import { createHash } from "node:crypto";
import { stripFormatting } from "../minecraft/format.ts";
import type { ServerRow } from "../store/records.ts";
import type { ServerState } from "../store/webhook-records.ts";

/** What the message shows of a server at a time (its public page's view). */
export interface LiveView {
  name: string;
  status: ServerState;
  /** Since when the status holds. */
  since: number;
  /** Players now, while online. */
  players: { online: number; max: number } | null;
  /** The MOTD's two lines as `§` text; null when it shows nothing. */
  motd: readonly [string, string] | null;
  version: string | null;
  /** The join address as players type it. */
  address: string | null;
  /** The last push (update or heartbeat). */
  lastPush: number;
  /** The fraction of the last 24 hours it was online; null before any of it is counted. */
  uptime: number | null;
}

/** The view of `row` at `now`. */
export type ReadLiveView = (row: ServerRow, now: number) => Promise<LiveView>;

/** Absolute addresses under PENNANT_PUBLIC_URL: the server's public page (when shown) and its banner; null without one. */
export interface LiveLinks {
  page: string | null;
  banner: string | null;
}

/** What a message is edited for when it changes: with the state, the players, the version, the MOTD, the name and whether the page is shown. */
export type ShownFields = Pick<ServerRow, "name" | "playersOnline" | "playersMax" | "version" | "motd" | "pageEnabled">;

/**
 * A digest of what the message shows of `server` in `state`: a server whose
 * digest differs from the one its message was last given is edited. Also
 * the banner's version in its URL, so that Discord, which keeps an image it
 * fetched under its URL, fetches a changed banner anew.
 */
export function liveShown(server: ShownFields, state: ServerState): string {
  const fields = [state, server.playersOnline, server.playersMax, server.name, server.version, server.motd, server.pageEnabled];
  return createHash("sha256").update(JSON.stringify(fields)).digest("hex").slice(0, 16);
}

/** The page and banner links of `uuid` under `publicUrl`, the banner versioned by `shown`. */
export function liveLinks(publicUrl: string | null, uuid: string, pageEnabled: boolean, shown: string): LiveLinks {
  if (publicUrl === null) return { page: null, banner: null };
  return { page: pageEnabled ? `${publicUrl}/s/${uuid}` : null, banner: `${publicUrl}/api/banner?data_mode=plugin&server_uuid=${uuid}&v=${shown}` };
}

/** Green online, red offline: the colours of Pennant's other Discord alerts. */
const COLOR: Record<ServerState, number> = { online: 0x2ecc71, offline: 0xe74c3c };
const NONE = "–";

/**
 * `text` that Discord's markdown shows as it is: each character that could
 * format, quote, list, link, mention or mark a timestamp is escaped with a
 * backslash, which Discord drops before any punctuation. Line breaks become
 * spaces (one line each).
 */
function escaped(text: string): string {
  return text.replace(/\s+/g, " ").replace(/[\\*_~`|>#\-[\]()<@:]/g, "\\$&");
}

/** `text` cut to at most `max` characters (code points) after escaping, an ellipsis where it was cut. */
function clipped(text: string, max: number): string {
  const plain = [...text.replace(/\s+/g, " ").trim()];
  // Escaping at most doubles a character: half the room holds any text.
  const room = Math.floor(max / 2);
  return escaped(plain.length <= room ? plain.join("") : `${plain.slice(0, room - 1).join("")}…`);
}

/** Discord's timestamp markup, shown relative ("5 minutes ago") in each reader's client. */
const ago = (ms: number) => `<t:${Math.floor(ms / 1000)}:R>`;

/** The body of a post or an edit: one embed of `view` at `now`, with `links`; no mention can ping. */
export function liveMessage(view: LiveView, links: LiveLinks, now: number): object {
  const motd = view.motd ? stripFormatting(view.motd[0]).trim() : "";
  const fields = [
    { name: "Status", value: `${view.status === "online" ? "Online" : "Offline"} since ${ago(view.since)}`, inline: true },
    { name: "Players", value: view.players ? `${view.players.online}/${view.players.max}` : NONE, inline: true },
    { name: "Version", value: view.version ? clipped(view.version, 200) : NONE, inline: true },
    ...(view.address ? [{ name: "Join", value: clipped(view.address, 600), inline: true }] : []),
    { name: "Uptime (24 h)", value: view.uptime === null ? NONE : `${(view.uptime * 100).toFixed(1)}%`, inline: true },
    { name: "Last push", value: ago(view.lastPush), inline: true },
  ];
  const embed = {
    title: clipped(view.name, 256),
    ...(links.page ? { url: links.page } : {}),
    ...(motd ? { description: clipped(motd, 1000) } : {}),
    color: COLOR[view.status],
    fields,
    ...(links.banner ? { image: { url: links.banner } } : {}),
    footer: { text: "Pennant" },
    timestamp: new Date(now).toISOString(),
  };
  return { embeds: [embed], allowed_mentions: { parse: [] } };
}
