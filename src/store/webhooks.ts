// Alert subscriptions, their servers' remembered state and the delivery queue,
// in SQLite. bun:sqlite is synchronous and this process its only writer of
// these rows, so each operation's transaction is all the ordering it needs.

import { and, asc, count, eq, gte, inArray, isNull, lt, lte, max, ne, sql } from "drizzle-orm";
import type { ReplayStatus } from "../auth/replay.ts";
import type { Db, Tx } from "./database.ts";
import type { PushStatements } from "./push-statements.ts";
import { serverSamples, servers, webhookDeliveries, webhookStates, webhooks } from "./schema.ts";
import { rememberRequest } from "./signed-requests.ts";
import type { Attempt, DueDelivery, DueShare, NewWebhook, Transition, WatchedServer, WebhookRemoval, WebhookRow } from "./webhook-records.ts";
import { afterAttempt, UnknownWebhookError, WebhookLimitError } from "./webhook-records.ts";
import { ReplayError } from "./write-refusals.ts";

export function createWebhook(db: Db, statements: PushStatements, hook: NewWebhook): { row: WebhookRow; duplicate: boolean } {
  return db.transaction((tx) => {
    const { replay, now } = hook;
    if (rememberRequest(statements, replay, now) === "duplicate") {
      const made = tx.select().from(webhooks).where(eq(webhooks.requestKey, replay.key)).get();
      if (made) return { row: made, duplicate: true };
      throw new ReplayError();
    }
    const [held] = tx.select({ n: count() }).from(webhooks).where(eq(webhooks.serverUuid, hook.serverUuid)).all();
    if ((held?.n ?? 0) >= hook.maxPerServer) throw new WebhookLimitError(hook.maxPerServer);
    rememberStart(tx, hook);
    const row = tx
      .insert(webhooks)
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
  const [watching] = tx.select({ n: count() }).from(webhooks).where(and(eq(webhooks.serverUuid, serverUuid), isNull(webhooks.pausedAt))).all();
  if ((watching?.n ?? 0) > 0) return;
  const peak = tx.select({ players: max(serverSamples.playersOnline) }).from(serverSamples).where(and(eq(serverSamples.serverUuid, serverUuid), eq(serverSamples.online, true))).get();
  tx.insert(webhookStates)
    .values({ serverUuid, state, changedAt: now, playersRecord: peak?.players ?? null })
    .onConflictDoUpdate({
      target: webhookStates.serverUuid,
      // SQLite's max() of two is null when either is: each stands in for the other.
      set: { state, changedAt: now, playersRecord: sql`max(coalesce(${webhookStates.playersRecord}, excluded.players_record), coalesce(excluded.players_record, ${webhookStates.playersRecord}))` },
    })
    .run();
}

export function listWebhooks(db: Db, serverUuid: string): WebhookRow[] {
  return db.select().from(webhooks).where(eq(webhooks.serverUuid, serverUuid)).orderBy(asc(webhooks.createdAt), asc(webhooks.id)).all();
}

export function removeWebhook(db: Db, statements: PushStatements, removal: WebhookRemoval): ReplayStatus {
  return db.transaction((tx) => {
    const { serverUuid, id, replay, now } = removal;
    if (rememberRequest(statements, replay, now) === "duplicate") return "duplicate";
    const removed = tx.delete(webhooks).where(and(eq(webhooks.serverUuid, serverUuid), eq(webhooks.id, id))).returning({ id: webhooks.id }).all();
    // Thrown, so the transaction forgets the request's key with everything else.
    if (removed.length === 0) throw new UnknownWebhookError();
    return "new";
  });
}

export function watchedServers(db: Db, peakSince: number): WatchedServer[] {
  const active = db.selectDistinct({ uuid: webhooks.serverUuid }).from(webhooks).where(isNull(webhooks.pausedAt));
  const peak = db
    .select({ players: max(serverSamples.playersOnline) })
    .from(serverSamples)
    .where(and(eq(serverSamples.serverUuid, servers.uuid), gte(serverSamples.at, peakSince), eq(serverSamples.online, true)));
  return db
    .select({
      uuid: servers.uuid, name: servers.name, status: servers.status, lastSeen: servers.lastSeen, playersOnline: servers.playersOnline, playersMax: servers.playersMax,
      playersPeak: sql<number | null>`(${peak})`,
    })
    .from(servers)
    .where(inArray(servers.uuid, active))
    .all();
}

export function claimTransition(db: Db, transition: Transition): number | null {
  return db.transaction((tx) => {
    const { serverUuid, now } = transition;
    if (!(moveRemembered(tx, transition))) return null;
    const hooks = tx.select().from(webhooks).where(and(eq(webhooks.serverUuid, serverUuid), isNull(webhooks.pausedAt))).all();
    const subscribed = hooks.filter((hook) => hook.events.includes(transition.event));
    for (const hook of subscribed) {
      tx.insert(webhookDeliveries).values({ webhookId: hook.id, body: transition.body(hook), createdAt: now, nextAt: now }).run();
      const over = tx
        .select({ id: webhookDeliveries.id })
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.webhookId, hook.id))
        .orderBy(sql`${webhookDeliveries.id} desc`)
        .all()
        // At most maxQueued + 1 rows: the bound holds after every insert.
        .slice(transition.maxQueued)
        .map((row) => row.id);
      if (over.length === 0) continue;
      tx.delete(webhookDeliveries).where(inArray(webhookDeliveries.id, over)).run();
      tx.update(webhooks).set({ dropped: sql`${webhooks.dropped} + ${over.length}` }).where(eq(webhooks.id, hook.id)).run();
    }
    return subscribed.length;
  });
}

