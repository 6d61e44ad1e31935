// Server records and their player history, as they are read (a push writes
// them: sqlite-push.ts).

import { and, asc, desc, eq, gte, isNotNull, sql } from "drizzle-orm";
import type { Db } from "./database.ts";
import type { ServerRow, ServerSample } from "./records.ts";
import { sqliteServerSamples, sqliteServers } from "./schema.ts";

export function sqliteGetServer(db: Db, uuid: string): ServerRow | undefined {
  return db.select().from(sqliteServers).where(eq(sqliteServers.uuid, uuid)).get();
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
