// A stand-in of Discord's webhook API on loopback, written from Discord's
// documentation (github.com/discord/discord-api-docs):
//
// - docs/resources/webhook: Execute Webhook, POST /webhooks/{id}/{token},
//   answers the message object with ?wait=true (204 without), and Edit
//   Webhook Message, PATCH /webhooks/{id}/{token}/messages/{message.id},
//   answers the edited message; both take ?thread_id=;
// - docs/resources/message, "Embed Limits": title 256, description 4096,
//   25 fields of name 256 and value 1024, footer 2048, 6000 in all, 10 embeds;
// - docs/topics/rate-limits: X-RateLimit-Limit, -Remaining, -Reset-After
//   and -Bucket on every answer; a 429 with Retry-After and the JSON
//   { message, retry_after, global }; and what counts as an invalid request;
// - docs/topics/opcodes-and-status-codes: the JSON error codes 10008 Unknown
//   Message, 10015 Unknown Webhook, 50027 Invalid Webhook Token, 50035
//   Invalid Form Body.
//
// One webhook. Time is the test's clock, so a wait is checked against the
// same clock the app runs on: a request that comes before a wait Discord
// asked for is answered 429 and kept in `violations`, as Discord would count
// it against the sender.

import { track } from "./cleanup.ts";

export interface SeenRequest {
  method: string;
  /** The path after the API's base: /webhooks/{id}/{token}[/messages/{id}]. */
  path: string;
  query: URLSearchParams;
  body: any;
  /** The test clock's time when it came. */
  at: number;
  status: number;
}

/** An answer the test puts in for the next request, instead of the stand-in's own. */
export interface ScriptedAnswer {
  status: number;
  json?: object;
  headers?: Record<string, string>;
}

export interface DiscordPeer {
  /** The API's base, as the app is handed it (AppContext.discordApi). */
  api: string;
  /** The webhook's URL as Discord's app copies it. */
  webhookUrl: string;
  requests: SeenRequest[];
  /** Requests that came before a wait Discord had asked for had passed. */
  violations: SeenRequest[];
  /** The messages in the channel, by id: the last body each was posted or edited with. */
  messages: Map<string, any>;
  /** Answers for the next requests, in order (then the stand-in's own again). */
  script: ScriptedAnswer[];
  /** Deletes the webhook: later requests are answered 401 Invalid Webhook Token or 404 Unknown Webhook. */
  removeWebhook(answer: 401 | 404): void;
}

const WEBHOOK_ID = "1180000000000000001";
const TOKEN = "Zm9yIHRlc3RzIG9ubHk_x-0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN";
/** The bucket's size the stand-in reports: five requests per two seconds, as Discord's webhooks commonly answer. */
const BUCKET = 5;
const EMBED_LIMITS = { title: 256, description: 4096, fields: 25, fieldName: 256, fieldValue: 1024, footer: 2048, total: 6000, embeds: 10 };

const json = (status: number, body: object, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });

/** Why a message body breaks the documented limits, or null. */
export function invalidBody(body: any): string | null {
  if (typeof body !== "object" || body === null) return "not a JSON object";
  const embeds: any[] = body.embeds ?? [];
  if (!body.content && embeds.length === 0) return "no content or embeds";
  if (embeds.length > EMBED_LIMITS.embeds) return "too many embeds";
  for (const embed of embeds) {
    const fields: any[] = embed.fields ?? [];
    const lengths = [embed.title ?? "", embed.description ?? "", embed.footer?.text ?? "", ...fields.flatMap((field) => [field.name, field.value])];
    if ((embed.title ?? "").length > EMBED_LIMITS.title || (embed.description ?? "").length > EMBED_LIMITS.description) return "title or description too long";
    if (fields.length > EMBED_LIMITS.fields) return "too many fields";
    for (const field of fields) {
      if (!field.name || !field.value || field.name.length > EMBED_LIMITS.fieldName || field.value.length > EMBED_LIMITS.fieldValue) return "a field empty or too long";
    }
    if ((embed.footer?.text ?? "").length > EMBED_LIMITS.footer) return "footer too long";
    if (lengths.reduce((sum: number, text: string) => sum + text.length, 0) > EMBED_LIMITS.total) return "embed over 6000 characters";
  }
  return null;
}

