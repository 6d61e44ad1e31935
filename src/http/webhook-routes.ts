// Alert subscriptions of a server: signed like its pushes (X-Server-Token,
// X-Server-UUID, X-Timestamp, X-Signature) but only over method and path
// (X-Signature-Version: 2), only by the token the server is bound to. A
// subscription names a URL, the events, the format and the grace; or, in the
// format discord-live, a Discord webhook URL and the interval of the one
// message it keeps current. Its answer carries the secret that signs every
// delivery, shown this once. A removal is accepted once, like every request
// that changes something.

import { randomBytes, randomUUID } from "node:crypto";
import { Type } from "@sinclair/typebox";
import { Elysia, t } from "elysia";
import { checkWebhookUrl, discordWebhook } from "../alerts/webhook-url.ts";
import { stateOf, WEBHOOK_EVENTS, WEBHOOK_FORMATS } from "../alerts/events.ts";
import type { Authenticated } from "../auth/authenticate.ts";
import type { ServerRow } from "../store/records.ts";
import type { WebhookFormat, WebhookRow } from "../store/webhook-records.ts";
import { subscriptionState, UnknownWebhookError, WebhookLimitError } from "../store/webhook-records.ts";
import { ReplayError } from "../store/write-refusals.ts";
import { HttpError } from "./errors.ts";
import { errorResponses, jsonSuccess, literals, mergeCodes, nullable } from "./openapi/responses.ts";
import { serverUuidFrom } from "./server-routes.ts";
import {
  ACCEPTED_ONCE, DUPLICATE_HEADER, SIGNED_PUSH_ERRORS, SIGNED_READ_ERRORS, acceptSignedBody, signedHeaders, verifySignedRead,
  type SignedDeps, type SignedInput,
} from "./signed-request.ts";

/** Subscriptions one server may have (issue 23). */
export const MAX_WEBHOOKS_PER_SERVER = 10;

/** How long a server must stay offline before `offline` is sent, unless asked otherwise: a restart is not an outage. */
const DEFAULT_GRACE_SECONDS = 120;
/** A grace, or a live message's interval, of at most a day. */
const MAX_WAIT_SECONDS = 86_400;
/** A live message is edited at most once a minute unless asked otherwise, and never more often than every 30 s. */
const DEFAULT_INTERVAL_SECONDS = 60;
const MIN_INTERVAL_SECONDS = 30;

/** Where a webhook's host may be reached, or why not (lookup/target-address.ts with this instance's rules). */
export type CheckTarget = (host: string) => Promise<{ address: string } | { refused: string }>;

const PATH = "/api/server/webhooks";

const SERVER_UUID_HEADERS = { "x-server-uuid": t.String({ format: "uuid", description: "The server's UUID, in any case" }) };
/** Signed over method and path only (X-Signature-Version: 2): an older signature names no route, and a read's would remove a subscription. */
const HEADERS = signedHeaders("X-Server-Token", SERVER_UUID_HEADERS);

const SUBSCRIPTION = Type.Object(
  {
    url: Type.String({
      maxLength: 2048,
      description:
        "json, discord: https (plain http only with PENNANT_WEBHOOK_PRIVATE=on), its host resolving to public addresses only. " +
        "discord-live: a Discord webhook URL as Discord gives it: https, the host discord.com (or discordapp.com, their ptb. and canary.), the path /api/webhooks/{id}/{token}, optionally ?thread_id=",
    }),
    events: Type.Optional(Type.Array(literals(WEBHOOK_EVENTS), { minItems: 1, uniqueItems: true, description: "json and discord only (required)" })),
    format: literals(WEBHOOK_FORMATS, { description: "discord-live posts one message and edits it when the server's state, players, version or MOTD change" }),
    grace_seconds: Type.Optional(Type.Integer({
      minimum: 0, maximum: MAX_WAIT_SECONDS, default: DEFAULT_GRACE_SECONDS,
      description: "json and discord only: offline is sent once the server has stayed offline this long, online only after an offline; 0 sends both at once",
    })),
    interval_seconds: Type.Optional(Type.Integer({
      minimum: MIN_INTERVAL_SECONDS, maximum: MAX_WAIT_SECONDS, default: DEFAULT_INTERVAL_SECONDS,
      description: "discord-live only: the message is edited at most once per interval",
    })),
  },
  { title: "WebhookSubscription" },
);

const CREATED = Type.Object(
  { id: Type.String({ format: "uuid" }), secret: Type.String({ description: "Keys X-Pennant-Signature of every delivery; shown only in this answer" }) },
  { title: "WebhookCreated" },
);

