// SQLite's tables (store-tables.ts built with SQLite's columns). drizzle-kit
// generates the SQL in migrations/ from this file (`npm run db:generate`),
// reading the tables it exports by name.

import { SQLITE_COLUMNS } from "./sqlite-columns.ts";
import { storeTables } from "./store-tables.ts";

export const SQLITE_TABLES = storeTables(SQLITE_COLUMNS);

export const {
  tokens: sqliteTokens, servers: sqliteServers, serverSamples: sqliteServerSamples, serverHistory: sqliteServerHistory,
  historyMarks: sqliteHistoryMarks, plugins: sqlitePlugins, replayMemory: sqliteReplayMemory, usedSignatures: sqliteUsedSignatures,
  webhooks: sqliteWebhooks, webhookStates: sqliteWebhookStates, webhookDeliveries: sqliteWebhookDeliveries, networks: sqliteNetworks,
  networkMembers: sqliteNetworkMembers, pushRefusals: sqlitePushRefusals,
} = SQLITE_TABLES;
