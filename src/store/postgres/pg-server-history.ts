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
import { pgHistoryMarks, pgServerHistory, pgServerSamples } from "./postgres-schema.ts";

/** The sweep's advisory lock key ("hist" in ASCII). */
const SWEEP_LOCK = 0x68697374;
const MARKS_ROW = 1;

type Tx = BunSQLDatabase<Record<string, never>>;

export async function pgReadMarks(db: Tx | PgDb): Promise<HistoryMarks> {
  const [row] = await db.select().from(pgHistoryMarks).where(eq(pgHistoryMarks.id, MARKS_ROW));
  return { fiveMinutesUntil: row?.fiveMinutesUntil ?? 0, hoursUntil: row?.hoursUntil ?? 0 };
}

async function upsertBuckets(tx: Tx, buckets: HistoryBucket[]): Promise<void> {
  for (const batch of inBatches(buckets)) {
    await tx
      .insert(pgServerHistory)
      .values(batch)
      .onConflictDoUpdate({ target: [pgServerHistory.serverUuid, pgServerHistory.stepMs, pgServerHistory.at], set: BUCKET_UPSERT_SET });
  }
}

async function oldest(query: Promise<Array<{ at: number | null }>>): Promise<number | undefined> {
  const [row] = await query;
  return row?.at === null || row?.at === undefined ? undefined : Number(row.at);
}

async function sweepLocked(tx: Tx, now: number, staleAfterMs: number): Promise<boolean> {
  const marks = await pgReadMarks(tx);
  const minutesEnd = fiveMinutesEnd(now);
  // Where a first sweep starts; later ones start at their mark.
  const oldestSample = marks.fiveMinutesUntil > 0 ? undefined : await oldest(tx.select({ at: min(pgServerSamples.at) }).from(pgServerSamples));
  const minutes = nextSpan(marks.fiveMinutesUntil, oldestSample, minutesEnd, SPAN_PER_SWEEP_MS.minutes, FIVE_MINUTES_MS);
  if (minutes) {
    const samples = await tx
      .select({ serverUuid: pgServerSamples.serverUuid, at: pgServerSamples.at, playersOnline: pgServerSamples.playersOnline, online: pgServerSamples.online })
      .from(pgServerSamples)
      .where(and(gte(pgServerSamples.at, minutes.from - staleAfterMs), lt(pgServerSamples.at, minutes.to)))
      .orderBy(asc(pgServerSamples.serverUuid), asc(pgServerSamples.at));
    await upsertBuckets(tx, fiveMinuteBuckets(samples, minutes, staleAfterMs));
    marks.fiveMinutesUntil = minutes.to;
  }
  const oldestFiveMinutes = marks.hoursUntil > 0 ? undefined : await oldest(tx.select({ at: min(pgServerHistory.at) }).from(pgServerHistory).where(eq(pgServerHistory.stepMs, FIVE_MINUTES_MS)));
  const hours = nextSpan(marks.hoursUntil, oldestFiveMinutes, hoursEnd(marks), SPAN_PER_SWEEP_MS.fiveMinutes, HOUR_MS);
  if (hours) {
    const fiveMinutes = await tx
      .select()
      .from(pgServerHistory)
      .where(and(eq(pgServerHistory.stepMs, FIVE_MINUTES_MS), gte(pgServerHistory.at, hours.from), lt(pgServerHistory.at, hours.to)))
      .orderBy(asc(pgServerHistory.serverUuid), asc(pgServerHistory.at));
    await upsertBuckets(tx, hourBuckets(fiveMinutes));
    marks.hoursUntil = hours.to;
  }
  const drop = dropBefore(marks, now, staleAfterMs);
  await tx.delete(pgServerSamples).where(lt(pgServerSamples.at, drop.samples));
  await tx.delete(pgServerHistory).where(and(eq(pgServerHistory.stepMs, FIVE_MINUTES_MS), lt(pgServerHistory.at, drop.fiveMinutes)));
  await tx.delete(pgServerHistory).where(and(eq(pgServerHistory.stepMs, HOUR_MS), lt(pgServerHistory.at, drop.hours)));
  await tx
    .insert(pgHistoryMarks)
    .values({ id: MARKS_ROW, ...marks })
    .onConflictDoUpdate({ target: pgHistoryMarks.id, set: { fiveMinutesUntil: sql`excluded.five_minutes_until`, hoursUntil: sql`excluded.hours_until` } });
  return spanLeftWork(minutes, minutesEnd) || spanLeftWork(hours, hoursEnd(marks));
}

/** One sweep run at `now`; false, having done nothing, when another instance is sweeping. */
export async function pgSweepHistory(db: PgDb, now: number, staleAfterMs: number): Promise<boolean> {
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

/** One server's steps of a level (../server-history.ts, sqliteReadHistorySteps). */
export async function pgReadHistorySteps(db: PgDb, uuid: string, levelMs: number, stepMs: number, since: number, before: number): Promise<HistoryStep[]> {
  const fields = stepSelection(pgServerHistory, stepMs);
  return db
    .select(fields)
    .from(pgServerHistory)
    .where(and(eq(pgServerHistory.serverUuid, uuid), eq(pgServerHistory.stepMs, levelMs), gte(pgServerHistory.at, since), lt(pgServerHistory.at, before)))
    .groupBy(fields.at)
    .orderBy(fields.at);
}
