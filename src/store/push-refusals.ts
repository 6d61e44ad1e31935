// Server pushes refused in the last day, counted per server UUID, error code
// and token (the push_refusals table), for the operator's `pennant servers`
// and, filtered by token, for a token's own view. Instances count refusals in
// memory and add them here in batches (src/serve/refusal-tally.ts): one
// upsert a batch, whatever the number of refused requests.
//
// Bounds: a row is dropped a day after its last refusal, and the table keeps
// at most MAX_REFUSAL_ROWS rows: past them, the rows refused longest ago go
// first, so a server that keeps being refused (a plugin retries every few
// minutes) keeps its row through a flood of once-refused random UUIDs, and a
// row dropped comes back with the next refusal. A batch is written under an
// advisory lock (PostgreSQL), so that instances adding at once keep the bound
// exactly; the upsert adds counts, so two instances counting the same refusal
// make one row.

import { and, asc, desc, eq, gte, lt, sql } from "drizzle-orm";
import { rows, run, runIfAny, type QueryContext, type Steps } from "./query-steps.ts";

/** How long a refusal is listed: a day. */
export const REFUSALS_KEPT_MS = 24 * 60 * 60 * 1000;
/** The most rows the table keeps (about 100 KiB). */
export const MAX_REFUSAL_ROWS = 1_000;
/** The most refusals one batch adds: an instance's tally holds no more between two flushes. */
export const MAX_REFUSALS_PER_BATCH = 1_000;
/** The token id of a refusal whose request was not authenticated (no token has it: ids start at 1). */
export const UNAUTHENTICATED = 0;

/** Refusals of one server UUID, code and token counted since the last batch. */
export interface RefusalCount {
  serverUuid: string;
  code: string;
  /** The token the request was authenticated with; null when it was not. */
  tokenId: number | null;
  count: number;
  lastAt: number;
}

/** The key of a refusal's row. */
export function refusalKey({ serverUuid, code, tokenId }: Pick<RefusalCount, "serverUuid" | "code" | "tokenId">): string {
  return `${serverUuid} ${code} ${tokenId ?? UNAUTHENTICATED}`;
}

/** The push_refusals lock's advisory key ("refu" in ASCII). */
const REFUSALS_LOCK = 0x72656675;

/** Adds `counts` (at most MAX_REFUSALS_PER_BATCH) and drops rows past a day or over MAX_REFUSAL_ROWS. */
export function* addRefusals({ db, tables: { pushRefusals: t }, dialect }: QueryContext, counts: readonly RefusalCount[], now: number): Steps<void> {
  yield* runIfAny(dialect.advisoryLock(REFUSALS_LOCK));
  const values = counts.slice(0, MAX_REFUSALS_PER_BATCH).map((count) => ({ ...count, tokenId: count.tokenId ?? UNAUTHENTICATED }));
  if (values.length > 0) {
    yield* run(
      db
        .insert(t)
        .values(values)
        .onConflictDoUpdate({
          target: [t.serverUuid, t.code, t.tokenId],
          set: { count: sql`${t.count} + excluded.count`, lastAt: dialect.greatest(t.lastAt, sql`excluded.last_at`) },
        }),
    );
  }
  yield* run(db.delete(t).where(lt(t.lastAt, dialect.int(now - REFUSALS_KEPT_MS))));
  // The rows past the bound are at most the ones this batch added.
  const surplus = db
    .select({ serverUuid: t.serverUuid, code: t.code, tokenId: t.tokenId })
    .from(t)
    .orderBy(desc(t.lastAt), asc(t.serverUuid), asc(t.code), asc(t.tokenId))
    .limit(MAX_REFUSALS_PER_BATCH)
    .offset(MAX_REFUSAL_ROWS);
  yield* run(db.delete(t).where(sql`(${t.serverUuid}, ${t.code}, ${t.tokenId}) in ${surplus}`));
}

/** The refusals whose last time is at or after `since`, the latest first; only those of `tokenId` when given. */
export function* listRefusals({ db, tables: { pushRefusals: t }, dialect }: QueryContext, since: number, tokenId?: number): Steps<RefusalCount[]> {
  const listed = yield* rows(
    db
      .select()
      .from(t)
      .where(and(gte(t.lastAt, dialect.int(since)), tokenId === undefined ? undefined : eq(t.tokenId, dialect.int(tokenId))))
      // At most MAX_REFUSAL_ROWS rows, and a batch being added: the table's bound is the list's.
      .orderBy(desc(t.lastAt), asc(t.serverUuid), asc(t.code)),
  );
  return listed.map((row) => ({ ...row, tokenId: row.tokenId === UNAUTHENTICATED ? null : row.tokenId }));
}
