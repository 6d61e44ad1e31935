// Tokens, server records (with their player history) and plugin records, as
// they are read, on either backend. A push writes the records
// (sqlite-push.ts, postgres/push-functions.sql); the look-up of a signed
// request's token and open registration's sweep of idle tokens are each
// backend's too (sqlite-push.ts, postgres/pg-tokens.ts).

import { and, asc, desc, eq, gte, isNotNull, isNull, sql } from "drizzle-orm";
import type { ReplayRecord, ReplayStatus } from "../auth/replay.ts";
import { first, rows, type QueryContext, type RememberRequest, type Steps } from "./query-steps.ts";
import type { PluginRow, ServerRow, ServerSample, TokenRow } from "./records.ts";
import type { NewToken } from "./store.ts";
import { UnknownTokenError } from "./write-refusals.ts";

export function* createToken({ db, tables: { tokens } }: QueryContext, input: NewToken): Steps<TokenRow> {
  const values = { hash: input.hash, scope: input.scope, label: input.label, origin: "cli" as const, createdAt: input.now };
  return (yield* first(db.insert(tokens).values(values).returning()))!;
}

export function* listTokens({ db, tables: { tokens } }: QueryContext): Steps<TokenRow[]> {
  return yield* rows(db.select().from(tokens).orderBy(tokens.id));
}

/** Revokes a token; false when there is no such active token. */
export function* revokeToken({ db, tables: { tokens } }: QueryContext, id: number, now: number): Steps<boolean> {
  const revoked = yield* rows(db.update(tokens).set({ revokedAt: now }).where(and(eq(tokens.id, id), isNull(tokens.revokedAt))).returning({ id: tokens.id }));
  return revoked.length > 0;
}

/** Runs in one transaction: remembers the signed request that asks for the token (the console's Admin tab), then creates it; "duplicate" writes nothing. */
export function* createTokenOnce(q: QueryContext, remember: RememberRequest, input: NewToken, replay: ReplayRecord): Steps<TokenRow | "duplicate"> {
  if ((yield* remember(q, replay, input.now)) === "duplicate") return "duplicate";
  return yield* createToken(q, input);
}

/** Runs in one transaction: remembers the signed request, then revokes the token; UnknownTokenError (nothing remembered) when no active token has this id. */
export function* revokeTokenOnce(q: QueryContext, remember: RememberRequest, id: number, now: number, replay: ReplayRecord): Steps<ReplayStatus> {
  if ((yield* remember(q, replay, now)) === "duplicate") return "duplicate";
  if (!(yield* revokeToken(q, id, now))) throw new UnknownTokenError();
  return "new";
}

export function* getServer({ db, tables: { servers } }: QueryContext, uuid: string): Steps<ServerRow | undefined> {
  return yield* first(db.select().from(servers).where(eq(servers.uuid, uuid)));
}

/** Every server record, the most recently seen first (for the operator's `servers` command). */
export function* listServers({ db, tables: { servers } }: QueryContext): Steps<ServerRow[]> {
  return yield* rows(db.select().from(servers).orderBy(desc(servers.lastSeen)));
}

/** Samples of one server since a time, oldest first (for history charts). */
export function* listSamples({ db, tables: { serverSamples: samples } }: QueryContext, uuid: string, since: number): Steps<ServerSample[]> {
  return yield* rows(
    db
      .select({ serverUuid: samples.serverUuid, at: samples.at, playersOnline: samples.playersOnline, playersMax: samples.playersMax, tps: samples.tps, online: samples.online })
      .from(samples)
      .where(and(eq(samples.serverUuid, uuid), gte(samples.at, since)))
      .orderBy(asc(samples.at)),
  );
}

/**
 * Players online since a time, one point per `bucketMs` (aligned to the
 * epoch, so buckets stay put as time moves): the bucket's highest count at
 * its newest sample's time, oldest first. A chart needs a few hundred points
 * whatever the push rate; grouping in SQL keeps a server that pushes every
 * second from costing its banner thousands of rows.
 */
export function* listSampleBuckets({ db, tables: { serverSamples: samples } }: QueryContext, uuid: string, since: number, bucketMs: number): Steps<Array<{ at: number; online: number }>> {
  // Written into the SQL, not a parameter: PostgreSQL takes GROUP BY at / $3
  // and ORDER BY at / $4 for different expressions. A whole number, so safe to write.
  const bucket = sql`${samples.at} / ${sql.raw(String(Math.max(1, Math.floor(bucketMs) || 1)))}`;
  return yield* rows(
    db
      .select({ at: sql<number>`max(${samples.at})`.mapWith(Number), online: sql<number>`max(${samples.playersOnline})`.mapWith(Number) })
      .from(samples)
      .where(and(eq(samples.serverUuid, uuid), gte(samples.at, since), isNotNull(samples.playersOnline)))
      .groupBy(bucket)
      .orderBy(bucket),
  );
}

export function* getPlugin({ db, tables: { plugins } }: QueryContext, uuid: string): Steps<PluginRow | undefined> {
  return yield* first(db.select().from(plugins).where(eq(plugins.uuid, uuid)));
}
