// The store's tables, described once for both backends: storeTables builds
// them with a backend's column kit (SQLite's in sqlite-columns.ts, PostgreSQL's
// in postgres/postgres-schema.ts), which holds what the two write differently:
// a row id the database numbers, an int8 (PostgreSQL) that SQLite's integer
// already is, a double, JSON, a boolean, a generated column. drizzle-kit
// generates each backend's migrations from its schema module (schema.ts:
// `npm run db:generate`; postgres/postgres-schema.ts: `npm run db:generate:pg`).
// Times are milliseconds since the epoch. The tables are typed as SQLite's: a
// PostgreSQL table has the same columns and row types (a test compares the two
// catalogs).

import { sql } from "drizzle-orm";
import { TOKEN_SCOPES } from "../auth/token.ts";
import type { SQLITE_COLUMNS } from "./sqlite-columns.ts";

/** How a backend writes each kind of column, typed as SQLite's kit: each backend's builds the same row types. */
export type ColumnKit = typeof SQLITE_COLUMNS;

/** Every table of the store, built with `c`. */
export function storeTables(c: ColumnKit) {
  /** API tokens. Only a SHA-256 hash of each token is kept. */
  const tokens = c.table("tokens", {
    id: c.rowId("id"),
    hash: c.text("hash").notNull().unique(),
    scope: c.text("scope", { enum: TOKEN_SCOPES }).notNull(),
    label: c.text("label").notNull().default(""),
    /** "cli" for tokens made by `token create`, "registration" for open registration. */
    origin: c.text("origin", { enum: ["cli", "registration"] }).notNull(),
    createdAt: c.int8("created_at").notNull(),
    lastUsedAt: c.int8("last_used_at"),
    revokedAt: c.int8("revoked_at"),
  });

  /** Server records (spec 2.1), bound to the token of their first accepted push. */
  const servers = c.table("servers", {
    uuid: c.text("uuid").primaryKey(),
    tokenId: c.int8("token_id").notNull().references(() => tokens.id),
    name: c.text("name"),
    pluginVersion: c.text("plugin_version"),
    status: c.text("status"),
    playersOnline: c.int("players_online"),
    playersMax: c.int("players_max"),
    tps: c.double("tps"),
    motd: c.text("motd"),
    version: c.text("version"),
    /** Further stats some plugin builds send (tps_5m, uptime, placeholders...), as JSON. */
    extra: c.json<Record<string, unknown>>("extra"),
    firstSeen: c.int8("first_seen").notNull(),
    lastSeen: c.int8("last_seen").notNull(),
    /** Time of the last stats update (heartbeats only move last_seen). */
    statsUpdatedAt: c.int8("stats_updated_at"),
    /** Whether the server's public page (/s/{uuid}) is shown: its owner switches it off and on (PUT /api/server/page). */
    pageEnabled: c.bool("page_enabled").notNull().default(true),
  });

  /** A server's row: it goes with the server. */
  const ofServer = () => c.text("server_uuid").notNull().references(() => servers.uuid, { onDelete: "cascade" });

  /**
   * Player/TPS history kept for 30 days: one row per server per minute, which
   * the accepted updates of that minute write into (each backend's push), so a
   * server pushing 600 times a minute keeps one row, not 600.
   */
  const serverSamples = c.table(
    "server_samples",
    {
      id: c.rowId("id"),
      serverUuid: ofServer(),
      /** Time of the minute's latest update. */
      at: c.int8("at").notNull(),
      /** The minute's highest count: the banner's history plots the highest per 5 minutes. */
      playersOnline: c.int("players_online"),
      playersMax: c.int("players_max"),
      tps: c.double("tps"),
      /** Whether the minute's latest update said "online": the roll-up counts the server offline from an update that did not. */
      online: c.bool("online").notNull().default(true),
      /** Minutes since the epoch, computed from `at` (integer division); with the server, the row's key. */
      minute: c.computedInt8("minute", sql`at / 60000`),
    },
    (table) => [
      c.index("server_samples_server_at").on(table.serverUuid, table.at),
      /** The history sweep reads and drops samples by time across servers. */
      c.index("server_samples_at").on(table.at),
      c.uniqueIndex("server_samples_server_minute").on(table.serverUuid, table.minute),
    ],
  );

  /**
   * A server's rolled-up history (src/store/history.ts): 5-minute buckets
   * (`step_ms` 300000) made from server_samples, kept 30 days, and hourly
   * buckets (3600000) made from those, kept a year. A bucket is recomputed whole
   * from its source rows, so writing it twice writes the same row.
   */
  const serverHistory = c.table(
    "server_history",
    {
      serverUuid: ofServer(),
      stepMs: c.int("step_ms").notNull(),
      /** The bucket's start, a multiple of step_ms. */
      at: c.int8("at").notNull(),
      /** Fewest, mean and most players online over the bucket's samples; null when it has none. */
      playersMin: c.int("players_min"),
      playersAvg: c.double("players_avg"),
      playersMax: c.int("players_max"),
      /** How many minute samples the bucket holds: the weight of its mean in a wider bucket. */
      samples: c.int("samples").notNull(),
      /** The fraction of the bucket the server was online (0..1). */
      online: c.double("online").notNull(),
    },
    (table) => [
      c.primaryKey({ columns: [table.serverUuid, table.stepMs, table.at] }),
      /** The sweep reads and drops a level by time across servers. */
      c.index("server_history_step_at").on(table.stepMs, table.at),
    ],
  );

  /**
   * How far the history sweep has rolled up (one row, id 1): every 5-minute
   * bucket before `five_minutes_until` and every hourly one before
   * `hours_until` is written. Source rows are dropped only below these marks.
   */
  const historyMarks = c.table("history_marks", {
    id: c.int("id").primaryKey(),
    fiveMinutesUntil: c.int8("five_minutes_until").notNull(),
    hoursUntil: c.int8("hours_until").notNull(),
  });

  /** Plugin records (spec 2.2), bound to the token of their first accepted push. */
  const plugins = c.table("plugins", {
    uuid: c.text("uuid").primaryKey(),
    tokenId: c.int8("token_id").notNull().references(() => tokens.id),
    name: c.text("name"),
    version: c.text("version"),
    stats: c.jsonOr<Record<string, number>>("stats", "{}"),
    meta: c.jsonOr<Record<string, unknown>>("meta", "{}"),
    minecraftVersions: c.jsonOr<string[]>("minecraft_versions", "[]"),
    serverSoftware: c.jsonOr<string[]>("server_software", "[]"),
    firstSeen: c.int8("first_seen").notNull(),
    lastSeen: c.int8("last_seen").notNull(),
  });

  /**
   * How far back the replay memory (used_signatures) reaches: every push
   * accepted with a timestamp at or after `coveredSince` is remembered, under
   * the clock window `clockSkewMs` its rows were kept for. One row (id 1). A
   * raised PENNANT_CLOCK_SKEW would otherwise re-open pushes whose rows were
   * swept when the smaller window closed on them (src/store/replay-memory.ts).
   */
  const replayMemory = c.table("replay_memory", {
    id: c.int("id").primaryKey(),
    clockSkewMs: c.int8("clock_skew_ms").notNull(),
    coveredSince: c.int8("covered_since").notNull(),
  });

  /**
   * Accepted pushes, kept until their timestamp can no longer pass the clock
   * window (src/auth/replay.ts). `signature` holds the replay key: a hash of the
   * token, the timestamp's instant and the signature bytes, so no spelling of
   * them (hex case, seconds or milliseconds) passes twice. `fingerprint` hashes
   * the route, subject and body the push carried, telling an exact duplicate
   * from the signature reused elsewhere; null in rows kept under the earlier
   * key (route, subject, scheme), which start-up drops (store/replay-memory.ts).
   */
  const usedSignatures = c.table(
    "used_signatures",
    {
      signature: c.text("signature").primaryKey(),
      expiresAt: c.int8("expires_at").notNull(),
      fingerprint: c.text("fingerprint"),
    },
    (table) => [c.index("used_signatures_expires").on(table.expiresAt)],
  );

  /**
   * Alert subscriptions of a server (src/alerts): where to send which events,
   * in which format. `secret` keys the HMAC of every delivery, so it is kept as
   * is (a hash could not sign). `requestKey` is the replay key of the signed
   * request that made it: an exact duplicate of that request is answered with
   * the same subscription, not a second one. A `discord-live` subscription
   * sends no events: it keeps one Discord message current (the live_ columns).
   */
  const webhooks = c.table(
    "webhooks",
    {
      id: c.text("id").primaryKey(),
      serverUuid: ofServer(),
      url: c.text("url").notNull(),
      events: c.json<string[]>("events").notNull(),
      format: c.text("format", { enum: ["json", "discord", "discord-live"] }).notNull(),
      secret: c.text("secret").notNull(),
      requestKey: c.text("request_key").notNull().unique(),
      createdAt: c.int8("created_at").notNull(),
      /** Since when every delivery has failed (null after a success). */
      failingSince: c.int8("failing_since"),
      /** Set once deliveries have failed for a day: nothing more is sent. */
      pausedAt: c.int8("paused_at"),
      /** The status code of the last answer (0: no answer), and when. */
      lastStatus: c.int("last_status"),
      lastDeliveryAt: c.int8("last_delivery_at"),
      /** Deliveries given up on: retried for an hour, or over the queue's bound. */
      dropped: c.int("dropped").notNull().default(0),
      /** How long its server must stay offline before `offline` is sent (0: at once, as before grace existed). */
      graceMs: c.int8("grace_ms").notNull().default(0),
      /**
       * The state this subscription was last told, or would have been had it
       * asked for the event: `online` comes only after `offline`. Null in rows
       * made before it existed, until the next claim adopts the server's state.
       */
      toldState: c.text("told_state", { enum: ["online", "offline"] }),
      /** discord-live: the least time between two requests for its message. */
      intervalMs: c.int8("interval_ms").notNull().default(0),
      /** discord-live: Discord's id of the message posted; null until then, and once it is found deleted. */
      messageId: c.text("message_id"),
      /** discord-live: a digest of what the message shows (live-embed.ts); a server that would show another is edited. */
      shown: c.text("shown"),
      /** discord-live: no request for its message before this (the interval, Discord's rate limits). */
      liveNextAt: c.int8("live_next_at").notNull().default(0),
      /** discord-live: until when an instance holds the message for a post or an edit. */
      liveLeasedUntil: c.int8("live_leased_until").notNull().default(0),
    },
    (table) => [c.index("webhooks_server").on(table.serverUuid)],
  );

  /**
   * The online/offline state and player record alerts last saw per watched server. Moving either is
   * the claim on the event: of the instances that see a transition, the one
   * whose conditional update changes the row queues the deliveries.
   */
  const webhookStates = c.table("webhook_states", {
    serverUuid: c.text("server_uuid").primaryKey().references(() => servers.uuid, { onDelete: "cascade" }),
    state: c.text("state", { enum: ["online", "offline"] }).notNull(),
    changedAt: c.int8("changed_at").notNull(),
    /** The most players online a sweep has seen: passing it is the players_record event, claimed alike. */
    playersRecord: c.int("players_record"),
  });

  /** Deliveries waiting for their (next) attempt. */
  const webhookDeliveries = c.table(
    "webhook_deliveries",
    {
      id: c.rowId("id"),
      webhookId: c.text("webhook_id").notNull().references(() => webhooks.id, { onDelete: "cascade" }),
      /** The body as it is sent, built when the event was claimed. */
      body: c.text("body").notNull(),
      /** When the event was claimed: retries stop an hour after it. */
      createdAt: c.int8("created_at").notNull(),
      attempts: c.int("attempts").notNull().default(0),
      nextAt: c.int8("next_at").notNull(),
      /** Until when an instance holds it for an attempt. */
      leasedUntil: c.int8("leased_until").notNull().default(0),
    },
    (table) => [c.index("webhook_deliveries_next").on(table.nextAt), c.index("webhook_deliveries_webhook").on(table.webhookId)],
  );

  /**
   * Networks (issue 24): a token's name for servers it owns, summed by one
   * banner and badge. The slug is the network's address and is bound to the
   * token that named it first; a token's networks go with it.
   */
  const networks = c.table(
    "networks",
    {
      slug: c.text("slug").primaryKey(),
      tokenId: c.int8("token_id").notNull().references(() => tokens.id, { onDelete: "cascade" }),
      name: c.text("name").notNull(),
      createdAt: c.int8("created_at").notNull(),
      updatedAt: c.int8("updated_at").notNull(),
    },
    (table) => [c.index("networks_token").on(table.tokenId)],
  );

  /** The servers of a network, in the order they were named; a server removed leaves its networks. */
  const networkMembers = c.table(
    "network_members",
    {
      networkSlug: c.text("network_slug").notNull().references(() => networks.slug, { onDelete: "cascade" }),
      serverUuid: ofServer(),
      position: c.int("position").notNull(),
    },
    (table) => [c.primaryKey({ columns: [table.networkSlug, table.serverUuid] }), c.index("network_members_server").on(table.serverUuid)],
  );

  /**
   * Server pushes refused in the last day (src/store/push-refusals.ts), per
   * server UUID, error code and token, so that `pennant servers` (another
   * process) and every instance see why a server does not appear. `token_id`
   * is the token the request was authenticated with, 0 when it was not (an
   * unknown token, a bad signature): no reference, as the UUID may never have
   * been accepted and the token may be gone. At most MAX_REFUSAL_ROWS rows.
   */
  const pushRefusals = c.table(
    "push_refusals",
    {
      serverUuid: c.text("server_uuid").notNull(),
      code: c.text("code").notNull(),
      tokenId: c.int8("token_id").notNull(),
      count: c.int8("count").notNull(),
      /** The latest refusal's time. */
      lastAt: c.int8("last_at").notNull(),
    },
    (table) => [
      c.primaryKey({ columns: [table.serverUuid, table.code, table.tokenId] }),
      /** The pruning reads rows by time. */
      c.index("push_refusals_last_at").on(table.lastAt),
    ],
  );

  return {
    tokens, servers, serverSamples, serverHistory, historyMarks, plugins, replayMemory, usedSignatures, webhooks, webhookStates,
    webhookDeliveries, networks, networkMembers, pushRefusals,
  };
}

/** Each backend's table of each name. */
export type StoreTables = ReturnType<typeof storeTables>;
