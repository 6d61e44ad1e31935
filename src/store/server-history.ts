// A server's rolled-up history in SQLite: the sweep that writes and drops it
// (rules in history.ts) and the read of one level. One SQLite file has one
// writer at a time, and the sweep runs in one immediate transaction: a second
// process sweeping the same file waits, then finds the work done.

import { and, asc, eq, gte, lt, min, sql } from "drizzle-orm";
import type { Db } from "./database.ts";
import {
  BUCKET_UPSERT_SET, dropBefore, FIVE_MINUTES_MS, fiveMinuteBuckets, fiveMinutesEnd, HOUR_MS, hourBuckets, hoursEnd, inBatches, nextSpan,
  spanLeftWork, SPAN_PER_SWEEP_MS, stepSelection, type HistoryBucket, type HistoryMarks, type HistoryStep,
} from "./history.ts";
import { sqliteHistoryMarks, sqliteServerHistory, sqliteServerSamples } from "./schema.ts";

const MARKS_ROW = 1;

export function sqliteReadMarks(db: Db): HistoryMarks {
  const row = db.select().from(sqliteHistoryMarks).where(eq(sqliteHistoryMarks.id, MARKS_ROW)).get();
  return { fiveMinutesUntil: row?.fiveMinutesUntil ?? 0, hoursUntil: row?.hoursUntil ?? 0 };
}

function upsertBuckets(db: Db, buckets: HistoryBucket[]): void {
  for (const batch of inBatches(buckets)) {
    db.insert(sqliteServerHistory)
      .values(batch)
      .onConflictDoUpdate({ target: [sqliteServerHistory.serverUuid, sqliteServerHistory.stepMs, sqliteServerHistory.at], set: BUCKET_UPSERT_SET })
      .run();
  }
}

function levelRows(db: Db, stepMs: number, from: number, to: number): HistoryBucket[] {
  return db
    .select()
    .from(sqliteServerHistory)
    .where(and(eq(sqliteServerHistory.stepMs, stepMs), gte(sqliteServerHistory.at, from), lt(sqliteServerHistory.at, to)))
    .orderBy(asc(sqliteServerHistory.serverUuid), asc(sqliteServerHistory.at))
    .all();
}

/** One sweep run at `now` (history.ts): rolls up at most a bounded span per level, drops what is past keeping; true when more is waiting. */
export function sqliteSweepHistory(db: Db, now: number, staleAfterMs: number): boolean {
  return db.$client.transaction(() => {
    const marks = sqliteReadMarks(db);
    const minutesEnd = fiveMinutesEnd(now);
    // Where a first sweep starts; later ones start at their mark.
    const oldestSample = marks.fiveMinutesUntil > 0 ? undefined : (db.select({ at: min(sqliteServerSamples.at) }).from(sqliteServerSamples).get()?.at ?? undefined);
    const minutes = nextSpan(marks.fiveMinutesUntil, oldestSample, minutesEnd, SPAN_PER_SWEEP_MS.minutes, FIVE_MINUTES_MS);
    if (minutes) {
      const samples = db
        .select({ serverUuid: sqliteServerSamples.serverUuid, at: sqliteServerSamples.at, playersOnline: sqliteServerSamples.playersOnline, online: sqliteServerSamples.online })
        .from(sqliteServerSamples)
        .where(and(gte(sqliteServerSamples.at, minutes.from - staleAfterMs), lt(sqliteServerSamples.at, minutes.to)))
        .orderBy(asc(sqliteServerSamples.serverUuid), asc(sqliteServerSamples.at))
        .all();
      upsertBuckets(db, fiveMinuteBuckets(samples, minutes, staleAfterMs));
      marks.fiveMinutesUntil = minutes.to;
    }
    const oldestFiveMinutes = marks.hoursUntil > 0 ? undefined : db.select({ at: min(sqliteServerHistory.at) }).from(sqliteServerHistory).where(eq(sqliteServerHistory.stepMs, FIVE_MINUTES_MS)).get()?.at ?? undefined;
    const hours = nextSpan(marks.hoursUntil, oldestFiveMinutes, hoursEnd(marks), SPAN_PER_SWEEP_MS.fiveMinutes, HOUR_MS);
    if (hours) {
      upsertBuckets(db, hourBuckets(levelRows(db, FIVE_MINUTES_MS, hours.from, hours.to)));
      marks.hoursUntil = hours.to;
    }
    const drop = dropBefore(marks, now, staleAfterMs);
    db.delete(sqliteServerSamples).where(lt(sqliteServerSamples.at, drop.samples)).run();
    db.delete(sqliteServerHistory).where(and(eq(sqliteServerHistory.stepMs, FIVE_MINUTES_MS), lt(sqliteServerHistory.at, drop.fiveMinutes))).run();
    db.delete(sqliteServerHistory).where(and(eq(sqliteServerHistory.stepMs, HOUR_MS), lt(sqliteServerHistory.at, drop.hours))).run();
    db.insert(sqliteHistoryMarks)
      .values({ id: MARKS_ROW, ...marks })
      .onConflictDoUpdate({ target: sqliteHistoryMarks.id, set: { fiveMinutesUntil: sql`excluded.five_minutes_until`, hoursUntil: sql`excluded.hours_until` } })
      .run();
    return spanLeftWork(minutes, minutesEnd) || spanLeftWork(hours, hoursEnd(marks));
  }).immediate();
}

/** One server's buckets of a level (`levelMs`) in [since, before), summed per step of `stepMs` (HistoryStep), oldest first. */
export function sqliteReadHistorySteps(db: Db, uuid: string, levelMs: number, stepMs: number, since: number, before: number): HistoryStep[] {
  const fields = stepSelection(sqliteServerHistory, stepMs);
  return db
    .select(fields)
    .from(sqliteServerHistory)
    .where(and(eq(sqliteServerHistory.serverUuid, uuid), eq(sqliteServerHistory.stepMs, levelMs), gte(sqliteServerHistory.at, since), lt(sqliteServerHistory.at, before)))
    .groupBy(fields.at)
    .orderBy(fields.at)
    .all();
}
