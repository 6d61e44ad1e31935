// Server records and their player history.

import { and, asc, desc, eq, gte, isNotNull, sql } from "drizzle-orm";
import type { Db } from "./database.ts";
import type { PushStatements } from "./push-statements.ts";
import { NotOwnerError, RecordLimitError } from "./write-refusals.ts";
import { HISTORY_MS, type ServerFields, type ServerPushKind, type ServerRow, type ServerSample } from "./records.ts";
import { sqliteServerSamples, sqliteServers } from "./schema.ts";

export function sqliteGetServer(db: Db, uuid: string): ServerRow | undefined {
  return db.select().from(sqliteServers).where(eq(sqliteServers.uuid, uuid)).get();
}

/**
 * Writes a heartbeat or an update. The first push binds the server to the
 * token; another token's push throws NotOwnerError, and a new server beyond
 * the token's `maxPerToken` throws RecordLimitError. An update also writes
 * the history sample of its minute (an upsert on the unique (server, minute)
 * index, so concurrent pushes cannot both insert: the first update of a
 * minute inserts the row, later ones keep the minute's highest players
 * online, since the banner plots the highest count per 5 minutes, and take
 * the latest time, players max, TPS and status) and drops this server's
 * samples older than 30 days. Runs inside the push's transaction.
 */
export function writeServerPush(
  statements: PushStatements,
  push: { uuid: string; tokenId: number; now: number; kind: ServerPushKind; fields: ServerFields; maxPerToken: number },
): void {
  const { uuid, tokenId, now, kind, fields } = push;
  const existing = statements.server(uuid);
  if (existing && existing.tokenId !== tokenId) throw new NotOwnerError("server");
  if (!existing && statements.serversOwned(tokenId) >= push.maxPerToken) throw new RecordLimitError("server", push.maxPerToken);

  const { extra, ...set } = fields;
  // Extra stats merge key by key into the stored ones.
  const mergedExtra = extra ? JSON.stringify({ ...(existing?.extra ? JSON.parse(existing.extra) : {}), ...extra }) : null;
  const columns = {
    name: set.name ?? null,
    pluginVersion: set.pluginVersion ?? null,
    status: set.status ?? null,
    playersOnline: set.playersOnline ?? null,
    playersMax: set.playersMax ?? null,
    tps: set.tps ?? null,
    motd: set.motd ?? null,
    version: set.version ?? null,
    extra: mergedExtra,
    statsUpdatedAt: kind === "update" ? now : null,
  };
  const written = existing ? statements.updateServer(uuid, now, columns) : statements.insertServer(uuid, tokenId, now, columns);

  if (kind === "update") {
    const { status, ...figures } = written;
    // Any status other than "online" reads as offline, as banners read it (minecraft/status.ts).
    statements.writeSample(uuid, now, { ...figures, online: status === "online" ? 1 : 0 });
    statements.dropSamplesBefore(uuid, now - HISTORY_MS);
  }
}

/** Every server record, the most recently seen first (for the operator's `servers` command). */
export function sqliteListServers(db: Db): ServerRow[] {
  return db.select().from(sqliteServers).orderBy(desc(sqliteServers.lastSeen)).all();
}

/** Samples of one server since a time, oldest first (for history charts). */
export function sqliteListSamples(db: Db, uuid: string, since: number): ServerSample[] {
  return db
    .select()
    .from(sqliteServerSamples)
    .where(and(eq(sqliteServerSamples.serverUuid, uuid), gte(sqliteServerSamples.at, since)))
    .orderBy(asc(sqliteServerSamples.at))
    .all();
}

/**
 * Players online since a time, one point per `bucketMs` (aligned to the
 * epoch, so buckets stay put as time moves): the bucket's highest count at
 * its newest sample's time, oldest first. A chart needs a few hundred points
 * whatever the push rate; grouping in SQL keeps a server that pushes every
 * second from costing its banner thousands of rows.
 */
export function sqliteListSampleBuckets(db: Db, uuid: string, since: number, bucketMs: number): Array<{ at: number; online: number }> {
  const bucket = sql`${sqliteServerSamples.at} / ${Math.max(1, Math.floor(bucketMs))}`;
  return db
    .select({ at: sql<number>`max(${sqliteServerSamples.at})`, online: sql<number>`max(${sqliteServerSamples.playersOnline})` })
    .from(sqliteServerSamples)
    .where(and(eq(sqliteServerSamples.serverUuid, uuid), gte(sqliteServerSamples.at, since), isNotNull(sqliteServerSamples.playersOnline)))
    .groupBy(bucket)
    .orderBy(bucket)
    .all();
}
