// Server records and their player history.

import { and, asc, count, desc, eq, gte, isNotNull, lt, sql } from "drizzle-orm";
import type { Db, Tx } from "./database.ts";
import { definedOnly } from "./defined.ts";
import { NotOwnerError, RecordLimitError } from "./write-refusals.ts";
import { HISTORY_MS, type ServerFields, type ServerPushKind, type ServerRow, type ServerSample } from "./records.ts";
import { serverSamples, servers } from "./schema.ts";

export function getServer(db: Db, uuid: string): ServerRow | undefined {
  return db.select().from(servers).where(eq(servers.uuid, uuid)).get();
}

/**
 * Writes a heartbeat or an update. The first push binds the server to the
 * token; another token's push throws NotOwnerError, and a new server beyond
 * the token's `maxPerToken` throws RecordLimitError. An update also writes
 * the history sample of its minute and drops this server's samples older
 * than 30 days.
 */
export function writeServerPush(
  tx: Tx,
  push: { uuid: string; tokenId: number; now: number; kind: ServerPushKind; fields: ServerFields; maxPerToken: number },
): ServerRow {
  const { uuid, tokenId, now, kind, fields } = push;
  const existing = tx.select().from(servers).where(eq(servers.uuid, uuid)).get();
  if (existing && existing.tokenId !== tokenId) throw new NotOwnerError("server");
  if (!existing) {
    const owned = tx.select({ n: count() }).from(servers).where(eq(servers.tokenId, tokenId)).get()?.n ?? 0;
    if (owned >= push.maxPerToken) throw new RecordLimitError("server", push.maxPerToken);
  }

  const { extra, ...columns } = definedOnly(fields);
  const values = {
    ...columns,
    ...(extra ? { extra: { ...(existing?.extra ?? {}), ...extra } } : {}),
    lastSeen: now,
    ...(kind === "update" ? { statsUpdatedAt: now } : {}),
  };
  const row = existing
    ? tx.update(servers).set(values).where(eq(servers.uuid, uuid)).returning().get()
    : tx
        .insert(servers)
        .values({ uuid, tokenId, firstSeen: now, ...values })
        .returning()
        .get();

  if (kind === "update") {
    writeMinuteSample(tx, { serverUuid: uuid, at: now, playersOnline: row.playersOnline, playersMax: row.playersMax, tps: row.tps });
    tx.delete(serverSamples)
      .where(and(eq(serverSamples.serverUuid, uuid), lt(serverSamples.at, now - HISTORY_MS)))
      .run();
  }
  return row;
}

/**
 * Writes an update into its minute's sample in one statement (an upsert on
 * the unique (server, minute) index, so concurrent pushes cannot both insert):
 * the first update of a minute inserts the row, later ones keep the minute's
 * highest players online, since the banner plots the highest count per
 * 5 minutes, and take the latest time, players max and TPS.
 */
function writeMinuteSample(tx: Tx, sample: ServerSample): void {
  const newer = sql`excluded.at >= ${serverSamples.at}`;
  tx.insert(serverSamples)
    .values(sample)
    .onConflictDoUpdate({
      target: [serverSamples.serverUuid, serverSamples.minute],
      set: {
        at: sql`max(${serverSamples.at}, excluded.at)`,
        // max() of a NULL is NULL in SQLite: a count stays once the minute has one.
        playersOnline: sql`coalesce(max(${serverSamples.playersOnline}, excluded.players_online), ${serverSamples.playersOnline}, excluded.players_online)`,
        playersMax: sql`case when ${newer} then excluded.players_max else ${serverSamples.playersMax} end`,
        tps: sql`case when ${newer} then excluded.tps else ${serverSamples.tps} end`,
      },
    })
    .run();
}

/** Every server record, the most recently seen first (for the operator's `servers` command). */
export function listServers(db: Db): ServerRow[] {
  return db.select().from(servers).orderBy(desc(servers.lastSeen)).all();
}

/** Samples of one server since a time, oldest first (for history charts). */
export function listSamples(db: Db, uuid: string, since: number): ServerSample[] {
  return db
    .select()
    .from(serverSamples)
    .where(and(eq(serverSamples.serverUuid, uuid), gte(serverSamples.at, since)))
    .orderBy(asc(serverSamples.at))
    .all();
}

/**
 * Players online since a time, one point per `bucketMs` (aligned to the
 * epoch, so buckets stay put as time moves): the bucket's highest count at
 * its newest sample's time, oldest first. A chart needs a few hundred points
 * whatever the push rate; grouping in SQL keeps a server that pushes every
 * second from costing its banner thousands of rows.
 */
export function listSampleBuckets(db: Db, uuid: string, since: number, bucketMs: number): Array<{ at: number; online: number }> {
  const bucket = sql`${serverSamples.at} / ${Math.max(1, Math.floor(bucketMs))}`;
  return db
    .select({ at: sql<number>`max(${serverSamples.at})`, online: sql<number>`max(${serverSamples.playersOnline})` })
    .from(serverSamples)
    .where(and(eq(serverSamples.serverUuid, uuid), gte(serverSamples.at, since), isNotNull(serverSamples.playersOnline)))
    .groupBy(bucket)
    .orderBy(bucket)
    .all();
}
