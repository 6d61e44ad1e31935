// The PostgreSQL schema: the same tables, columns, keys and indexes as the
// SQLite one (src/store/schema.ts), in PostgreSQL's types. drizzle-kit
// generates the SQL in migrations-pg/ from this file (`npm run db:generate:pg`).
//
// Times are milliseconds since the epoch: bigint, read back as numbers (Bun's
// client returns int8 as a string otherwise). SQLite's real is 8 bytes, so
// decimals are double precision, not PostgreSQL's 4-byte real. Row ids are
// identities "by default", so that a copy from SQLite can keep its ids.

import { sql } from "drizzle-orm";
import { bigint, boolean, customType, doublePrecision, index, integer, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { TOKEN_SCOPES } from "../../auth/token.ts";

/**
 * A jsonb column that holds the value itself. drizzle's own jsonb() hands the
 * driver JSON text, which Bun's client sends as a string: PostgreSQL then
 * keeps a JSON string (jsonb_typeof says 'string', `->>` finds nothing;
 * drizzle issue 5287). Bun's client encodes an object or an array as jsonb.
 */
function jsonb<T>(name: string) {
  return customType<{ data: T; driverData: T }>({
    dataType: () => "jsonb",
    toDriver: (value) => value,
  })(name);
}

/** An int8 read back as a number: ids, and times in milliseconds. */
function int8(name: string) {
  return bigint(name, { mode: "number" });
}

/** API tokens. Only a SHA-256 hash of each token is kept. */
export const pgTokens = pgTable("tokens", {
  id: int8("id").primaryKey().generatedByDefaultAsIdentity(),
  hash: text("hash").notNull().unique(),
  scope: text("scope", { enum: TOKEN_SCOPES }).notNull(),
  label: text("label").notNull().default(""),
  /** "cli" for tokens made by `token create`, "registration" for open registration. */
  origin: text("origin", { enum: ["cli", "registration"] }).notNull(),
  createdAt: int8("created_at").notNull(),
  lastUsedAt: int8("last_used_at"),
  revokedAt: int8("revoked_at"),
});

/** Server records (spec 2.1), bound to the token of their first accepted push. */
export const pgServers = pgTable("servers", {
  uuid: text("uuid").primaryKey(),
  tokenId: int8("token_id")
    .notNull()
    .references(() => pgTokens.id),
  name: text("name"),
  pluginVersion: text("plugin_version"),
  status: text("status"),
  playersOnline: integer("players_online"),
  playersMax: integer("players_max"),
  tps: doublePrecision("tps"),
  motd: text("motd"),
  version: text("version"),
  /** Further stats some plugin builds send (tps_5m, uptime, placeholders...). */
  extra: jsonb<Record<string, unknown>>("extra"),
  firstSeen: int8("first_seen").notNull(),
  lastSeen: int8("last_seen").notNull(),
  /** Time of the last stats update (heartbeats only move last_seen). */
  statsUpdatedAt: int8("stats_updated_at"),
});

/** Player/TPS history kept for 30 days: one row per server per minute (see src/store/schema.ts). */
export const pgServerSamples = pgTable(
  "server_samples",
  {
    id: int8("id").primaryKey().generatedByDefaultAsIdentity(),
    serverUuid: text("server_uuid")
      .notNull()
      .references(() => pgServers.uuid, { onDelete: "cascade" }),
    /** Time of the minute's latest update. */
    at: int8("at").notNull(),
    /** The minute's highest count: the banner's history plots the highest per 5 minutes. */
    playersOnline: integer("players_online"),
    playersMax: integer("players_max"),
    tps: doublePrecision("tps"),
    /** Whether the minute's latest update said "online" (see ../schema.ts). */
    online: boolean("online").notNull().default(true),
    /** Minutes since the epoch, computed from `at` (integer division); with the server, the row's key. */
    minute: int8("minute").generatedAlwaysAs(sql`at / 60000`),
  },
  (table) => [
    index("server_samples_server_at").on(table.serverUuid, table.at),
    /** The history sweep reads and drops samples by time across servers. */
    index("server_samples_at").on(table.at),
    uniqueIndex("server_samples_server_minute").on(table.serverUuid, table.minute),
  ],
);

/** A server's rolled-up history: 5-minute and hourly buckets (see src/store/schema.ts). */
export const pgServerHistory = pgTable(
  "server_history",
  {
    serverUuid: text("server_uuid")
      .notNull()
      .references(() => pgServers.uuid, { onDelete: "cascade" }),
    stepMs: integer("step_ms").notNull(),
    at: int8("at").notNull(),
    playersMin: integer("players_min"),
    playersAvg: doublePrecision("players_avg"),
    playersMax: integer("players_max"),
    samples: integer("samples").notNull(),
    online: doublePrecision("online").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.serverUuid, table.stepMs, table.at] }),
    /** The sweep reads and drops a level by time across servers. */
    index("server_history_step_at").on(table.stepMs, table.at),
  ],
);

