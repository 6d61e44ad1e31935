// Alert subscriptions, their servers' remembered state and the delivery queue,
// in SQLite. bun:sqlite is synchronous and this process its only writer of
// these rows, so each operation's transaction is all the ordering it needs.

import { and, asc, count, eq, gte, inArray, isNull, lt, lte, max, ne, sql } from "drizzle-orm";
import type { ReplayStatus } from "../auth/replay.ts";
import type { Db, Tx } from "./database.ts";
import type { PushStatements } from "./sqlite-push.ts";
import { sqliteServerSamples, sqliteServers, sqliteWebhookDeliveries, sqliteWebhookStates, sqliteWebhooks } from "./schema.ts";
import { sqliteRememberRequest } from "./signed-requests.ts";
import type { Attempt, DueDelivery, DueShare, NewWebhook, Transition, WatchedServer, WebhookRemoval, WebhookRow } from "./webhook-records.ts";
import { afterAttempt, UnknownWebhookError, WebhookLimitError } from "./webhook-records.ts";
import { ReplayError } from "./write-refusals.ts";

export function sqliteCreateWebhook(db: Db, statements: PushStatements, hook: NewWebhook): { row: WebhookRow; duplicate: boolean } {
  return db.transaction((tx) => {
    const { replay, now } = hook;
    if (sqliteRememberRequest(statements, replay, now) === "duplicate") {
      const made = tx.select().from(sqliteWebhooks).where(eq(sqliteWebhooks.requestKey, replay.key)).get();
      if (made) return { row: made, duplicate: true };
      throw new ReplayError();
    }
    const [held] = tx.select({ n: count() }).from(sqliteWebhooks).where(eq(sqliteWebhooks.serverUuid, hook.serverUuid)).all();
    if ((held?.n ?? 0) >= hook.maxPerServer) throw new WebhookLimitError(hook.maxPerServer);
    rememberStart(tx, hook);
    const row = tx
      .insert(sqliteWebhooks)
      .values({ id: hook.id, serverUuid: hook.serverUuid, url: hook.url, events: hook.events, format: hook.format, secret: hook.secret, requestKey: replay.key, createdAt: now })
      .returning()
      .get();
    return { row, duplicate: false };
  });
}

/**
 * What a new subscription's alerts start from, unless another active
 * subscription already watches the server (its sweeps keep the remembered
 * state): the server's state now, and as its record the highest of the one
 * remembered and its samples' (the store's contract, store.ts).
 */
function rememberStart(tx: Tx, { serverUuid, state, now }: NewWebhook): void {
  const [watching] = tx.select({ n: count() }).from(sqliteWebhooks).where(and(eq(sqliteWebhooks.serverUuid, serverUuid), isNull(sqliteWebhooks.pausedAt))).all();
  if ((watching?.n ?? 0) > 0) return;
  const peak = tx.select({ players: max(sqliteServerSamples.playersOnline) }).from(sqliteServerSamples).where(and(eq(sqliteServerSamples.serverUuid, serverUuid), eq(sqliteServerSamples.online, true))).get();
  tx.insert(sqliteWebhookStates)
    .values({ serverUuid, state, changedAt: now, playersRecord: peak?.players ?? null })
    .onConflictDoUpdate({
      target: sqliteWebhookStates.serverUuid,
      // SQLite's max() of two is null when either is: each stands in for the other.
      set: { state, changedAt: now, playersRecord: sql`max(coalesce(${sqliteWebhookStates.playersRecord}, excluded.players_record), coalesce(excluded.players_record, ${sqliteWebhookStates.playersRecord}))` },
    })
    .run();
}

export function sqliteListWebhooks(db: Db, serverUuid: string): WebhookRow[] {
  return db.select().from(sqliteWebhooks).where(eq(sqliteWebhooks.serverUuid, serverUuid)).orderBy(asc(sqliteWebhooks.createdAt), asc(sqliteWebhooks.id)).all();
}

export function sqliteRemoveWebhook(db: Db, statements: PushStatements, removal: WebhookRemoval): ReplayStatus {
  return db.transaction((tx) => {
    const { serverUuid, id, replay, now } = removal;
    if (sqliteRememberRequest(statements, replay, now) === "duplicate") return "duplicate";
    const removed = tx.delete(sqliteWebhooks).where(and(eq(sqliteWebhooks.serverUuid, serverUuid), eq(sqliteWebhooks.id, id))).returning({ id: sqliteWebhooks.id }).all();
    // Thrown, so the transaction forgets the request's key with everything else.
    if (removed.length === 0) throw new UnknownWebhookError();
    return "new";
  });
}

