// A server's rolled-up history: the sweep that writes and drops it (rules in
// history.ts) and the read of one level, on either backend. Each backend runs
// a sweep in one transaction that no other sweep runs beside: SQLite's is an
// immediate one (a second process sweeping the same file waits, then finds the
// work done), PostgreSQL's holds an advisory lock it only tries (while one
// instance sweeps, another skips its turn instead of recomputing the same
// buckets behind it).

import { and, asc, desc, eq, gte, lt, min, sql } from "drizzle-orm";
import {
  BUCKET_UPSERT_SET, dropBefore, FIVE_MINUTES_MS, fiveMinuteBuckets, fiveMinutesEnd, HOUR_MS, hourBuckets, hoursEnd, inBatches, nextSpan,
  spanLeftWork, SPAN_PER_SWEEP_MS, stepSelection, type HistoryBucket, type HistoryMarks, type HistoryStep, type MinuteSample,
} from "./history.ts";
import { first, rows, run, type QueryContext, type Steps } from "./query-steps.ts";

const MARKS_ROW = 1;

export function* readMarks({ db, tables: { historyMarks } }: QueryContext): Steps<HistoryMarks> {
  const row = yield* first(db.select().from(historyMarks).where(eq(historyMarks.id, MARKS_ROW)));
  return { fiveMinutesUntil: row?.fiveMinutesUntil ?? 0, hoursUntil: row?.hoursUntil ?? 0 };
}

function* upsertBuckets({ db, tables: { serverHistory: history } }: QueryContext, buckets: HistoryBucket[]): Steps<void> {
  for (const batch of inBatches(buckets)) {
    yield* run(db.insert(history).values(batch).onConflictDoUpdate({ target: [history.serverUuid, history.stepMs, history.at], set: BUCKET_UPSERT_SET }));
  }
}

/** The oldest `at` a query's one row holds, or undefined. */
function* oldest(query: PromiseLike<Array<{ at: number | null }>>): Steps<number | undefined> {
  const at = (yield* first(query))?.at;
  return at === null || at === undefined ? undefined : Number(at);
}

/** One sweep run at `now` (history.ts), in the backend's transaction: rolls up at most a bounded span per level, drops what is past keeping; true when more is waiting. */
export function* sweepHistory(q: QueryContext, now: number, staleAfterMs: number): Steps<boolean> {
  const { db, tables: { serverSamples: samples, serverHistory: history, historyMarks } } = q;
  const marks = yield* readMarks(q);
  const minutesEnd = fiveMinutesEnd(now);
  // Where a first sweep starts; later ones start at their mark.
  const oldestSample = marks.fiveMinutesUntil > 0 ? undefined : yield* oldest(db.select({ at: min(samples.at) }).from(samples));
  const minutes = nextSpan(marks.fiveMinutesUntil, oldestSample, minutesEnd, SPAN_PER_SWEEP_MS.minutes, FIVE_MINUTES_MS);
  if (minutes) {
    const read = yield* rows(
      db
        .select({ serverUuid: samples.serverUuid, at: samples.at, playersOnline: samples.playersOnline, online: samples.online })
        .from(samples)
        .where(and(gte(samples.at, minutes.from - staleAfterMs), lt(samples.at, minutes.to)))
        .orderBy(asc(samples.serverUuid), asc(samples.at)),
    );
    yield* upsertBuckets(q, fiveMinuteBuckets(read, minutes, staleAfterMs));
    marks.fiveMinutesUntil = minutes.to;
  }
  const oldestFiveMinutes = marks.hoursUntil > 0 ? undefined : yield* oldest(db.select({ at: min(history.at) }).from(history).where(eq(history.stepMs, FIVE_MINUTES_MS)));
  const hours = nextSpan(marks.hoursUntil, oldestFiveMinutes, hoursEnd(marks), SPAN_PER_SWEEP_MS.fiveMinutes, HOUR_MS);
  if (hours) {
    const fiveMinutes = yield* rows(
      db
        .select()
        .from(history)
        .where(and(eq(history.stepMs, FIVE_MINUTES_MS), gte(history.at, hours.from), lt(history.at, hours.to)))
        .orderBy(asc(history.serverUuid), asc(history.at)),
    );
    yield* upsertBuckets(q, hourBuckets(fiveMinutes));
    marks.hoursUntil = hours.to;
  }
  const drop = dropBefore(marks, now, staleAfterMs);
  yield* run(db.delete(samples).where(lt(samples.at, drop.samples)));
  yield* run(db.delete(history).where(and(eq(history.stepMs, FIVE_MINUTES_MS), lt(history.at, drop.fiveMinutes))));
  yield* run(db.delete(history).where(and(eq(history.stepMs, HOUR_MS), lt(history.at, drop.hours))));
  yield* run(
    db
      .insert(historyMarks)
      .values({ id: MARKS_ROW, ...marks })
      .onConflictDoUpdate({ target: historyMarks.id, set: { fiveMinutesUntil: sql`excluded.five_minutes_until`, hoursUntil: sql`excluded.hours_until` } }),
  );
  return spanLeftWork(minutes, minutesEnd) || spanLeftWork(hours, hoursEnd(marks));
}

/** One server's buckets of a level (`levelMs`) in [since, before), summed per step of `stepMs` (HistoryStep), oldest first. */
export function* readHistorySteps({ db, tables: { serverHistory: history } }: QueryContext, uuid: string, levelMs: number, stepMs: number, since: number, before: number): Steps<HistoryStep[]> {
  const fields = stepSelection(history, stepMs);
  return yield* rows(
    db
      .select(fields)
      .from(history)
      .where(and(eq(history.serverUuid, uuid), eq(history.stepMs, levelMs), gte(history.at, since), lt(history.at, before)))
      .groupBy(fields.at)
      .orderBy(fields.at),
  );
}

/**
 * One server's minute samples in [since, before), oldest first, after the
 * latest one before `since` if it is less than `staleAfterMs` older (its
 * update still holds into the span): what a sweep would roll up of the span,
 * read before it does (history-ranges.ts). At most one row a minute of the
 * span, and one more.
 */
export function* readUnrolledSamples(
  { db, tables: { serverSamples: samples } }: QueryContext, uuid: string, since: number, before: number, staleAfterMs: number,
): Steps<MinuteSample[]> {
  const columns = { serverUuid: samples.serverUuid, at: samples.at, playersOnline: samples.playersOnline, online: samples.online };
  const ofServer = eq(samples.serverUuid, uuid);
  const holding = yield* rows(db.select(columns).from(samples).where(and(ofServer, gte(samples.at, since - staleAfterMs), lt(samples.at, since))).orderBy(desc(samples.at)).limit(1));
  const within = yield* rows(db.select(columns).from(samples).where(and(ofServer, gte(samples.at, since), lt(samples.at, before))).orderBy(asc(samples.at)));
  return [...holding, ...within];
}
