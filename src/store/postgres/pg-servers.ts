// Server records and their player history, in PostgreSQL, as they are read.
// A push writes them in one call of pennant_server_push (pg-push.ts).

import { and, asc, desc, eq, gte, isNotNull, sql } from "drizzle-orm";
import type { ServerRow, ServerSample } from "../records.ts";
import type { PgDb } from "./open-postgres.ts";
import { serverSamples, servers } from "./postgres-schema.ts";

export async function getServer(db: PgDb, uuid: string): Promise<ServerRow | undefined> {
  const [row] = await db.select().from(servers).where(eq(servers.uuid, uuid));
  return row;
}

/** Every server record, the most recently seen first. */
export function listServers(db: PgDb): Promise<ServerRow[]> {
  return db.select().from(servers).orderBy(desc(servers.lastSeen));
}

/** Samples of one server since a time, oldest first. */
export function listSamples(db: PgDb, uuid: string, since: number): Promise<ServerSample[]> {
  return db
    .select({ serverUuid: serverSamples.serverUuid, at: serverSamples.at, playersOnline: serverSamples.playersOnline, playersMax: serverSamples.playersMax, tps: serverSamples.tps, online: serverSamples.online })
    .from(serverSamples)
    .where(and(eq(serverSamples.serverUuid, uuid), gte(serverSamples.at, since)))
    .orderBy(asc(serverSamples.at));
}

/** Players online since a time, one point per `bucketMs` (see ../servers.ts). */
export function listSampleBuckets(db: PgDb, uuid: string, since: number, bucketMs: number): Promise<Array<{ at: number; online: number }>> {
  // Written into the SQL, not a parameter: PostgreSQL takes GROUP BY at / $3
  // and ORDER BY at / $4 for different expressions. A whole number, so safe to write.
  const bucket = sql`${serverSamples.at} / ${sql.raw(String(Math.max(1, Math.floor(bucketMs) || 1)))}`;
  return db
    .select({ at: sql<number>`max(${serverSamples.at})`.mapWith(Number), online: sql<number>`max(${serverSamples.playersOnline})`.mapWith(Number) })
    .from(serverSamples)
    .where(and(eq(serverSamples.serverUuid, uuid), gte(serverSamples.at, since), isNotNull(serverSamples.playersOnline)))
    .groupBy(bucket)
    .orderBy(bucket);
}
