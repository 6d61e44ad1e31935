// Plugin records (read by badges and plugin banners).

import { count, eq } from "drizzle-orm";
import type { Db, Tx } from "./database.ts";
import { definedOnly } from "./defined.ts";
import { NotOwnerError, RecordLimitError } from "./write-refusals.ts";
import { plugins } from "./schema.ts";

export type PluginRow = typeof plugins.$inferSelect;

/** Fields a push may set; each one present replaces the stored value whole. */
export interface PluginFields {
  name?: string;
  version?: string;
  stats?: Record<string, number>;
  meta?: Record<string, unknown>;
  minecraftVersions?: string[];
  serverSoftware?: string[];
}

/** How long after its last push a plugin counts as active (spec section 3). */
const ACTIVE_WITHIN_MS = 24 * 3_600_000;

/** Whether a plugin record was pushed within the last 24 hours at `now`: what plugin banners and the status badge show. */
export function isPluginActive(record: Pick<PluginRow, "lastSeen">, now: number): boolean {
  return now - record.lastSeen <= ACTIVE_WITHIN_MS;
}

export function getPlugin(db: Db, uuid: string): PluginRow | undefined {
  return db.select().from(plugins).where(eq(plugins.uuid, uuid)).get();
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
  const existing = tx.select().from(plugins).where(eq(plugins.uuid, uuid)).get();
  if (existing && existing.tokenId !== tokenId) throw new NotOwnerError("plugin");
  if (!existing) {
    const owned = tx.select({ n: count() }).from(plugins).where(eq(plugins.tokenId, tokenId)).get()?.n ?? 0;
    if (owned >= push.maxPerToken) throw new RecordLimitError("plugin", push.maxPerToken);
  }

  const values = {
    ...definedOnly(fields),
    lastSeen: now,
  };
  return existing
    ? tx.update(plugins).set(values).where(eq(plugins.uuid, uuid)).returning().get()
    : tx
        .insert(plugins)
        .values({ uuid, tokenId, firstSeen: now, ...values })
        .returning()
        .get();
}
