// The database schema. drizzle-kit generates the SQL in migrations/ from this
// file (`npm run db:generate`); times are milliseconds since the epoch.

import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { TOKEN_SCOPES } from "../auth/token.ts";

/** API tokens. Only a SHA-256 hash of each token is kept. */
export const sqliteTokens = sqliteTable("tokens", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  hash: text("hash").notNull().unique(),
  scope: text("scope", { enum: TOKEN_SCOPES }).notNull(),
  label: text("label").notNull().default(""),
  /** "cli" for tokens made by `token create`, "registration" for open registration. */
  origin: text("origin", { enum: ["cli", "registration"] }).notNull(),
  createdAt: integer("created_at").notNull(),
  lastUsedAt: integer("last_used_at"),
  revokedAt: integer("revoked_at"),
});

/** Server records (spec 2.1), bound to the token of their first accepted push. */
export const sqliteServers = sqliteTable("servers", {
  uuid: text("uuid").primaryKey(),
  tokenId: integer("token_id")
    .notNull()
    .references(() => sqliteTokens.id),
  name: text("name"),
  pluginVersion: text("plugin_version"),
  status: text("status"),
  playersOnline: integer("players_online"),
  playersMax: integer("players_max"),
  tps: real("tps"),
  motd: text("motd"),
  version: text("version"),
  /** Further stats some plugin builds send (tps_5m, uptime, placeholders...), as JSON. */
  extra: text("extra", { mode: "json" }).$type<Record<string, unknown>>(),
  firstSeen: integer("first_seen").notNull(),
  lastSeen: integer("last_seen").notNull(),
  /** Time of the last stats update (heartbeats only move last_seen). */
  statsUpdatedAt: integer("stats_updated_at"),
});

/**
 * Player/TPS history kept for 30 days: one row per server per minute, which
 * the accepted updates of that minute write into (src/store/sqlite-push.ts), so a
 * server pushing 600 times a minute keeps one row, not 600.
 */
export const sqliteServerSamples = sqliteTable(
  "server_samples",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    serverUuid: text("server_uuid")
      .notNull()
      .references(() => sqliteServers.uuid, { onDelete: "cascade" }),
    /** Time of the minute's latest update. */
    at: integer("at").notNull(),
    /** The minute's highest count: the banner's history plots the highest per 5 minutes. */
    playersOnline: integer("players_online"),
    playersMax: integer("players_max"),
    tps: real("tps"),
    /** Whether the minute's latest update said "online": the roll-up counts the server offline from an update that did not. */
    online: integer("online", { mode: "boolean" }).notNull().default(true),
    /** Minutes since the epoch, computed from `at`; with the server, the row's key. */
    minute: integer("minute").generatedAlwaysAs(sql`at / 60000`, { mode: "virtual" }),
  },
  (table) => [
    index("server_samples_server_at").on(table.serverUuid, table.at),
    /** The history sweep reads and drops samples by time across servers. */
    index("server_samples_at").on(table.at),
    uniqueIndex("server_samples_server_minute").on(table.serverUuid, table.minute),
  ],
);

/**
 * A server's rolled-up history (src/store/history.ts): 5-minute buckets
 * (`step_ms` 300000) made from server_samples, kept 30 days, and hourly
 * buckets (3600000) made from those, kept a year. A bucket is recomputed whole
 * from its source rows, so writing it twice writes the same row.
 */
export const sqliteServerHistory = sqliteTable(
  "server_history",
  {
    serverUuid: text("server_uuid")
      .notNull()
      .references(() => sqliteServers.uuid, { onDelete: "cascade" }),
    stepMs: integer("step_ms").notNull(),
    /** The bucket's start, a multiple of step_ms. */
    at: integer("at").notNull(),
    /** Fewest, mean and most players online over the bucket's samples; null when it has none. */
    playersMin: integer("players_min"),
    playersAvg: real("players_avg"),
    playersMax: integer("players_max"),
    /** How many minute samples the bucket holds: the weight of its mean in a wider bucket. */
    samples: integer("samples").notNull(),
    /** The fraction of the bucket the server was online (0..1). */
    online: real("online").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.serverUuid, table.stepMs, table.at] }),
    /** The sweep reads and drops a level by time across servers. */
    index("server_history_step_at").on(table.stepMs, table.at),
  ],
);

/**
 * How far the history sweep has rolled up (one row, id 1): every 5-minute
 * bucket before `five_minutes_until` and every hourly one before
 * `hours_until` is written. Source rows are dropped only below these marks.
 */
export const sqliteHistoryMarks = sqliteTable("history_marks", {
  id: integer("id").primaryKey(),
  fiveMinutesUntil: integer("five_minutes_until").notNull(),
  hoursUntil: integer("hours_until").notNull(),
});

/** Plugin records (spec 2.2), bound to the token of their first accepted push. */
export const sqlitePlugins = sqliteTable("plugins", {
  uuid: text("uuid").primaryKey(),
  tokenId: integer("token_id")
    .notNull()
    .references(() => sqliteTokens.id),
  name: text("name"),
  version: text("version"),
  stats: text("stats", { mode: "json" })
    .$type<Record<string, number>>()
    .notNull()
    .default(sql`'{}'`),
  meta: text("meta", { mode: "json" })
    .$type<Record<string, unknown>>()
    .notNull()
    .default(sql`'{}'`),
  minecraftVersions: text("minecraft_versions", { mode: "json" })
    .$type<string[]>()
    .notNull()
    .default(sql`'[]'`),
  serverSoftware: text("server_software", { mode: "json" })
    .$type<string[]>()
    .notNull()
    .default(sql`'[]'`),
  firstSeen: integer("first_seen").notNull(),
  lastSeen: integer("last_seen").notNull(),
});

