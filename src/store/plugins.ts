// Plugin records (read by badges and plugin banners), as they are read; a push
// writes them (sqlite-push.ts, passed on here for the tests and benches that seed one).

import { eq } from "drizzle-orm";
import type { Db } from "./database.ts";
import type { PluginRow } from "./records.ts";
import { sqlitePlugins } from "./schema.ts";

export { writePluginPush } from "./sqlite-push.ts";

export function sqliteGetPlugin(db: Db, uuid: string): PluginRow | undefined {
  return db.select().from(sqlitePlugins).where(eq(sqlitePlugins.uuid, uuid)).get();
}
