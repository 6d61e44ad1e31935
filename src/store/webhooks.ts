// Alert subscriptions, their servers' remembered state and the delivery queue,
// on either backend. On SQLite each operation's transaction is all the
// ordering it needs (one writer); on PostgreSQL several instances run these at
// once: a subscription locks its server's row while it counts, a claim is a
// conditional update only one instance's transaction can make, and due
// deliveries are leased with SKIP LOCKED so two instances never take one.

import { and, asc, count, eq, gte, inArray, isNull, lt, max, ne, sql } from "drizzle-orm";
import type { ReplayStatus } from "../auth/replay.ts";
import { first, runIfAny, rows, run, type QueryContext, type RememberRequest, type Steps } from "./query-steps.ts";
import type { Attempt, DueDelivery, DueShare, NewWebhook, Transition, WatchedServer, WebhookRemoval, WebhookRow } from "./webhook-records.ts";
import { afterAttempt, UnknownWebhookError, WebhookLimitError } from "./webhook-records.ts";
import { ReplayError } from "./write-refusals.ts";

/** Runs in one transaction; `remember` is the backend's (RememberRequest). */
export function* createWebhook(q: QueryContext, remember: RememberRequest, hook: NewWebhook): Steps<{ row: WebhookRow; duplicate: boolean }> {
  const { db, tables: { servers, webhooks }, dialect } = q;
  const { replay, now } = hook;
  if ((yield* remember(q, replay, now)) === "duplicate") {
    const made = yield* first(db.select().from(webhooks).where(eq(webhooks.requestKey, replay.key)));
    if (made) return { row: made, duplicate: true };
    throw new ReplayError();
  }
  // The server's row is locked, so subscriptions take turns.
  yield* runIfAny(dialect.lockRows(servers, eq(servers.uuid, hook.serverUuid)));
  const held = yield* first(db.select({ n: count() }).from(webhooks).where(eq(webhooks.serverUuid, hook.serverUuid)));
  if ((held?.n ?? 0) >= hook.maxPerServer) throw new WebhookLimitError(hook.maxPerServer);
  yield* rememberStart(q, hook);
  const values = { id: hook.id, serverUuid: hook.serverUuid, url: hook.url, events: hook.events, format: hook.format, secret: hook.secret, requestKey: replay.key, createdAt: now };
  return { row: (yield* first(db.insert(webhooks).values(values).returning()))!, duplicate: false };
}

/**
 * What a new subscription's alerts start from, unless another active
 * subscription already watches the server (its sweeps keep the remembered
 * state): the server's state now, and as its record the highest of the one
 * remembered and its samples' (the store's contract, store.ts).
 */
function* rememberStart({ db, tables: { webhooks, serverSamples: samples, webhookStates: states }, dialect }: QueryContext, { serverUuid, state, now }: NewWebhook): Steps<void> {
  const watching = yield* first(db.select({ n: count() }).from(webhooks).where(and(eq(webhooks.serverUuid, serverUuid), isNull(webhooks.pausedAt))));
  if ((watching?.n ?? 0) > 0) return;
  const peak = yield* first(db.select({ players: max(samples.playersOnline) }).from(samples).where(and(eq(samples.serverUuid, serverUuid), eq(samples.online, true))));
  yield* run(
    db
      .insert(states)
      .values({ serverUuid, state, changedAt: now, playersRecord: peak?.players ?? null })
      .onConflictDoUpdate({ target: states.serverUuid, set: { state, changedAt: now, playersRecord: dialect.greatest(states.playersRecord, sql.raw("excluded.players_record")) } }),
  );
}

export function* listWebhooks({ db, tables: { webhooks } }: QueryContext, serverUuid: string): Steps<WebhookRow[]> {
  return yield* rows(db.select().from(webhooks).where(eq(webhooks.serverUuid, serverUuid)).orderBy(asc(webhooks.createdAt), asc(webhooks.id)));
}

/** Runs in one transaction. */
export function* removeWebhook(q: QueryContext, remember: RememberRequest, removal: WebhookRemoval): Steps<ReplayStatus> {
  const { db, tables: { webhooks } } = q;
  const { serverUuid, id, replay, now } = removal;
  if ((yield* remember(q, replay, now)) === "duplicate") return "duplicate";
  const removed = yield* rows(db.delete(webhooks).where(and(eq(webhooks.serverUuid, serverUuid), eq(webhooks.id, id))).returning({ id: webhooks.id }));
  // Thrown, so the transaction forgets the request's key with everything else.
  if (removed.length === 0) throw new UnknownWebhookError();
  return "new";
}

