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
import { historyMarks, serverHistory, serverSamples } from "./schema.ts";

const MARKS_ROW = 1;

export function readMarks(db: Db): HistoryMarks {
  const row = db.select().from(historyMarks).where(eq(historyMarks.id, MARKS_ROW)).get();
  return { fiveMinutesUntil: row?.fiveMinutesUntil ?? 0, hoursUntil: row?.hoursUntil ?? 0 };
}

function upsertBuckets(db: Db, buckets: HistoryBucket[]): void {
  for (const batch of inBatches(buckets)) {
    db.insert(serverHistory)
      .values(batch)
      .onConflictDoUpdate({ target: [serverHistory.serverUuid, serverHistory.stepMs, serverHistory.at], set: BUCKET_UPSERT_SET })
      .run();
  }
}

function levelRows(db: Db, stepMs: number, from: number, to: number): HistoryBucket[] {
  return db
    .select()
    .from(serverHistory)
    .where(and(eq(serverHistory.stepMs, stepMs), gte(serverHistory.at, from), lt(serverHistory.at, to)))
    .orderBy(asc(serverHistory.serverUuid), asc(serverHistory.at))
    .all();
}

/** One sweep run at `now` (history.ts): rolls up at most a bounded span per level, drops what is past keeping; true when more is waiting. */
export function sweepHistory(db: Db, now: number, staleAfterMs: number): boolean {
  return db.$client.transaction(() => {
    const marks = readMarks(db);
    const minutesEnd = fiveMinutesEnd(now);
    // Where a first sweep starts; later ones start at their mark.
    const oldestSample = marks.fiveMinutesUntil > 0 ? undefined : (db.select({ at: min(serverSamples.at) }).from(serverSamples).get()?.at ?? undefined);
    const minutes = nextSpan(marks.fiveMinutesUntil, oldestSample, minutesEnd, SPAN_PER_SWEEP_MS.minutes, FIVE_MINUTES_MS);
    if (minutes) {
      const samples = db
        .select({ serverUuid: serverSamples.serverUuid, at: serverSamples.at, playersOnline: serverSamples.playersOnline, online: serverSamples.online })
        .from(serverSamples)
        .where(and(gte(serverSamples.at, minutes.from - staleAfterMs), lt(serverSamples.at, minutes.to)))
        .orderBy(asc(serverSamples.serverUuid), asc(serverSamples.at))
        .all();
      upsertBuckets(db, fiveMinuteBuckets(samples, minutes, staleAfterMs));
      marks.fiveMinutesUntil = minutes.to;
    }
    const oldestFiveMinutes = marks.hoursUntil > 0 ? undefined : db.select({ at: min(serverHistory.at) }).from(serverHistory).where(eq(serverHistory.stepMs, FIVE_MINUTES_MS)).get()?.at ?? undefined;
    const hours = nextSpan(marks.hoursUntil, oldestFiveMinutes, hoursEnd(marks), SPAN_PER_SWEEP_MS.fiveMinutes, HOUR_MS);
    if (hours) {
      upsertBuckets(db, hourBuckets(levelRows(db, FIVE_MINUTES_MS, hours.from, hours.to)));
      marks.hoursUntil = hours.to;
    }
    const drop = dropBefore(marks, now, staleAfterMs);
    db.delete(serverSamples).where(lt(serverSamples.at, drop.samples)).run();
    db.delete(serverHistory).where(and(eq(serverHistory.stepMs, FIVE_MINUTES_MS), lt(serverHistory.at, drop.fiveMinutes))).run();
    db.delete(serverHistory).where(and(eq(serverHistory.stepMs, HOUR_MS), lt(serverHistory.at, drop.hours))).run();
    db.insert(historyMarks)
      .values({ id: MARKS_ROW, ...marks })
      .onConflictDoUpdate({ target: historyMarks.id, set: { fiveMinutesUntil: sql`excluded.five_minutes_until`, hoursUntil: sql`excluded.hours_until` } })
      .run();
    return spanLeftWork(minutes, minutesEnd) || spanLeftWork(hours, hoursEnd(marks));
  }).immediate();
}

/** One server's buckets of a level (`levelMs`) in [since, before), summed per step of `stepMs` (HistoryStep), oldest first. */
export function readHistorySteps(db: Db, uuid: string, levelMs: number, stepMs: number, since: number, before: number): HistoryStep[] {
  const fields = stepSelection(serverHistory, stepMs);
  return db
    .select(fields)
    .from(serverHistory)
    .where(and(eq(serverHistory.serverUuid, uuid), eq(serverHistory.stepMs, levelMs), gte(serverHistory.at, since), lt(serverHistory.at, before)))
    .groupBy(fields.at)
    .orderBy(fields.at)
    .all();
}
