// Server records and their player history, in PostgreSQL. The write is one
// upsert whose update applies only for the owning token (ownership decided by
// the row itself, not a read before it), with the extra stats merged by
// jsonb || in the statement: concurrent pushes can neither both create a
// record nor lose each other's keys.

import { and, asc, desc, eq, gte, isNotNull, sql } from "drizzle-orm";
import { definedOnly } from "../defined.ts";
import { HISTORY_MS, type ServerFields, type ServerPushKind, type ServerRow, type ServerSample } from "../records.ts";
import { NotOwnerError } from "../write-refusals.ts";
import type { PgDb, PgTx } from "./open-postgres.ts";
import { serverSamples, servers } from "./postgres-schema.ts";

/** The stored JSON bytes of a server record (its extra stats), as PostgreSQL writes the JSON out. */
export const SERVER_JSON_BYTES = sql<number>`coalesce(octet_length(${servers.extra}::text), 0)`.mapWith(Number);

export async function getServer(db: PgDb, uuid: string): Promise<ServerRow | undefined> {
  const [row] = await db.select().from(servers).where(eq(servers.uuid, uuid));
  return row;
}

/**
 * Writes a heartbeat or an update of a server this token owns or that does
 * not exist yet (the caller has checked its record limit), and returns the
 * record's stored JSON bytes after it. NotOwnerError when another token owns
 * it, even one that created it a moment ago. An update also writes the
 * history sample of its minute and drops this server's samples older than 30
 * days.
 */
export async function writeServerPush(
  tx: PgTx,
  push: { uuid: string; tokenId: number; now: number; kind: ServerPushKind; fields: ServerFields },
): Promise<number> {
  const { uuid, tokenId, now, kind, fields } = push;
  const { extra, ...columns } = definedOnly(fields);
  const moved = { lastSeen: now, ...(kind === "update" ? { statsUpdatedAt: now } : {}) };
  const [row] = await tx
    .insert(servers)
    .values({ uuid, tokenId, firstSeen: now, ...columns, ...(extra ? { extra } : {}), ...moved })
    .onConflictDoUpdate({
      target: servers.uuid,
      set: { ...columns, ...(extra ? { extra: sql`coalesce(servers.extra, '{}'::jsonb) || excluded.extra` } : {}), ...moved },
      setWhere: sql`servers.token_id = excluded.token_id`,
    })
    .returning({ playersOnline: servers.playersOnline, playersMax: servers.playersMax, tps: servers.tps, jsonBytes: SERVER_JSON_BYTES });
  if (!row) throw new NotOwnerError("server");

  if (kind === "update") {
    await writeMinuteSample(tx, { serverUuid: uuid, at: now, playersOnline: row.playersOnline, playersMax: row.playersMax, tps: row.tps });
  }
  return row.jsonBytes;
}

/**
 * Writes an update into its minute's sample (an upsert on the unique (server,
 * minute) index; see ../servers.ts): the minute's highest players online
 * (greatest() passes over NULLs), the latest time, and that time's players
 * max and TPS; and drops the server's samples older than 30 days. One
 * statement: the two touch different rows (the minute's row is never 30 days
 * old), so neither sees the other's change.
 */
async function writeMinuteSample(tx: PgTx, sample: ServerSample): Promise<void> {
  const { serverUuid, at, playersOnline, playersMax, tps } = sample;
  const newer = sql`excluded.at >= server_samples.at`;
  await tx.execute(sql`
    WITH dropped AS (DELETE FROM server_samples WHERE server_uuid = ${serverUuid} AND at < ${at - HISTORY_MS})
    INSERT INTO server_samples (server_uuid, at, players_online, players_max, tps)
    VALUES (${serverUuid}, ${at}, ${playersOnline}, ${playersMax}, ${tps})
    ON CONFLICT (server_uuid, minute) DO UPDATE SET
      at = greatest(server_samples.at, excluded.at),
      players_online = greatest(server_samples.players_online, excluded.players_online),
      players_max = case when ${newer} then excluded.players_max else server_samples.players_max end,
      tps = case when ${newer} then excluded.tps else server_samples.tps end`);
}

/** Every server record, the most recently seen first. */
export function listServers(db: PgDb): Promise<ServerRow[]> {
  return db.select().from(servers).orderBy(desc(servers.lastSeen));
}

/** Samples of one server since a time, oldest first. */
export function listSamples(db: PgDb, uuid: string, since: number): Promise<ServerSample[]> {
  return db
    .select({ serverUuid: serverSamples.serverUuid, at: serverSamples.at, playersOnline: serverSamples.playersOnline, playersMax: serverSamples.playersMax, tps: serverSamples.tps })
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