export function* watchedServers({ db, tables: { webhooks, servers, serverSamples: samples } }: QueryContext, peakSince: number): Steps<WatchedServer[]> {
  const active = db.selectDistinct({ uuid: webhooks.serverUuid }).from(webhooks).where(isNull(webhooks.pausedAt));
  const peak = db
    .select({ players: max(samples.playersOnline) })
    .from(samples)
    .where(and(eq(samples.serverUuid, servers.uuid), gte(samples.at, peakSince), eq(samples.online, true)));
  return yield* rows(
    db
      .select({
        uuid: servers.uuid, name: servers.name, status: servers.status, lastSeen: servers.lastSeen, playersOnline: servers.playersOnline, playersMax: servers.playersMax,
        playersPeak: sql<number | null>`(${peak})`.mapWith(Number),
      })
      .from(servers)
      .where(inArray(servers.uuid, active)),
  );
}

/** Runs in one transaction. */
export function* claimTransition(q: QueryContext, transition: Transition): Steps<number | null> {
  const { db, tables: { webhooks, webhookDeliveries: deliveries } } = q;
  const { serverUuid, now } = transition;
  if (!(yield* moveRemembered(q, transition))) return null;
  const hooks = yield* rows(db.select().from(webhooks).where(and(eq(webhooks.serverUuid, serverUuid), isNull(webhooks.pausedAt))));
  const subscribed = hooks.filter((hook) => hook.events.includes(transition.event));
  for (const hook of subscribed) {
    yield* run(db.insert(deliveries).values({ webhookId: hook.id, body: transition.body(hook), createdAt: now, nextAt: now }));
    const queued = yield* rows(db.select({ id: deliveries.id }).from(deliveries).where(eq(deliveries.webhookId, hook.id)).orderBy(sql`${deliveries.id} desc`));
    // At most maxQueued + 1 rows: the bound holds after every insert.
    const over = queued.slice(transition.maxQueued).map((row) => row.id);
    if (over.length === 0) continue;
    yield* run(db.delete(deliveries).where(inArray(deliveries.id, over)));
    yield* run(db.update(webhooks).set({ dropped: sql`${webhooks.dropped} + ${over.length}` }).where(eq(webhooks.id, hook.id)));
  }
  return subscribed.length;
}

/** Moves the server's remembered state, or its player record up; false when there is nothing to claim (no change, or the server seen first). */
function* moveRemembered({ db, tables: { webhookStates: states } }: QueryContext, { serverUuid, change, now }: Transition): Steps<boolean> {
  const row = eq(states.serverUuid, serverUuid);
  if ("state" in change) {
    const firstSeen = yield* rows(db.insert(states).values({ serverUuid, state: change.state, changedAt: now }).onConflictDoNothing().returning());
    if (firstSeen.length > 0) return false;
    const moved = yield* rows(db.update(states).set({ state: change.state, changedAt: now }).where(and(row, ne(states.state, change.state))).returning());
    return moved.length > 0;
  }
  // The first count seen sets the record; only passing it is news.
  const firstCount = yield* rows(db.update(states).set({ playersRecord: change.players }).where(and(row, isNull(states.playersRecord))).returning());
  if (firstCount.length > 0) return false;
  const passed = yield* rows(db.update(states).set({ playersRecord: change.players }).where(and(row, lt(states.playersRecord, change.players))).returning());
  return passed.length > 0;
}

/**
 * The deliveries to lease at `now`, by the store contract's round robin: every
 * due delivery (those in flight have not moved their next_at, so they are
 * among them) takes a turn in its token's line, the ones in flight first; the
 * first `share.perToken` turns of each line may be in flight, and the free ones
 * among them are taken turn by turn, oldest first within a turn. Read without
 * locks: the lease takes only those still free, so two instances picking at
 * once never lease one twice (and may together lease a token past its share
 * until their leases end).
 */
