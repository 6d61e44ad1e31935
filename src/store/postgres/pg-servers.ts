// Server records and their player history, in PostgreSQL, as they are read.
// A push writes them in one call of pennant_server_push (pg-push.ts).

import { and, asc, desc, eq, gte, isNotNull, sql } from "drizzle-orm";
import type { ServerRow, ServerSample } from "../records.ts";
import type { PgDb } from "./open-postgres.ts";
import { pgServerSamples, pgServers } from "./postgres-schema.ts";

export async function pgGetServer(db: PgDb, uuid: string): Promise<ServerRow | undefined> {
  const [row] = await db.select().from(pgServers).where(eq(pgServers.uuid, uuid));
  return row;
}

/** Every server record, the most recently seen first. */
export function pgListServers(db: PgDb): Promise<ServerRow[]> {
  return db.select().from(pgServers).orderBy(desc(pgServers.lastSeen));
}

/** Samples of one server since a time, oldest first. */
export function pgListSamples(db: PgDb, uuid: string, since: number): Promise<ServerSample[]> {
  return db
    .select({ serverUuid: pgServerSamples.serverUuid, at: pgServerSamples.at, playersOnline: pgServerSamples.playersOnline, playersMax: pgServerSamples.playersMax, tps: pgServerSamples.tps, online: pgServerSamples.online })
    .from(pgServerSamples)
    .where(and(eq(pgServerSamples.serverUuid, uuid), gte(pgServerSamples.at, since)))
    .orderBy(asc(pgServerSamples.at));
}

/** Players online since a time, one point per `bucketMs` (see ../servers.ts). */
export function pgListSampleBuckets(db: PgDb, uuid: string, since: number, bucketMs: number): Promise<Array<{ at: number; online: number }>> {
  // Written into the SQL, not a parameter: PostgreSQL takes GROUP BY at / $3
  // and ORDER BY at / $4 for different expressions. A whole number, so safe to write.
  const bucket = sql`${pgServerSamples.at} / ${sql.raw(String(Math.max(1, Math.floor(bucketMs) || 1)))}`;
  return db
    .select({ at: sql<number>`max(${pgServerSamples.at})`.mapWith(Number), online: sql<number>`max(${pgServerSamples.playersOnline})`.mapWith(Number) })
    .from(pgServerSamples)
    .where(and(eq(pgServerSamples.serverUuid, uuid), gte(pgServerSamples.at, since), isNotNull(pgServerSamples.playersOnline)))
    .groupBy(bucket)
    .orderBy(bucket);
}