export function sqliteWatchedServers(db: Db, peakSince: number): WatchedServer[] {
  const active = db.selectDistinct({ uuid: sqliteWebhooks.serverUuid }).from(sqliteWebhooks).where(isNull(sqliteWebhooks.pausedAt));
  const peak = db
    .select({ players: max(sqliteServerSamples.playersOnline) })
    .from(sqliteServerSamples)
    .where(and(eq(sqliteServerSamples.serverUuid, sqliteServers.uuid), gte(sqliteServerSamples.at, peakSince), eq(sqliteServerSamples.online, true)));
  return db
    .select({
      uuid: sqliteServers.uuid, name: sqliteServers.name, status: sqliteServers.status, lastSeen: sqliteServers.lastSeen, playersOnline: sqliteServers.playersOnline, playersMax: sqliteServers.playersMax,
      playersPeak: sql<number | null>`(${peak})`,
    })
    .from(sqliteServers)
    .where(inArray(sqliteServers.uuid, active))
    .all();
}

export function sqliteClaimTransition(db: Db, transition: Transition): number | null {
  return db.transaction((tx) => {
    const { serverUuid, now } = transition;
    if (!(moveRemembered(tx, transition))) return null;
    const hooks = tx.select().from(sqliteWebhooks).where(and(eq(sqliteWebhooks.serverUuid, serverUuid), isNull(sqliteWebhooks.pausedAt))).all();
    const subscribed = hooks.filter((hook) => hook.events.includes(transition.event));
    for (const hook of subscribed) {
      tx.insert(sqliteWebhookDeliveries).values({ webhookId: hook.id, body: transition.body(hook), createdAt: now, nextAt: now }).run();
      const over = tx
        .select({ id: sqliteWebhookDeliveries.id })
        .from(sqliteWebhookDeliveries)
        .where(eq(sqliteWebhookDeliveries.webhookId, hook.id))
        .orderBy(sql`${sqliteWebhookDeliveries.id} desc`)
        .all()
        // At most maxQueued + 1 rows: the bound holds after every insert.
        .slice(transition.maxQueued)
        .map((row) => row.id);
      if (over.length === 0) continue;
      tx.delete(sqliteWebhookDeliveries).where(inArray(sqliteWebhookDeliveries.id, over)).run();
      tx.update(sqliteWebhooks).set({ dropped: sql`${sqliteWebhooks.dropped} + ${over.length}` }).where(eq(sqliteWebhooks.id, hook.id)).run();
    }
    return subscribed.length;
  });
}

/** Moves the server's remembered state, or its player record up; false when there is nothing to claim (no change, or the server seen first). */
function moveRemembered(tx: Tx, { serverUuid, change, now }: Transition): boolean {
  const row = eq(sqliteWebhookStates.serverUuid, serverUuid);
  if ("state" in change) {
    const first = tx.insert(sqliteWebhookStates).values({ serverUuid, state: change.state, changedAt: now }).onConflictDoNothing().returning().all();
    if (first.length > 0) return false;
    const moved = tx.update(sqliteWebhookStates).set({ state: change.state, changedAt: now }).where(and(row, ne(sqliteWebhookStates.state, change.state))).returning().all();
    return moved.length > 0;
  }
  // The first count seen sets the record; only passing it is news.
  const first = tx.update(sqliteWebhookStates).set({ playersRecord: change.players }).where(and(row, isNull(sqliteWebhookStates.playersRecord))).returning().all();
  if (first.length > 0) return false;
  const passed = tx.update(sqliteWebhookStates).set({ playersRecord: change.players }).where(and(row, lt(sqliteWebhookStates.playersRecord, change.players))).returning().all();
  return passed.length > 0;
}

/**
 * The deliveries to lease at `now`, by the store contract's round robin: every
 * due delivery (those in flight have not moved their next_at, so they are
 * among them) takes a turn in its token's line, the ones in flight first; the
 * first `share.perToken` turns of each line may be in flight, and the free ones
 * among them are taken turn by turn, oldest first within a turn.
 */