function* pickDue({ db, tables: { webhookDeliveries: deliveries, webhooks, servers }, dialect }: QueryContext, now: number, share: DueShare): Steps<number[]> {
  const inFlight = sql<boolean>`${deliveries.leasedUntil} > ${dialect.int(now)}`;
  const lines = db.$with("lines").as(
    db
      .select({
        id: deliveries.id, nextAt: deliveries.nextAt, inFlight: inFlight.as("in_flight"),
        turn: sql<number>`row_number() over (partition by ${servers.tokenId} order by ${inFlight} desc, ${deliveries.nextAt}, ${deliveries.id})`.as("turn"),
      })
      .from(deliveries)
      .innerJoin(webhooks, eq(webhooks.id, deliveries.webhookId))
      .innerJoin(servers, eq(servers.uuid, webhooks.serverUuid))
      .where(and(sql`${deliveries.nextAt} <= ${dialect.int(now)}`, isNull(webhooks.pausedAt))),
  );
  const picked = yield* rows(
    db
      .with(lines)
      .select({ id: lines.id })
      .from(lines)
      .where(and(sql`not ${lines.inFlight}`, sql`${lines.turn} <= ${share.perToken}`))
      .orderBy(asc(lines.turn), asc(lines.nextAt), asc(lines.id))
      .limit(share.total),
  );
  return picked.map((row) => row.id);
}

/** Runs in one transaction. */
export function* leaseDue(q: QueryContext, now: number, leaseMs: number, share: DueShare): Steps<DueDelivery[]> {
  const { db, tables: { webhookDeliveries: deliveries, webhooks }, dialect } = q;
  const ids = yield* pickDue(q, now, share);
  if (ids.length === 0) return [];
  // Of those picked, the ones no other instance has leased since (its lease committed) or is leasing (its rows locked).
  const select = db
    .select({
      id: deliveries.id, webhookId: deliveries.webhookId, url: webhooks.url, format: webhooks.format, secret: webhooks.secret,
      body: deliveries.body, createdAt: deliveries.createdAt, attempts: deliveries.attempts,
    })
    .from(deliveries)
    .innerJoin(webhooks, eq(webhooks.id, deliveries.webhookId))
    .where(and(inArray(deliveries.id, ids), sql`${deliveries.leasedUntil} <= ${dialect.int(now)}`));
  const leased = yield* rows(dialect.forUpdate(select, { of: deliveries, skipLocked: true }));
  if (leased.length > 0) yield* run(db.update(deliveries).set({ leasedUntil: now + leaseMs }).where(inArray(deliveries.id, leased.map((row) => row.id))));
  return leased;
}

/** Runs in one transaction. */
export function* settleAttempt(q: QueryContext, attempt: Attempt): Steps<void> {
  const { db, tables: { webhookDeliveries: deliveries, webhooks }, dialect } = q;
  const { deliveryId, webhookId } = attempt;
  if (attempt.ok || attempt.retryAt === null) yield* run(db.delete(deliveries).where(eq(deliveries.id, deliveryId)));
  else {
    yield* run(db.update(deliveries).set({ attempts: sql`${deliveries.attempts} + 1`, nextAt: attempt.retryAt, leasedUntil: 0 }).where(eq(deliveries.id, deliveryId)));
  }
  if (attempt.holdUntil !== null) yield* holdOthers(q, attempt, attempt.holdUntil);
  const hook = yield* first(dialect.forUpdate(db.select({ failingSince: webhooks.failingSince }).from(webhooks).where(eq(webhooks.id, webhookId))));
  if (!hook) return;
  const { set, pause, gaveUp } = afterAttempt(attempt, hook.failingSince);
  yield* run(db.update(webhooks).set({ ...set, ...(gaveUp ? { dropped: sql`${webhooks.dropped} + 1` } : {}) }).where(eq(webhooks.id, webhookId)));
  if (pause) yield* run(db.delete(deliveries).where(eq(deliveries.webhookId, webhookId)));
}

/** Moves the subscription's other waiting deliveries (not those in flight) to `until` at the earliest: its receiver did not answer, so they would not be answered either. */
function* holdOthers({ db, tables: { webhookDeliveries: deliveries }, dialect }: QueryContext, { deliveryId, webhookId, now }: Attempt, until: number): Steps<void> {
  const waiting = and(
    eq(deliveries.webhookId, webhookId), ne(deliveries.id, deliveryId),
    sql`${deliveries.nextAt} < ${dialect.int(until)}`, sql`${deliveries.leasedUntil} <= ${dialect.int(now)}`,
  );
  yield* run(db.update(deliveries).set({ nextAt: until }).where(waiting));
}
