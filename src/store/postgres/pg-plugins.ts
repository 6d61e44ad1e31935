// Plugin records, in PostgreSQL, as they are read. A push writes them in one
// call of pennant_plugin_push (pg-push.ts).

import { eq } from "drizzle-orm";
import type { PluginRow } from "../records.ts";
import type { PgDb } from "./open-postgres.ts";
import { pgPlugins } from "./postgres-schema.ts";

export async function pgGetPlugin(db: PgDb, uuid: string): Promise<PluginRow | undefined> {
  const [row] = await db.select().from(pgPlugins).where(eq(pgPlugins.uuid, uuid));
  return row;
}
