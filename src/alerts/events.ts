// The events a subscription may ask for, when a watched server's state makes
// one, and the body each format sends. A server is offline when it pushed a
// status other than online or has gone stale (minecraft/status.ts), exactly
// as its banner shows it.

import { statusAt } from "../minecraft/status.ts";
import type { ServerState, WatchedServer, WebhookFormat } from "../store/webhook-records.ts";

export const WEBHOOK_EVENTS = ["offline", "online", "players_record"] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** What a delivery may tell: an event subscribed to, or the one test delivery its owner asks for (webhook-test-route.ts). */
export type DeliveredEvent = WebhookEvent | "test";
/** discord-live sends no events: it keeps one message current (live-message.ts). */
export const WEBHOOK_FORMATS: readonly WebhookFormat[] = ["json", "discord", "discord-live"];

export function stateOf(server: Pick<WatchedServer, "status" | "lastSeen">, now: number, staleAfterMs: number): ServerState {
  return statusAt(server, now, staleAfterMs);
}

/** What a delivery tells: the `json` format sends exactly this object. */
export interface EventBody {
  event: DeliveredEvent;
  server_uuid: string;
  name: string | null;
  status: ServerState;
  players: { online: number; max: number } | null;
  /** When Pennant sent it (ISO 8601): the sweep that found the change, or for `offline` the one that found its grace over. */
  at: string;
}

/** What `event` tells of `server`, with `playersOnline` as its players online (a record: the count that made it). */
export function eventBody(event: DeliveredEvent, server: WatchedServer, status: ServerState, now: number, playersOnline: number | null): EventBody {
  const players = playersOnline === null ? null : { online: playersOnline, max: server.playersMax ?? 0 };
  return { event, server_uuid: server.uuid, name: server.name, status, players, at: new Date(now).toISOString() };
}

/** Discord's embed colours: green for online, red for offline, gold for a record, blue for a test. */
const DISCORD_COLOR: Record<DeliveredEvent, number> = { online: 0x2ecc71, offline: 0xe74c3c, players_record: 0xf1c40f, test: 0x3498db };

/** An embed's title: what happened to the server named `name`. */
function discordTitle(event: DeliveredEvent, name: string, status: ServerState): string {
  if (event === "players_record") return `${name}: new player record`;
  if (event === "test") return `${name}: a test delivery from Pennant`;
  return `${name} is ${status}`;
}

/** The body sent in `format`: the object itself, or a Discord webhook message with one embed. */
export function formatBody(format: WebhookFormat, body: EventBody): string {
  if (format === "json") return JSON.stringify(body);
  const name = body.name ?? body.server_uuid;
  const fields: Array<{ name: string; value: string; inline: boolean }> = [{ name: "Status", value: body.status, inline: true }];
  if (body.players) fields.push({ name: "Players", value: `${body.players.online}/${body.players.max}`, inline: true });
  return JSON.stringify({
    embeds: [{ title: discordTitle(body.event, name, body.status), color: DISCORD_COLOR[body.event], fields, timestamp: body.at, footer: { text: "Pennant" } }],
  });
}
