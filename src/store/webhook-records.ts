// Alert subscriptions and their deliveries as every backend hands them out,
// and the operations' inputs. The rules (which events, when to retry, when to
// pause) are src/alerts'; the store only keeps them and makes each claim once.

import type { ReplayRecord } from "../auth/replay.ts";

export type WebhookFormat = "json" | "discord" | "discord-live";
export type ServerState = "online" | "offline";

export interface WebhookRow {
  id: string;
  serverUuid: string;
  url: string;
  events: string[];
  format: WebhookFormat;
  /** Keys the HMAC of every delivery; shown to the subscriber once. */
  secret: string;
  requestKey: string;
  createdAt: number;
  failingSince: number | null;
  pausedAt: number | null;
  lastStatus: number | null;
  lastDeliveryAt: number | null;
  dropped: number;
  /** How long the server must stay offline before `offline` is sent. */
  graceMs: number;
  /** The state this subscription was last told (null: made before grace, adopted at the next claim). */
  toldState: ServerState | null;
  /** discord-live: the least time between two requests for its message. */
  intervalMs: number;
  /** discord-live: Discord's id of its message (null: none posted, or found deleted). */
  messageId: string | null;
  /** discord-live: the digest of what its message shows. */
  shown: string | null;
  /** discord-live: no request for its message before this. */
  liveNextAt: number;
  /** discord-live: held by an instance for a post or an edit until this. */
  liveLeasedUntil: number;
}

/** paused: failed for a day, nothing more is sent; failing: the last delivery failed; else active. */
export function subscriptionState(row: Pick<WebhookRow, "pausedAt" | "failingSince">): "active" | "failing" | "paused" {
  return row.pausedAt !== null ? "paused" : row.failingSince !== null ? "failing" : "active";
}

/** A subscription to write, with the signed request that asks for it. */
export interface NewWebhook extends Pick<WebhookRow, "id" | "serverUuid" | "url" | "events" | "format" | "secret" | "graceMs" | "intervalMs"> {
  now: number;
  replay: ReplayRecord;
  /** Subscriptions one server may have. */
  maxPerServer: number;
  /** The server's state as it subscribes: where alerts start from when no other active subscription watches it. */
  state: ServerState;
}

/** A server with at least one active subscription, as the sweep judges it. */
export interface WatchedServer {
  uuid: string;
  name: string | null;
  status: string | null;
  lastSeen: number;
  playersOnline: number | null;
  playersMax: number | null;
  version: string | null;
  motd: string | null;
  pageEnabled: boolean;
  /** The most players online an update saying "online" reported since the time the sweep asked about (null: none). */
  playersPeak: number | null;
}

/**
 * The server's state as a sweep finds it at the claim's `now`, and `stateOf`,
 * the same judgement at `now` of the server as the claim finds it: a push
 * may have come since the sweep read it.
 */
export interface StateClaim {
  state: ServerState;
  stateOf(server: Pick<WatchedServer, "status" | "lastSeen">): ServerState;
}

/**
 * A change a sweep saw, to claim: the server's state (every sweep claims it,
 * so that a grace that ran out is claimed too), or its players online
 * passing the record (`players`). `body` builds what each subscription to
 * `event` gets.
 */
export interface Transition {
  serverUuid: string;
  change: StateClaim | { players: number };
  event: string;
  now: number;
  body(hook: WebhookRow): string;
  /** Deliveries one subscription may have waiting; the oldest beyond it are dropped (and counted). */
  maxQueued: number;
}

/**
 * How many due deliveries one lease may take: `total` in all, and as many of
 * one token's as keep its deliveries leased at once (on any instance, those
 * already in flight counted) within `perToken`.
 */
export interface DueShare {
  total: number;
  perToken: number;
}

/** A delivery leased for one attempt, with what sending it needs. */
export interface DueDelivery {
  id: number;
  webhookId: string;
  url: string;
  format: WebhookFormat;
  secret: string;
  body: string;
  createdAt: number;
  attempts: number;
}

/** A discord-live subscription leased for one post or edit of its message. */
export interface LiveLease {
  webhookId: string;
  serverUuid: string;
  url: string;
  messageId: string | null;
  intervalMs: number;
}

/** What to lease: at `now`, for `leaseMs`, within `share`; `shown` is what each watched server's message would show now (undefined: not watched). */
export interface LiveAsk {
  now: number;
  leaseMs: number;
  share: DueShare;
  shown(serverUuid: string): string | undefined;
}

/**
 * How a post or an edit of a live message ended. `done`: it went through;
 * `waited`: Discord asked to wait (a 429), which is no failure; `failed`:
 * counted as a delivery's failure (a day of them pauses); `gone`: the
 * webhook is gone, the subscription is paused now.
 */
export interface LiveOutcome {
  webhookId: string;
  now: number;
  result: "done" | "waited" | "failed" | "gone";
  /** The last answer's status (0: none). */
  status: number;
  /** The message from now on: the one posted or kept, or null (none; the next attempt posts one). */
  messageId: string | null;
  /** What the message shows after a post or an edit went through (null: as before). */
  shown: string | null;
  /** No request for this message before then. */
  nextAt: number;
  pauseAfterMs: number;
}

/** How an attempt ended: the answer's status (0: none), and when to retry (null: give up). */
export interface Attempt {
  deliveryId: number;
  webhookId: string;
  now: number;
  status: number;
  ok: boolean;
  retryAt: number | null;
  /** The subscription's other waiting deliveries are not tried before this (its receiver did not answer); null: no hold. */
  holdUntil: number | null;
  /** A subscription failing for this long is paused. */
  pauseAfterMs: number;
}

/**
 * What an attempt changes on its subscription, whose deliveries have failed
 * since `failingSince` (null: the last one succeeded): its last answer, the
 * failure's start, a pause once it has failed for `pauseAfterMs`, and whether
 * a delivery was given up on (counted in `dropped`).
 */
export function afterAttempt(attempt: Pick<Attempt, "ok" | "now" | "status" | "retryAt" | "pauseAfterMs">, failingSince: number | null) {
  const since = attempt.ok ? null : (failingSince ?? attempt.now);
  const pause = since !== null && attempt.now - since >= attempt.pauseAfterMs;
  return {
    set: { lastStatus: attempt.status, lastDeliveryAt: attempt.now, failingSince: since, ...(pause ? { pausedAt: attempt.now } : {}) },
    pause,
    gaveUp: !attempt.ok && attempt.retryAt === null,
  };
}

/** A subscription removed by a signed request, remembered with its removal (signed-requests.ts). */
export interface WebhookRemoval {
  serverUuid: string;
  id: string;
  replay: ReplayRecord;
  now: number;
}

/** The server has no subscription with this id. */
export class UnknownWebhookError extends Error {
  constructor() {
    super("this server has no webhook with this id");
    this.name = "UnknownWebhookError";
  }
}

/** The server already has as many subscriptions as it may. */
export class WebhookLimitError extends Error {
  constructor(readonly limit: number) {
    super(`this server already has ${limit} webhooks, the most allowed`);
    this.name = "WebhookLimitError";
  }
}
