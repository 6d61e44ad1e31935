// Plugin records (read by badges and plugin banners).

import { count, eq } from "drizzle-orm";
import type { Db, Tx } from "./database.ts";
import { definedOnly } from "./defined.ts";
import { NotOwnerError, RecordLimitError } from "./write-refusals.ts";
import type { PluginFields, PluginRow } from "./records.ts";
import { sqlitePlugins } from "./schema.ts";

export function sqliteGetPlugin(db: Db, uuid: string): PluginRow | undefined {
  return db.select().from(sqlitePlugins).where(eq(sqlitePlugins.uuid, uuid)).get();
}

/**
 * The first push binds the plugin to the token; another token's push throws
 * NotOwnerError, and a new plugin beyond the token's `maxPerToken` throws
 * RecordLimitError.
 */
export function writePluginPush(
  tx: Tx,
  push: { uuid: string; tokenId: number; now: number; fields: PluginFields; maxPerToken: number },
): PluginRow {
  const { uuid, tokenId, now, fields } = push;
  const existing = tx.select().from(sqlitePlugins).where(eq(sqlitePlugins.uuid, uuid)).get();
  if (existing && existing.tokenId !== tokenId) throw new NotOwnerError("plugin");
  if (!existing) {
    const owned = tx.select({ n: count() }).from(sqlitePlugins).where(eq(sqlitePlugins.tokenId, tokenId)).get()?.n ?? 0;
    if (owned >= push.maxPerToken) throw new RecordLimitError("plugin", push.maxPerToken);
  }

  const values = {
    ...definedOnly(fields),
    lastSeen: now,
  };
  return existing
    ? tx.update(sqlitePlugins).set(values).where(eq(sqlitePlugins.uuid, uuid)).returning().get()
    : tx
        .insert(sqlitePlugins)
        .values({ uuid, tokenId, firstSeen: now, ...values })
        .returning()
        .get();
}