/** Starts the stand-in on loopback, timed by `clock`; stopped after the test. */
export function startDiscordPeer(clock: { now: number }): DiscordPeer {
  let removed: 401 | 404 | null = null;
  let nextId = 1_190_000_000_000_000_000n;
  /** Requests left in the bucket, and when it refills (the clock's ms). */
  let remaining = BUCKET;
  let resetAt = 0;
  /** No request is welcome before this: a 429 or an empty bucket said so. */
  let waitUntil = 0;
  const peer: DiscordPeer = {
    api: "",
    webhookUrl: `https://discord.com/api/webhooks/${WEBHOOK_ID}/${TOKEN}`,
    requests: [],
    violations: [],
    messages: new Map(),
    script: [],
    removeWebhook(answer) {
      removed = answer;
    },
  };

  /** The rate-limit headers of an answer, the bucket counted down by this request. */
  function limitHeaders(now: number): Record<string, string> {
    if (now >= resetAt) {
      remaining = BUCKET;
      resetAt = now + 2_000;
    }
    remaining = Math.max(0, remaining - 1);
    if (remaining === 0) waitUntil = Math.max(waitUntil, resetAt);
    return {
      "X-RateLimit-Limit": String(BUCKET), "X-RateLimit-Remaining": String(remaining), "X-RateLimit-Reset": String((resetAt / 1000).toFixed(3)),
      "X-RateLimit-Reset-After": ((resetAt - now) / 1000).toFixed(3), "X-RateLimit-Bucket": "stand-in",
    };
  }

  function answer(method: string, path: string, query: URLSearchParams, body: any, now: number): Response {
    const scripted = peer.script.shift();
    if (scripted) {
      const retryAfter = Number(scripted.headers?.["X-RateLimit-Reset-After"] ?? (scripted.json as any)?.retry_after ?? 0);
      if (scripted.status === 429 || scripted.headers?.["X-RateLimit-Remaining"] === "0") waitUntil = Math.max(waitUntil, now + retryAfter * 1000);
      if (scripted.status >= 200 && scripted.status < 300 && method === "PATCH") peer.messages.set(path.split("/").at(-1)!, body);
      return json(scripted.status, scripted.json ?? {}, scripted.headers);
    }
    const headers = limitHeaders(now);
    const parts = path.split("/").filter(Boolean);
    const [root, id, token, messages, messageId] = parts;
    if (root !== "webhooks" || id !== WEBHOOK_ID) return json(404, { message: "Unknown Webhook", code: 10015 }, headers);
    if (removed === 404) return json(404, { message: "Unknown Webhook", code: 10015 }, headers);
    if (removed === 401 || token !== TOKEN) return json(401, { message: "Invalid Webhook Token", code: 50027 }, headers);
    const invalid = invalidBody(body);
    if (invalid) return json(400, { message: "Invalid Form Body", code: 50035, errors: invalid }, headers);
    if (method === "POST" && parts.length === 3) {
      nextId += 1n;
      const message = { id: String(nextId), type: 0, channel_id: "1170000000000000001", webhook_id: WEBHOOK_ID, ...body };
      peer.messages.set(message.id, body);
      return query.get("wait") === "true" ? json(200, message, headers) : new Response(null, { status: 204, headers });
    }
    if (method === "PATCH" && messages === "messages" && parts.length === 5) {
      if (!peer.messages.has(messageId!)) return json(404, { message: "Unknown Message", code: 10008 }, headers);
      peer.messages.set(messageId!, body);
      return json(200, { id: messageId, type: 0, channel_id: "1170000000000000001", webhook_id: WEBHOOK_ID, ...body }, headers);
    }
    return json(405, { message: "405: Method Not Allowed", code: 0 }, headers);
  }

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      const path = url.pathname.replace(/^\/api\/v10/, "");
      const text = await request.text();
      let body: any = null;
      try {
        body = JSON.parse(text);
      } catch {
        // Answered 400 as an invalid form body.
      }
      const now = clock.now;
      const early = now < waitUntil;
      const response = early
        ? json(429, { message: "You are being rate limited.", retry_after: (waitUntil - now) / 1000, global: false }, { "Retry-After": String(Math.ceil((waitUntil - now) / 1000)) })
        : answer(request.method, path, url.searchParams, body, now);
      const seen = { method: request.method, path, query: url.searchParams, body, at: now, status: response.status };
      peer.requests.push(seen);
      if (early) peer.violations.push(seen);
      return response;
    },
  });
  track(() => server.stop(true));
  peer.api = `http://127.0.0.1:${server.port}/api/v10`;
  return peer;
}
