// The two requests a live message makes of Discord's webhook API, and what
// of their answers counts: Execute Webhook with ?wait=true (the message it
// posted, with its id) and Edit Webhook Message (PATCH .../messages/{id}),
// as docs/resources/webhook documents them; the waits Discord asks for, as
// docs/topics/rate-limits documents them (a 429's retry_after or Retry-After,
// and X-RateLimit-Remaining: 0 with X-RateLimit-Reset-After); and the JSON
// error code of a 404 (docs/topics/opcodes-and-status-codes: 10008 Unknown
// Message). Requests go to Discord's API address, never to a host a
// subscription named, with a deadline; redirects are not followed.

import { boundedText } from "../bounded-body.ts";
import type { DiscordWebhook } from "./webhook-url.ts";

/** Discord's API, version 10. */
export const DISCORD_API = "https://discord.com/api/v10";
/** Discord's JSON error code for a message that does not exist (deleted). */
export const UNKNOWN_MESSAGE = 10008;
/** A message object is a few KB; an error a few hundred bytes. */
const MAX_ANSWER_BYTES = 64 * 1024;
/** The longest wait taken from an answer: a day (Discord's own examples ask for minutes). */
const MAX_WAIT_MS = 86_400_000;

/** What an answer tells the sender. */
export interface DiscordAnswer {
  /** The HTTP status; 0 when there was no answer (no connection, the deadline, cancelled). */
  status: number;
  /** How long this webhook must not be asked again: a 429's retry_after, or the bucket's reset when none of it remains; 0 when nothing was said. */
  waitMs: number;
  /** A 429 of Discord's global limit: every webhook waits, not only this one. */
  global: boolean;
  /** Discord's JSON error code, when the answer has one. */
  code: number | null;
  /** The id of the message posted or edited, from a 2xx answer. */
  messageId: string | null;
}

/** One request: POST a new message (`messageId` null) or PATCH that message, with the JSON `body`. */
export interface DiscordRequest {
  api: string;
  webhook: DiscordWebhook;
  messageId: string | null;
  body: string;
  timeoutMs: number;
  cancel: AbortSignal;
}

/** The URL of the request: Execute Webhook waiting for the message, or Edit Webhook Message; in the webhook's thread when it has one. */
function discordUrl({ api, webhook, messageId }: Pick<DiscordRequest, "api" | "webhook" | "messageId">): string {
  const base = `${api}/webhooks/${webhook.id}/${webhook.token}`;
  const query = new URLSearchParams(messageId === null ? { wait: "true" } : {});
  if (webhook.threadId !== null) query.set("thread_id", webhook.threadId);
  const search = query.size > 0 ? `?${query}` : "";
  return messageId === null ? `${base}${search}` : `${base}/messages/${messageId}${search}`;
}

/** Seconds (decimals allowed) as milliseconds within [0, MAX_WAIT_MS]; 0 for anything not a number. */
function secondsToMs(value: unknown): number {
  const seconds = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof seconds === "number" && Number.isFinite(seconds) && seconds > 0 ? Math.min(Math.ceil(seconds * 1000), MAX_WAIT_MS) : 0;
}

function parsed(text: string | null): Record<string, unknown> {
  try {
    const json: unknown = JSON.parse(text ?? "");
    return typeof json === "object" && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** What the answer says, read within MAX_ANSWER_BYTES. */
async function answerOf(response: Response): Promise<DiscordAnswer> {
  const json = parsed(await boundedText(response, MAX_ANSWER_BYTES));
  const { headers, status } = response;
  const limited = status === 429;
  const waitMs = limited
    ? Math.max(secondsToMs(json.retry_after), secondsToMs(headers.get("retry-after")))
    : headers.get("x-ratelimit-remaining") === "0" ? secondsToMs(headers.get("x-ratelimit-reset-after")) : 0;
  const global = limited && (json.global === true || headers.get("x-ratelimit-global") === "true" || headers.get("x-ratelimit-scope") === "global");
  const id = status >= 200 && status < 300 && typeof json.id === "string" && /^\d{1,20}$/.test(json.id) ? json.id : null;
  return { status, waitMs, global, code: typeof json.code === "number" ? json.code : null, messageId: id };
}

/** Sends the request; an answer with status 0 when none came. */
export async function callDiscord(request: DiscordRequest): Promise<DiscordAnswer> {
  try {
    const response = await fetch(discordUrl(request), {
      method: request.messageId === null ? "POST" : "PATCH",
      headers: { "Content-Type": "application/json", "User-Agent": "Pennant-Webhook" },
      body: request.body,
      redirect: "manual",
      signal: AbortSignal.any([AbortSignal.timeout(request.timeoutMs), request.cancel]),
    });
    return await answerOf(response);
  } catch {
    return { status: 0, waitMs: 0, global: false, code: null, messageId: null };
  }
}
