// The PostgreSQL migrations (migrations-pg/, written by `npm run db:generate:pg`),
// embedded by import so that they travel inside the compiled binary. After
// drizzle-kit adds one, add its import to PG_SQL_BY_TAG.

import type { MigrationMeta } from "drizzle-orm/migrator";
import journal from "../../../migrations-pg/meta/_journal.json" with { type: "json" };
import init from "../../../migrations-pg/0000_init.sql" with { type: "text" };
import pushFunction from "../../../migrations-pg/0001_push_function.sql" with { type: "text" };
import webhooks from "../../../migrations-pg/0002_webhooks.sql" with { type: "text" };
import webhookPlayersRecord from "../../../migrations-pg/0003_webhook_players_record.sql" with { type: "text" };
import serverHistory from "../../../migrations-pg/0004_server_history.sql" with { type: "text" };
import sampleStatus from "../../../migrations-pg/0005_sample_status.sql" with { type: "text" };
import pushSampleStatus from "../../../migrations-pg/0006_push_sample_status.sql" with { type: "text" };
import networks from "../../../migrations-pg/0007_networks.sql" with { type: "text" };
import serverPage from "../../../migrations-pg/0008_server_page.sql" with { type: "text" };
import pushRefusals from "../../../migrations-pg/0009_push_refusals.sql" with { type: "text" };
import discordLive from "../../../migrations-pg/0010_discord_live.sql" with { type: "text" };
import { migrationMeta, type JournalEntry } from "../embedded-migrations.ts";

export const PG_SQL_BY_TAG: Record<string, string> = {
  "0000_init": init,
  "0001_push_function": pushFunction,
  "0002_webhooks": webhooks,
  "0003_webhook_players_record": webhookPlayersRecord,
  "0004_server_history": serverHistory,
  "0005_sample_status": sampleStatus,
  "0006_push_sample_status": pushSampleStatus,
  "0007_networks": networks,
  "0008_server_page": serverPage,
  "0009_push_refusals": pushRefusals,
  "0010_discord_live": discordLive,
};

export function pgEmbeddedMigrations(entries: JournalEntry[] = journal.entries): MigrationMeta[] {
  return migrationMeta(entries, PG_SQL_BY_TAG, "src/store/postgres/postgres-migrations.ts");
}