/** How far the history sweep has rolled up (one row, id 1; see src/store/schema.ts). */
export const pgHistoryMarks = pgTable("history_marks", {
  id: integer("id").primaryKey(),
  fiveMinutesUntil: int8("five_minutes_until").notNull(),
  hoursUntil: int8("hours_until").notNull(),
});

/** Plugin records (spec 2.2), bound to the token of their first accepted push. */
export const pgPlugins = pgTable("plugins", {
  uuid: text("uuid").primaryKey(),
  tokenId: int8("token_id")
    .notNull()
    .references(() => pgTokens.id),
  name: text("name"),
  version: text("version"),
  stats: jsonb<Record<string, number>>("stats").notNull().default(sql`'{}'::jsonb`),
  meta: jsonb<Record<string, unknown>>("meta").notNull().default(sql`'{}'::jsonb`),
  minecraftVersions: jsonb<string[]>("minecraft_versions").notNull().default(sql`'[]'::jsonb`),
  serverSoftware: jsonb<string[]>("server_software").notNull().default(sql`'[]'::jsonb`),
  firstSeen: int8("first_seen").notNull(),
  lastSeen: int8("last_seen").notNull(),
});

/** How far back the replay memory reaches (see src/store/schema.ts). One row (id 1). */
export const pgReplayMemory = pgTable("replay_memory", {
  id: integer("id").primaryKey(),
  clockSkewMs: int8("clock_skew_ms").notNull(),
  coveredSince: int8("covered_since").notNull(),
});

/** Accepted pushes, kept until their timestamp can no longer pass the clock window (see src/store/schema.ts). */
export const pgUsedSignatures = pgTable(
  "used_signatures",
  {
    signature: text("signature").primaryKey(),
    expiresAt: int8("expires_at").notNull(),
    fingerprint: text("fingerprint"),
  },
  (table) => [index("used_signatures_expires").on(table.expiresAt)],
);

/** Alert subscriptions of a server (see ../schema.ts). */
export const pgWebhooks = pgTable(
  "webhooks",
  {
    id: text("id").primaryKey(),
    serverUuid: text("server_uuid")
      .notNull()
      .references(() => pgServers.uuid, { onDelete: "cascade" }),
    url: text("url").notNull(),
    events: jsonb<string[]>("events").notNull(),
    format: text("format", { enum: ["json", "discord"] }).notNull(),
    secret: text("secret").notNull(),
    requestKey: text("request_key").notNull().unique(),
    createdAt: int8("created_at").notNull(),
    failingSince: int8("failing_since"),
    pausedAt: int8("paused_at"),
    lastStatus: integer("last_status"),
    lastDeliveryAt: int8("last_delivery_at"),
    dropped: integer("dropped").notNull().default(0),
  },
  (table) => [index("webhooks_server").on(table.serverUuid)],
);

/** The online/offline state alerts last saw per watched server; moving it claims the event (see ../schema.ts). */
export const pgWebhookStates = pgTable("webhook_states", {
  serverUuid: text("server_uuid")
    .primaryKey()
    .references(() => pgServers.uuid, { onDelete: "cascade" }),
  state: text("state", { enum: ["online", "offline"] }).notNull(),
  changedAt: int8("changed_at").notNull(),
  playersRecord: integer("players_record"),
});

/** Deliveries waiting for their (next) attempt (see ../schema.ts). */
export const pgWebhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: int8("id").primaryKey().generatedByDefaultAsIdentity(),
    webhookId: text("webhook_id")
      .notNull()
      .references(() => pgWebhooks.id, { onDelete: "cascade" }),
    body: text("body").notNull(),
    createdAt: int8("created_at").notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAt: int8("next_at").notNull(),
    leasedUntil: int8("leased_until").notNull().default(0),
  },
  (table) => [index("webhook_deliveries_next").on(table.nextAt), index("webhook_deliveries_webhook").on(table.webhookId)],
);

/** Networks: a token's name for servers it owns (see ../schema.ts). */
export const pgNetworks = pgTable(
  "networks",
  {
    slug: text("slug").primaryKey(),
    tokenId: int8("token_id")
      .notNull()
      .references(() => pgTokens.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    createdAt: int8("created_at").notNull(),
    updatedAt: int8("updated_at").notNull(),
  },
  (table) => [index("networks_token").on(table.tokenId)],
);

/** The servers of a network, in the order they were named (see ../schema.ts). */
export const pgNetworkMembers = pgTable(
  "network_members",
  {
    networkSlug: text("network_slug")
      .notNull()
      .references(() => pgNetworks.slug, { onDelete: "cascade" }),
    serverUuid: text("server_uuid")
      .notNull()
      .references(() => pgServers.uuid, { onDelete: "cascade" }),
    position: integer("position").notNull(),
  },
  (table) => [primaryKey({ columns: [table.networkSlug, table.serverUuid] }), index("network_members_server").on(table.serverUuid)],
);