const LISTED = Type.Object(
  {
    id: Type.String({ format: "uuid" }),
    url: Type.String(),
    events: Type.Array(Type.String()),
    format: literals(WEBHOOK_FORMATS),
    state: literals(["active", "failing", "paused"], {
      description: "failing: the last delivery failed; paused: deliveries failed for a day (discord-live: or its Discord webhook is gone), nothing more is sent",
    }),
    created_at: Type.String({ format: "date-time" }),
    last_status: nullable(Type.Integer({ description: "The status code of the last delivery's answer; 0 when there was none" })),
    last_delivery_at: nullable(Type.String({ format: "date-time" })),
    dropped: Type.Integer({ minimum: 0, description: "Deliveries given up on (an hour of retries, or over the queue's bound)" }),
    grace_seconds: nullable(Type.Integer({ description: "json and discord; null for discord-live" })),
    interval_seconds: nullable(Type.Integer({ description: "discord-live; null otherwise" })),
    message_id: nullable(Type.String({ description: "discord-live: the Discord message kept current; null until posted" })),
  },
  { title: "Webhook" },
);

const ID_PARAMS = t.Object({ id: t.String({ description: "The subscription's id" }) });

function listed(row: WebhookRow) {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    format: row.format,
    state: subscriptionState(row),
    created_at: new Date(row.createdAt).toISOString(),
    last_status: row.lastStatus,
    last_delivery_at: row.lastDeliveryAt === null ? null : new Date(row.lastDeliveryAt).toISOString(),
    dropped: row.dropped,
    grace_seconds: row.format === "discord-live" ? null : row.graceMs / 1000,
    interval_seconds: row.format === "discord-live" ? row.intervalMs / 1000 : null,
    message_id: row.messageId,
  };
}

/** A whole number of seconds in [min, MAX_WAIT_SECONDS], `fallback` when absent; a 400 naming the field otherwise. */
function seconds(value: unknown, name: string, min: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || (value as number) < min || (value as number) > MAX_WAIT_SECONDS) {
    throw new HttpError(400, "invalid_payload", `${name} must be a whole number of seconds from ${min} to ${MAX_WAIT_SECONDS}`);
  }
  return value as number;
}

interface Asked {
  url: string;
  events: string[];
  format: WebhookFormat;
  graceMs: number;
  intervalMs: number;
}

/** A subscription as asked for, or a 400 naming what is wrong with it. */
function subscription(json: unknown): Asked {
  const invalid = (message: string) => new HttpError(400, "invalid_payload", message);
  if (typeof json !== "object" || json === null || Array.isArray(json)) throw invalid("the body must be a JSON object");
  const { url, events, format, grace_seconds: grace, interval_seconds: interval } = json as Record<string, unknown>;
  if (typeof url !== "string") throw invalid("url must be a string");
  if (!(WEBHOOK_FORMATS as readonly unknown[]).includes(format)) throw invalid(`format must be one of ${WEBHOOK_FORMATS.join(", ")}`);
  if (format === "discord-live") {
    // One message shows the state as it is: no events to choose, no grace to wait.
    if (events !== undefined) throw invalid("a discord-live subscription takes no events: its message shows the server's state");
    if (grace !== undefined) throw invalid("grace_seconds is for events; a discord-live message shows the state at once");
    return { url, events: [], format, graceMs: 0, intervalMs: seconds(interval, "interval_seconds", MIN_INTERVAL_SECONDS, DEFAULT_INTERVAL_SECONDS) * 1000 };
  }
  if (!Array.isArray(events) || events.length === 0 || !events.every((event) => (WEBHOOK_EVENTS as readonly unknown[]).includes(event))) {
    throw invalid(`events must be a non-empty list of ${WEBHOOK_EVENTS.join(", ")}`);
  }
  if (interval !== undefined) throw invalid("interval_seconds is for discord-live subscriptions");
  return { url, events: [...new Set(events as string[])], format: format as WebhookFormat, graceMs: seconds(grace, "grace_seconds", 0, DEFAULT_GRACE_SECONDS) * 1000, intervalMs: 0 };
}

