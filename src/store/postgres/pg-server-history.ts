// A server's rolled-up history in PostgreSQL: the same sweep as SQLite's
// (../server-history.ts, rules in ../history.ts), for instances sharing one
// database. A sweep runs in one transaction under a transaction-level advisory
// lock that it only tries: while one instance sweeps, another skips its turn
// instead of recomputing the same buckets behind it.

import { and, asc, eq, gte, lt, min, sql } from "drizzle-orm";
import { drizzle, type BunSQLDatabase } from "drizzle-orm/bun-sql";
import {
  BUCKET_UPSERT_SET, dropBefore, FIVE_MINUTES_MS, fiveMinuteBuckets, fiveMinutesEnd, HOUR_MS, hourBuckets, hoursEnd, inBatches, nextSpan,
  spanLeftWork, SPAN_PER_SWEEP_MS, stepSelection, type HistoryBucket, type HistoryMarks, type HistoryStep,
} from "../history.ts";
import type { PgDb } from "./open-postgres.ts";
import { historyMarks, serverHistory, serverSamples } from "./postgres-schema.ts";

/** The sweep's advisory lock key ("hist" in ASCII). */
const SWEEP_LOCK = 0x68697374;
const MARKS_ROW = 1;

type Tx = BunSQLDatabase<Record<string, never>>;

export async function readMarks(db: Tx | PgDb): Promise<HistoryMarks> {
  const [row] = await db.select().from(historyMarks).where(eq(historyMarks.id, MARKS_ROW));
  return { fiveMinutesUntil: row?.fiveMinutesUntil ?? 0, hoursUntil: row?.hoursUntil ?? 0 };
}

async function upsertBuckets(tx: Tx, buckets: HistoryBucket[]): Promise<void> {
  for (const batch of inBatches(buckets)) {
    await tx
      .insert(serverHistory)
      .values(batch)
      .onConflictDoUpdate({ target: [serverHistory.serverUuid, serverHistory.stepMs, serverHistory.at], set: BUCKET_UPSERT_SET });
  }
}

async function oldest(query: Promise<Array<{ at: number | null }>>): Promise<number | undefined> {
  const [row] = await query;
  return row?.at === null || row?.at === undefined ? undefined : Number(row.at);
}

async function sweepLocked(tx: Tx, now: number, staleAfterMs: number): Promise<boolean> {
  const marks = await readMarks(tx);
  const minutesEnd = fiveMinutesEnd(now);
  // Where a first sweep starts; later ones start at their mark.
  const oldestSample = marks.fiveMinutesUntil > 0 ? undefined : await oldest(tx.select({ at: min(serverSamples.at) }).from(serverSamples));
  const minutes = nextSpan(marks.fiveMinutesUntil, oldestSample, minutesEnd, SPAN_PER_SWEEP_MS.minutes, FIVE_MINUTES_MS);
  if (minutes) {
    const samples = await tx
      .select({ serverUuid: serverSamples.serverUuid, at: serverSamples.at, playersOnline: serverSamples.playersOnline, online: serverSamples.online })
      .from(serverSamples)
      .where(and(gte(serverSamples.at, minutes.from - staleAfterMs), lt(serverSamples.at, minutes.to)))
      .orderBy(asc(serverSamples.serverUuid), asc(serverSamples.at));
    await upsertBuckets(tx, fiveMinuteBuckets(samples, minutes, staleAfterMs));
    marks.fiveMinutesUntil = minutes.to;
  }
  const oldestFiveMinutes = marks.hoursUntil > 0 ? undefined : await oldest(tx.select({ at: min(serverHistory.at) }).from(serverHistory).where(eq(serverHistory.stepMs, FIVE_MINUTES_MS)));
  const hours = nextSpan(marks.hoursUntil, oldestFiveMinutes, hoursEnd(marks), SPAN_PER_SWEEP_MS.fiveMinutes, HOUR_MS);
  if (hours) {
    const fiveMinutes = await tx
      .select()
      .from(serverHistory)
      .where(and(eq(serverHistory.stepMs, FIVE_MINUTES_MS), gte(serverHistory.at, hours.from), lt(serverHistory.at, hours.to)))
      .orderBy(asc(serverHistory.serverUuid), asc(serverHistory.at));
    await upsertBuckets(tx, hourBuckets(fiveMinutes));
    marks.hoursUntil = hours.to;
  }
  const drop = dropBefore(marks, now, staleAfterMs);
  await tx.delete(serverSamples).where(lt(serverSamples.at, drop.samples));
  await tx.delete(serverHistory).where(and(eq(serverHistory.stepMs, FIVE_MINUTES_MS), lt(serverHistory.at, drop.fiveMinutes)));
  await tx.delete(serverHistory).where(and(eq(serverHistory.stepMs, HOUR_MS), lt(serverHistory.at, drop.hours)));
  await tx
    .insert(historyMarks)
    .values({ id: MARKS_ROW, ...marks })
    .onConflictDoUpdate({ target: historyMarks.id, set: { fiveMinutesUntil: sql`excluded.five_minutes_until`, hoursUntil: sql`excluded.hours_until` } });
  return spanLeftWork(minutes, minutesEnd) || spanLeftWork(hours, hoursEnd(marks));
}

/** One sweep run at `now`; false, having done nothing, when another instance is sweeping. */
export async function sweepHistory(db: PgDb, now: number, staleAfterMs: number): Promise<boolean> {
  const connection = await db.$client.reserve();
  try {
    await connection.unsafe("BEGIN");
    try {
      const [lock] = await connection`SELECT pg_try_advisory_xact_lock(${SWEEP_LOCK}) AS taken`;
      const more = (lock as { taken: boolean }).taken ? await sweepLocked(drizzle({ client: connection }), now, staleAfterMs) : false;
      await connection.unsafe("COMMIT");
      return more;
    } catch (error) {
      await connection.unsafe("ROLLBACK").catch(() => {});
      throw error;
    }
  } finally {
    connection.release();
  }
}

/** One server's steps of a level (../server-history.ts, readHistorySteps). */
export async function readHistorySteps(db: PgDb, uuid: string, levelMs: number, stepMs: number, since: number, before: number): Promise<HistoryStep[]> {
  const fields = stepSelection(serverHistory, stepMs);
  return db
    .select(fields)
    .from(serverHistory)
    .where(and(eq(serverHistory.serverUuid, uuid), eq(serverHistory.stepMs, levelMs), gte(serverHistory.at, since), lt(serverHistory.at, before)))
    .groupBy(fields.at)
    .orderBy(fields.at);
}
