// Plugin records, in PostgreSQL: one upsert whose update applies only for the
// owning token (see pg-servers.ts).

import { eq, sql } from "drizzle-orm";
import { definedOnly } from "../defined.ts";
import type { PluginFields, PluginRow } from "../records.ts";
import { NotOwnerError } from "../write-refusals.ts";
import type { PgDb, PgTx } from "./open-postgres.ts";
import { plugins } from "./postgres-schema.ts";

/** The stored JSON bytes of a plugin record (meta and stats), as PostgreSQL writes the JSON out. */
export const PLUGIN_JSON_BYTES = sql<number>`octet_length(${plugins.meta}::text) + octet_length(${plugins.stats}::text)`.mapWith(Number);

export async function getPlugin(db: PgDb, uuid: string): Promise<PluginRow | undefined> {
  const [row] = await db.select().from(plugins).where(eq(plugins.uuid, uuid));
  return row;
}

/**
 * Writes a push of a plugin this token owns or that does not exist yet (the
 * caller has checked its record limit), and returns the record's stored JSON
 * bytes after it; NotOwnerError when another token owns it. Each field
 * present replaces the stored value whole.
 */
export async function writePluginPush(tx: PgTx, push: { uuid: string; tokenId: number; now: number; fields: PluginFields }): Promise<number> {
  const { uuid, tokenId, now, fields } = push;
  const values = { ...definedOnly(fields), lastSeen: now };
  const [row] = await tx
    .insert(plugins)
    .values({ uuid, tokenId, firstSeen: now, ...values })
    .onConflictDoUpdate({ target: plugins.uuid, set: values, setWhere: sql`plugins.token_id = excluded.token_id` })
    .returning({ jsonBytes: PLUGIN_JSON_BYTES });
  if (!row) throw new NotOwnerError("plugin");
  return row.jsonBytes;
}