export function webhookRoutes(deps: SignedDeps & { checkTarget: CheckTarget }) {
  function input(request: Request): SignedInput {
    return { scope: "server", subject: () => serverUuidFrom(request.headers), tokenHeader: "X-Server-Token", schemes: ["request"] };
  }

  /** The server's own token only; another token's server answers like one that does not exist. */
  async function requireOwner(uuid: string, auth: Authenticated): Promise<ServerRow> {
    const row = await deps.store.servers.get(uuid);
    if (!row || row.tokenId !== auth.tokenId) throw new HttpError(404, "unknown_server", "this token has pushed no data for this server");
    return row;
  }

  async function refusedUrl({ url, format }: Asked): Promise<string | undefined> {
    // A live message is sent to Discord's API itself (discord-api.ts): no host of the URL's is ever reached.
    if (format === "discord-live") {
      const checked = discordWebhook(url);
      return "refused" in checked ? checked.refused : undefined;
    }
    const checked = checkWebhookUrl(url, deps.config.webhookPrivate);
    if ("refused" in checked) return checked.refused;
    const target = await deps.checkTarget(checked.url.hostname);
    return "refused" in target ? target.refused : undefined;
  }

  return new Elysia()
    .post(
      PATH,
      async ({ request, server, set }) => {
        const signed = await acceptSignedBody(request, server, { ...input(request), route: `POST ${PATH}` }, deps, "closed");
        const asked = subscription(signed.json);
        const owned = await requireOwner(signed.subject, signed.auth);
        const refused = await refusedUrl(asked);
        if (refused) throw new HttpError(400, "refused_url", `${refused}; nothing was stored`);
        try {
          const { row, duplicate } = await deps.store.webhooks.create({
            ...asked, id: randomUUID(), serverUuid: signed.subject, secret: randomBytes(32).toString("hex"), now: signed.now, replay: signed.replay,
            maxPerServer: MAX_WEBHOOKS_PER_SERVER, state: stateOf(owned, signed.now, deps.config.staleAfterSeconds * 1000),
          });
          if (duplicate) set.headers[DUPLICATE_HEADER] = "true";
          else set.status = 201;
          return { id: row.id, secret: row.secret };
        } catch (error) {
          if (error instanceof WebhookLimitError) {
            throw new HttpError(403, "webhook_limit", `this server already has ${error.limit} webhooks, the most allowed; nothing was stored`);
          }
          if (error instanceof ReplayError) throw new HttpError(401, "replayed_request", error.message);
          throw error;
        }
      },
      {
        parse: "none",
        body: SUBSCRIPTION,
        headers: HEADERS,
        detail: {
          summary: "Subscribe a URL to a server's alerts (offline, online, players_record) or keep a Discord message current (discord-live)",
          description:
            `${ACCEPTED_ONCE.replace("answered 200 like the first", "answered like the first (200, the same id and secret)")} ` +
            "Only the token the server is bound to may subscribe; at most 10 subscriptions per server. The answer's secret signs every delivery and is shown only here. " +
            "The server's state and player record as it subscribes are where its alerts start: nothing is sent for them, every change after them is. " +
            "A discord-live subscription posts one message at the next sweep and edits it when what it shows changes, at most once per interval_seconds.",
          tags: ["server"],
          responses: {
            201: jsonSuccess("Subscribed", CREATED),
            ...errorResponses(mergeCodes(SIGNED_PUSH_ERRORS, { 400: ["invalid_server_uuid", "refused_url"], 403: ["webhook_limit"], 404: ["unknown_server"] })),
          },
        },
      },
    )
    .get(
      PATH,
      async ({ request, server }) => {
        const { auth, subject } = await verifySignedRead(request, server, input(request), deps);
        await requireOwner(subject, auth);
        return (await deps.store.webhooks.list(subject)).map(listed);
      },
      {
        headers: HEADERS,
        detail: {
          summary: "A server's alert subscriptions and their state (never their secrets)",
          tags: ["server"],
          responses: {
            200: jsonSuccess("The subscriptions, the oldest first", Type.Array(LISTED)),
            ...errorResponses(mergeCodes(SIGNED_READ_ERRORS, { 400: ["invalid_server_uuid"], 404: ["unknown_server"] })),
          },
        },
      },
    )
    .delete(
      `${PATH}/:id`,
      async ({ request, server, params, set }) => {
        // The id is part of what the request did: the replay memory tells an exact resend from another id (auth/replay.ts).
        const route = `DELETE ${PATH}/:id ${params.id}`;
        const signed = await acceptSignedBody(request, server, { ...input(request), route, bodiless: true }, deps, "closed");
        await requireOwner(signed.subject, signed.auth);
        try {
          const status = await deps.store.webhooks.remove({ serverUuid: signed.subject, id: params.id, replay: signed.replay, now: signed.now });
          if (status === "duplicate") set.headers[DUPLICATE_HEADER] = "true";
        } catch (error) {
          if (error instanceof UnknownWebhookError) throw new HttpError(404, "unknown_webhook", error.message);
          if (error instanceof ReplayError) throw new HttpError(401, "replayed_request", error.message);
          throw error;
        }
        return { message: "Webhook removed." };
      },
      {
        params: ID_PARAMS,
        headers: HEADERS,
        detail: {
          summary: "Remove one of a server's alert subscriptions",
          description: `Signed over its method and path with an empty body, and ${ACCEPTED_ONCE.slice(ACCEPTED_ONCE.indexOf("accepted once"))}`,
          tags: ["server"],
          responses: {
            200: jsonSuccess("Removed, or an exact duplicate of a removal already accepted (answered alike, with X-Duplicate: true)", Type.Object({ message: Type.Literal("Webhook removed.") })),
            ...errorResponses(mergeCodes(SIGNED_READ_ERRORS, { 400: ["invalid_server_uuid"], 401: ["replayed_request"], 404: ["unknown_server", "unknown_webhook"] })),
          },
        },
      },
    );
}