function pickDue(tx: Tx, now: number, share: DueShare): number[] {
  const inFlight = sql<number>`${sqliteWebhookDeliveries.leasedUntil} > ${now}`;
  const lines = tx.$with("lines").as(
    tx
      .select({
        id: sqliteWebhookDeliveries.id, nextAt: sqliteWebhookDeliveries.nextAt, inFlight: inFlight.as("in_flight"),
        turn: sql<number>`row_number() over (partition by ${sqliteServers.tokenId} order by ${inFlight} desc, ${sqliteWebhookDeliveries.nextAt}, ${sqliteWebhookDeliveries.id})`.as("turn"),
      })
      .from(sqliteWebhookDeliveries)
      .innerJoin(sqliteWebhooks, eq(sqliteWebhooks.id, sqliteWebhookDeliveries.webhookId))
      .innerJoin(sqliteServers, eq(sqliteServers.uuid, sqliteWebhooks.serverUuid))
      .where(and(lte(sqliteWebhookDeliveries.nextAt, now), isNull(sqliteWebhooks.pausedAt))),
  );
  return tx
    .with(lines)
    .select({ id: lines.id })
    .from(lines)
    .where(and(sql`not ${lines.inFlight}`, lte(lines.turn, share.perToken)))
    .orderBy(asc(lines.turn), asc(lines.nextAt), asc(lines.id))
    .limit(share.total)
    .all()
    .map((row) => row.id);
}

export function sqliteLeaseDue(db: Db, now: number, leaseMs: number, share: DueShare): DueDelivery[] {
  return db.transaction((tx) => {
    const ids = pickDue(tx, now, share);
    if (ids.length === 0) return [];
    tx.update(sqliteWebhookDeliveries).set({ leasedUntil: now + leaseMs }).where(inArray(sqliteWebhookDeliveries.id, ids)).run();
    return tx
      .select({
        id: sqliteWebhookDeliveries.id, webhookId: sqliteWebhookDeliveries.webhookId, url: sqliteWebhooks.url, format: sqliteWebhooks.format, secret: sqliteWebhooks.secret,
        body: sqliteWebhookDeliveries.body, createdAt: sqliteWebhookDeliveries.createdAt, attempts: sqliteWebhookDeliveries.attempts,
      })
      .from(sqliteWebhookDeliveries)
      .innerJoin(sqliteWebhooks, eq(sqliteWebhooks.id, sqliteWebhookDeliveries.webhookId))
      .where(inArray(sqliteWebhookDeliveries.id, ids))
      .all();
  });
}

export function sqliteSettleAttempt(db: Db, attempt: Attempt): void {
  db.transaction((tx) => {
    const { deliveryId, webhookId } = attempt;
    if (attempt.ok || attempt.retryAt === null) tx.delete(sqliteWebhookDeliveries).where(eq(sqliteWebhookDeliveries.id, deliveryId)).run();
    else {
      tx.update(sqliteWebhookDeliveries)
        .set({ attempts: sql`${sqliteWebhookDeliveries.attempts} + 1`, nextAt: attempt.retryAt, leasedUntil: 0 })
        .where(eq(sqliteWebhookDeliveries.id, deliveryId))
        .run();
    }
    if (attempt.holdUntil !== null) holdOthers(tx, attempt, attempt.holdUntil);
    const hook = tx.select({ failingSince: sqliteWebhooks.failingSince }).from(sqliteWebhooks).where(eq(sqliteWebhooks.id, webhookId)).get();
    if (!hook) return;
    const { set, pause, gaveUp } = afterAttempt(attempt, hook.failingSince);
    tx.update(sqliteWebhooks)
      .set({ ...set, ...(gaveUp ? { dropped: sql`${sqliteWebhooks.dropped} + 1` } : {}) })
      .where(eq(sqliteWebhooks.id, webhookId))
      .run();
    if (pause) tx.delete(sqliteWebhookDeliveries).where(eq(sqliteWebhookDeliveries.webhookId, webhookId)).run();
  });
}

/** Moves the subscription's other waiting deliveries (not those in flight) to `until` at the earliest: its receiver did not answer, so they would not be answered either. */
function holdOthers(tx: Tx, { deliveryId, webhookId, now }: Attempt, until: number): void {
  tx.update(sqliteWebhookDeliveries)
    .set({ nextAt: until })
    .where(and(eq(sqliteWebhookDeliveries.webhookId, webhookId), ne(sqliteWebhookDeliveries.id, deliveryId), lt(sqliteWebhookDeliveries.nextAt, until), lte(sqliteWebhookDeliveries.leasedUntil, now)))
    .run();
}
