// The SQLite migrations (migrations/, written by `npm run db:generate`),
// embedded by import so that they travel inside the compiled binary
// (embedded-migrations.ts). After drizzle-kit adds one, add its import to
// SQLITE_SQL_BY_TAG: a test fails if the journal names a migration not listed.

import type { MigrationMeta } from "drizzle-orm/migrator";
import journal from "../../migrations/meta/_journal.json" with { type: "json" };
import init from "../../migrations/0000_init.sql" with { type: "text" };
import replayMemory from "../../migrations/0001_replay_memory.sql" with { type: "text" };
import replayFingerprint from "../../migrations/0002_replay_fingerprint.sql" with { type: "text" };
import foldSamplesPerMinute from "../../migrations/0003_fold_samples_per_minute.sql" with { type: "text" };
import samplesPerMinute from "../../migrations/0004_samples_per_minute.sql" with { type: "text" };
import webhooks from "../../migrations/0005_webhooks.sql" with { type: "text" };
import webhookPlayersRecord from "../../migrations/0006_webhook_players_record.sql" with { type: "text" };
import serverHistory from "../../migrations/0007_server_history.sql" with { type: "text" };
import sampleStatus from "../../migrations/0008_sample_status.sql" with { type: "text" };
import networks from "../../migrations/0009_networks.sql" with { type: "text" };
import historyWithoutRowid from "../../migrations/0010_history_without_rowid.sql" with { type: "text" };
import serverPage from "../../migrations/0011_server_page.sql" with { type: "text" };
import pushRefusals from "../../migrations/0012_push_refusals.sql" with { type: "text" };
import discordLive from "../../migrations/0013_discord_live.sql" with { type: "text" };
import { migrationMeta, type JournalEntry } from "./embedded-migrations.ts";

export const SQLITE_SQL_BY_TAG: Record<string, string> = {
  "0000_init": init,
  "0001_replay_memory": replayMemory,
  "0002_replay_fingerprint": replayFingerprint,
  "0003_fold_samples_per_minute": foldSamplesPerMinute,
  "0004_samples_per_minute": samplesPerMinute,
  "0005_webhooks": webhooks,
  "0006_webhook_players_record": webhookPlayersRecord,
  "0007_server_history": serverHistory,
  "0008_sample_status": sampleStatus,
  "0009_networks": networks,
  "0010_history_without_rowid": historyWithoutRowid,
  "0011_server_page": serverPage,
  "0012_push_refusals": pushRefusals,
  "0013_discord_live": discordLive,
};

export function sqliteEmbeddedMigrations(entries: JournalEntry[] = journal.entries): MigrationMeta[] {
  return migrationMeta(entries, SQLITE_SQL_BY_TAG, "src/store/migrations.ts");
}
