// Plugin records (read by badges and plugin banners).

import { eq } from "drizzle-orm";
import type { Db, Tx } from "./database.ts";
import { definedOnly } from "./defined.ts";
import { NotOwnerError } from "./errors.ts";
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

export function getPlugin(db: Db, uuid: string): PluginRow | undefined {
  return db.select().from(plugins).where(eq(plugins.uuid, uuid)).get();
}

export function writePluginPush(
  tx: Tx,
  push: { uuid: string; tokenId: number; now: number; fields: PluginFields },
): PluginRow {
  const { uuid, tokenId, now, fields } = push;
  const existing = tx.select().from(plugins).where(eq(plugins.uuid, uuid)).get();
  if (existing && existing.tokenId !== tokenId) throw new NotOwnerError("plugin");

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