/**
 * How far back the replay memory (used_signatures) reaches: every push
 * accepted with a timestamp at or after `coveredSince` is remembered, under
 * the clock window `clockSkewMs` its rows were kept for. One row (id 1). A
 * raised PENNANT_CLOCK_SKEW would otherwise re-open pushes whose rows were
 * swept when the smaller window closed on them (src/store/replay-memory.ts).
 */
export const sqliteReplayMemory = sqliteTable("replay_memory", {
  id: integer("id").primaryKey(),
  clockSkewMs: integer("clock_skew_ms").notNull(),
  coveredSince: integer("covered_since").notNull(),
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
export const sqliteUsedSignatures = sqliteTable(
  "used_signatures",
  {
    signature: text("signature").primaryKey(),
    expiresAt: integer("expires_at").notNull(),
    fingerprint: text("fingerprint"),
  },
  (table) => [index("used_signatures_expires").on(table.expiresAt)],
);

/**
 * Alert subscriptions of a server (src/alerts): where to send which events,
 * in which format. `secret` keys the HMAC of every delivery, so it is kept as
 * is (a hash could not sign). `requestKey` is the replay key of the signed
 * request that made it: an exact duplicate of that request is answered with
 * the same subscription, not a second one.
 */
export const sqliteWebhooks = sqliteTable(
  "webhooks",
  {
    id: text("id").primaryKey(),
    serverUuid: text("server_uuid")
      .notNull()
      .references(() => sqliteServers.uuid, { onDelete: "cascade" }),
    url: text("url").notNull(),
    events: text("events", { mode: "json" }).$type<string[]>().notNull(),
    format: text("format", { enum: ["json", "discord"] }).notNull(),
    secret: text("secret").notNull(),
    requestKey: text("request_key").notNull().unique(),
    createdAt: integer("created_at").notNull(),
    /** Since when every delivery has failed (null after a success). */
    failingSince: integer("failing_since"),
    /** Set once deliveries have failed for a day: nothing more is sent. */
    pausedAt: integer("paused_at"),
    /** The status code of the last answer (0: no answer), and when. */
    lastStatus: integer("last_status"),
    lastDeliveryAt: integer("last_delivery_at"),
    /** Deliveries given up on: retried for an hour, or over the queue's bound. */
    dropped: integer("dropped").notNull().default(0),
  },
  (table) => [index("webhooks_server").on(table.serverUuid)],
);

/**
 * The online/offline state and player record alerts last saw per watched server. Moving either is
 * the claim on the event: of the instances that see a transition, the one
 * whose conditional update changes the row queues the deliveries.
 */
export const sqliteWebhookStates = sqliteTable("webhook_states", {
  serverUuid: text("server_uuid")
    .primaryKey()
    .references(() => sqliteServers.uuid, { onDelete: "cascade" }),
  state: text("state", { enum: ["online", "offline"] }).notNull(),
  changedAt: integer("changed_at").notNull(),
  /** The most players online a sweep has seen: passing it is the players_record event, claimed alike. */
  playersRecord: integer("players_record"),
});

/** Deliveries waiting for their (next) attempt. */
export const sqliteWebhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    webhookId: text("webhook_id")
      .notNull()
      .references(() => sqliteWebhooks.id, { onDelete: "cascade" }),
    /** The body as it is sent, built when the event was claimed. */
    body: text("body").notNull(),
    /** When the event was claimed: retries stop an hour after it. */
    createdAt: integer("created_at").notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAt: integer("next_at").notNull(),
    /** Until when an instance holds it for an attempt. */
    leasedUntil: integer("leased_until").notNull().default(0),
  },
  (table) => [index("webhook_deliveries_next").on(table.nextAt), index("webhook_deliveries_webhook").on(table.webhookId)],
);

/**
 * Networks (issue 24): a token's name for servers it owns, summed by one
 * banner and badge. The slug is the network's address and is bound to the
 * token that named it first; a token's networks go with it.
 */
export const sqliteNetworks = sqliteTable(
  "networks",
  {
    slug: text("slug").primaryKey(),
    tokenId: integer("token_id")
      .notNull()
      .references(() => sqliteTokens.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (table) => [index("networks_token").on(table.tokenId)],
);

/** The servers of a network, in the order they were named; a server removed leaves its networks. */
export const sqliteNetworkMembers = sqliteTable(
  "network_members",
  {
    networkSlug: text("network_slug")
      .notNull()
      .references(() => sqliteNetworks.slug, { onDelete: "cascade" }),
    serverUuid: text("server_uuid")
      .notNull()
      .references(() => sqliteServers.uuid, { onDelete: "cascade" }),
    position: integer("position").notNull(),
  },
  (table) => [primaryKey({ columns: [table.networkSlug, table.serverUuid] }), index("network_members_server").on(table.serverUuid)],
);