/** Moves the server's remembered state, or its player record up; false when there is nothing to claim (no change, or the server seen first). */
function moveRemembered(tx: Tx, { serverUuid, change, now }: Transition): boolean {
  const row = eq(webhookStates.serverUuid, serverUuid);
  if ("state" in change) {
    const first = tx.insert(webhookStates).values({ serverUuid, state: change.state, changedAt: now }).onConflictDoNothing().returning().all();
    if (first.length > 0) return false;
    const moved = tx.update(webhookStates).set({ state: change.state, changedAt: now }).where(and(row, ne(webhookStates.state, change.state))).returning().all();
    return moved.length > 0;
  }
  // The first count seen sets the record; only passing it is news.
  const first = tx.update(webhookStates).set({ playersRecord: change.players }).where(and(row, isNull(webhookStates.playersRecord))).returning().all();
  if (first.length > 0) return false;
  const passed = tx.update(webhookStates).set({ playersRecord: change.players }).where(and(row, lt(webhookStates.playersRecord, change.players))).returning().all();
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
  const inFlight = sql<number>`${webhookDeliveries.leasedUntil} > ${now}`;
  const lines = tx.$with("lines").as(
    tx
      .select({
        id: webhookDeliveries.id, nextAt: webhookDeliveries.nextAt, inFlight: inFlight.as("in_flight"),
        turn: sql<number>`row_number() over (partition by ${servers.tokenId} order by ${inFlight} desc, ${webhookDeliveries.nextAt}, ${webhookDeliveries.id})`.as("turn"),
      })
      .from(webhookDeliveries)
      .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
      .innerJoin(servers, eq(servers.uuid, webhooks.serverUuid))
      .where(and(lte(webhookDeliveries.nextAt, now), isNull(webhooks.pausedAt))),
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

export function leaseDue(db: Db, now: number, leaseMs: number, share: DueShare): DueDelivery[] {
  return db.transaction((tx) => {
    const ids = pickDue(tx, now, share);
    if (ids.length === 0) return [];
    tx.update(webhookDeliveries).set({ leasedUntil: now + leaseMs }).where(inArray(webhookDeliveries.id, ids)).run();
    return tx
      .select({
        id: webhookDeliveries.id, webhookId: webhookDeliveries.webhookId, url: webhooks.url, format: webhooks.format, secret: webhooks.secret,
        body: webhookDeliveries.body, createdAt: webhookDeliveries.createdAt, attempts: webhookDeliveries.attempts,
      })
      .from(webhookDeliveries)
      .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
      .where(inArray(webhookDeliveries.id, ids))
      .all();
  });
}

export function settleAttempt(db: Db, attempt: Attempt): void {
  db.transaction((tx) => {
    const { deliveryId, webhookId } = attempt;
    if (attempt.ok || attempt.retryAt === null) tx.delete(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId)).run();
    else {
      tx.update(webhookDeliveries)
        .set({ attempts: sql`${webhookDeliveries.attempts} + 1`, nextAt: attempt.retryAt, leasedUntil: 0 })
        .where(eq(webhookDeliveries.id, deliveryId))
        .run();
    }
    if (attempt.holdUntil !== null) holdOthers(tx, attempt, attempt.holdUntil);
    const hook = tx.select({ failingSince: webhooks.failingSince }).from(webhooks).where(eq(webhooks.id, webhookId)).get();
    if (!hook) return;
    const { set, pause, gaveUp } = afterAttempt(attempt, hook.failingSince);
    tx.update(webhooks)
      .set({ ...set, ...(gaveUp ? { dropped: sql`${webhooks.dropped} + 1` } : {}) })
      .where(eq(webhooks.id, webhookId))
      .run();
    if (pause) tx.delete(webhookDeliveries).where(eq(webhookDeliveries.webhookId, webhookId)).run();
  });
}

/** Moves the subscription's other waiting deliveries (not those in flight) to `until` at the earliest: its receiver did not answer, so they would not be answered either. */
function holdOthers(tx: Tx, { deliveryId, webhookId, now }: Attempt, until: number): void {
  tx.update(webhookDeliveries)
    .set({ nextAt: until })
    .where(and(eq(webhookDeliveries.webhookId, webhookId), ne(webhookDeliveries.id, deliveryId), lt(webhookDeliveries.nextAt, until), lte(webhookDeliveries.leasedUntil, now)))
    .run();
}
