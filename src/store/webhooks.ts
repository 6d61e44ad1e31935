// Alert subscriptions, their servers' remembered state and the delivery queue,
// on either backend. On SQLite each operation's transaction is all the
// ordering it needs (one writer); on PostgreSQL several instances run these at
// once: a subscription locks its server's row while it counts, a claim is a
// conditional update only one instance's transaction can make, and due
// deliveries are leased with SKIP LOCKED so two instances never take one.

import { and, asc, count, eq, gte, inArray, isNull, lt, max, ne, sql } from "drizzle-orm";
import type { ReplayStatus } from "../auth/replay.ts";
import { first, runIfAny, rows, run, type QueryContext, type RememberRequest, type Steps } from "./query-steps.ts";
import type {
  Attempt, DueDelivery, DueShare, LiveAsk, LiveLease, LiveOutcome, NewWebhook, ServerState, StateClaim, Transition, WatchedServer, WebhookRemoval, WebhookRow,
} from "./webhook-records.ts";
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
  // Told what the sweeps remember: a change they have not found yet reaches this subscription too.
  const remembered = yield* first(db.select({ state: q.tables.webhookStates.state }).from(q.tables.webhookStates).where(eq(q.tables.webhookStates.serverUuid, hook.serverUuid)));
  const values = {
    id: hook.id, serverUuid: hook.serverUuid, url: hook.url, events: hook.events, format: hook.format, secret: hook.secret, requestKey: replay.key, createdAt: now,
    graceMs: hook.graceMs, intervalMs: hook.intervalMs, toldState: remembered?.state ?? hook.state,
  };
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
        version: servers.version, motd: servers.motd, pageEnabled: servers.pageEnabled,
        playersPeak: sql<number | null>`(${peak})`.mapWith(Number),
      })
      .from(servers)
      .where(inArray(servers.uuid, active)),
  );
}

/** Runs in one transaction. */
export function* claimTransition(q: QueryContext, transition: Transition): Steps<number | null> {
  const { change } = transition;
  if ("players" in change) {
    if (!(yield* passRecord(q, transition, change.players))) return null;
    const { db, tables: { webhooks } } = q;
    return yield* queueDeliveries(q, transition, yield* rows(db.select().from(webhooks).where(and(eq(webhooks.serverUuid, transition.serverUuid), isNull(webhooks.pausedAt)))));
  }
  const moved = yield* moveState(q, transition, change);
  if (moved === "first seen" || moved === "outdated") return null;
  const told = yield* tell(q, transition, change.state);
  return moved === "moved" || told.length > 0 ? yield* queueDeliveries(q, transition, told) : null;
}

/**
 * Moves the server's remembered state (and since when it holds) to `state`:
 * "first seen" when nothing was remembered (its subscriptions are told it,
 * nothing is sent), "moved", "same", or "outdated" when newer news has been
 * claimed (nothing changes). A subscription made before it was told anything
 * is told what was remembered first, so no change is lost.
 */
function* moveState(q: QueryContext, transition: Transition, claim: StateClaim): Steps<"first seen" | "outdated" | "moved" | "same"> {
  const { db, tables: { webhooks, webhookStates: states } } = q;
  const { serverUuid, now } = transition;
  const { state } = claim;
  const remembered = db.select({ state: states.state }).from(states).where(eq(states.serverUuid, serverUuid));
  const untold = and(eq(webhooks.serverUuid, serverUuid), isNull(webhooks.toldState));
  yield* run(db.update(webhooks).set({ toldState: sql`(${remembered})` }).where(untold));
  const firstSeen = yield* rows(db.insert(states).values({ serverUuid, state, changedAt: now }).onConflictDoNothing().returning());
  if (firstSeen.length > 0) {
    yield* run(db.update(webhooks).set({ toldState: state }).where(untold));
    return "first seen";
  }
  if (yield* outdated(q, transition, claim)) return "outdated";
  const moved = yield* rows(db.update(states).set({ state, changedAt: now }).where(and(eq(states.serverUuid, serverUuid), ne(states.state, state))).returning());
  return moved.length > 0 ? "moved" : "same";
}

/**
 * Whether a claim is older news than what is remembered: the state moved
 * after the claim's `now` (another instance's sweep judged later and
 * committed first), or the server as it is now, judged at `now`, is not the
 * state claimed (a push came after the sweep read it). Either would move the
 * state back and tell a flap that never was. Claims of one server take
 * turns from here: its remembered state's row is locked, then the server is
 * read in a statement of its own, so it shows every push committed before
 * the turn (on PostgreSQL each statement reads what was committed when it
 * started, and a select joined to the locked row would read the server as
 * it was before the wait).
 */
function* outdated({ db, tables: { webhookStates: states, servers }, dialect }: QueryContext, { serverUuid, now }: Transition, { state, stateOf }: StateClaim): Steps<boolean> {
  const held = yield* first(dialect.forUpdate(db.select({ changedAt: states.changedAt }).from(states).where(eq(states.serverUuid, serverUuid))));
  const server = yield* first(db.select({ status: servers.status, lastSeen: servers.lastSeen }).from(servers).where(eq(servers.uuid, serverUuid)));
  return !held || !server || held.changedAt > now || stateOf(server) !== state;
}

/**
 * Tells the server's subscriptions to events its state: `offline` those
 * whose grace it has stayed offline for, `online` those told `offline`
 * before. Each is a conditional update, so of instances telling at once one
 * tells each subscription. The subscriptions told now.
 */
function* tell({ db, tables: { webhooks, webhookStates: states }, dialect }: QueryContext, { serverUuid, now }: Transition, state: ServerState): Steps<WebhookRow[]> {
  const held = yield* first(db.select({ changedAt: states.changedAt }).from(states).where(eq(states.serverUuid, serverUuid)));
  if (!held) return [];
  // `online` needs no grace: told `offline` before, the subscription hears it came back.
  const graceOver = state === "offline" ? sql`${webhooks.graceMs} <= ${dialect.int(now - held.changedAt)}` : undefined;
  const due = and(eq(webhooks.serverUuid, serverUuid), isNull(webhooks.pausedAt), ne(webhooks.format, "discord-live"), ne(webhooks.toldState, state), graceOver);
  return yield* rows(db.update(webhooks).set({ toldState: state }).where(due).returning());
}

/** Queues the event's delivery for each of `hooks` that asked for it, each subscription's queue kept within maxQueued; how many were queued. */
function* queueDeliveries({ db, tables: { webhooks, webhookDeliveries: deliveries } }: QueryContext, transition: Transition, hooks: readonly WebhookRow[]): Steps<number> {
  const subscribed = hooks.filter((hook) => hook.events.includes(transition.event));
  for (const hook of subscribed) {
    yield* run(db.insert(deliveries).values({ webhookId: hook.id, body: transition.body(hook), createdAt: transition.now, nextAt: transition.now }));
    const queued = yield* rows(db.select({ id: deliveries.id }).from(deliveries).where(eq(deliveries.webhookId, hook.id)).orderBy(sql`${deliveries.id} desc`));
    // At most maxQueued + 1 rows: the bound holds after every insert.
    const over = queued.slice(transition.maxQueued).map((row) => row.id);
    if (over.length === 0) continue;
    yield* run(db.delete(deliveries).where(inArray(deliveries.id, over)));
    yield* run(db.update(webhooks).set({ dropped: sql`${webhooks.dropped} + ${over.length}` }).where(eq(webhooks.id, hook.id)));
  }
  return subscribed.length;
}

/** Moves the server's player record up to `players`; false when there is nothing to claim (not passed, or the first count seen, which sets it). */
function* passRecord({ db, tables: { webhookStates: states } }: QueryContext, { serverUuid }: Transition, players: number): Steps<boolean> {
  const row = eq(states.serverUuid, serverUuid);
  const firstCount = yield* rows(db.update(states).set({ playersRecord: players }).where(and(row, isNull(states.playersRecord))).returning());
  if (firstCount.length > 0) return false;
  const passed = yield* rows(db.update(states).set({ playersRecord: players }).where(and(row, lt(states.playersRecord, players))).returning());
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

/**
 * The live messages to post or edit at `now`, by the same shares as the
 * deliveries: each token's in turn (its oldest due first), those in flight
 * counted in its share. Due: not paused, its interval and Discord's waits
 * over, and no message yet or one that shows other than its server would now.
 */
function pickLive(candidates: ReadonlyArray<{ id: string; serverUuid: string; tokenId: number; messageId: string | null; shown: string | null; leasedUntil: number }>, ask: LiveAsk): string[] {
  const lines = new Map<number, { inFlight: number; due: string[] }>();
  for (const row of candidates) {
    const line = lines.get(row.tokenId) ?? { inFlight: 0, due: [] };
    lines.set(row.tokenId, line);
    if (row.leasedUntil > ask.now) line.inFlight += 1;
    else {
      const wanted = ask.shown(row.serverUuid);
      if (wanted !== undefined && (row.messageId === null || row.shown !== wanted)) line.due.push(row.id);
    }
  }
  const picked: string[] = [];
  for (let turn = 0; picked.length < ask.share.total; turn++) {
    let any = false;
    for (const line of lines.values()) {
      if (turn >= line.due.length || line.inFlight + turn >= ask.share.perToken) continue;
      any = true;
      if (picked.length < ask.share.total) picked.push(line.due[turn]!);
    }
    if (!any) break;
  }
  return picked;
}

/**
 * Leases the live messages due (pickLive) for `leaseMs`. Read without locks;
 * the lease is a conditional update that takes only those still free and
 * due, so of instances leasing at once one takes each message.
 */
export function* leaseLive({ db, tables: { webhooks, servers }, dialect }: QueryContext, ask: LiveAsk): Steps<LiveLease[]> {
  const live = and(eq(webhooks.format, "discord-live"), isNull(webhooks.pausedAt), sql`${webhooks.liveNextAt} <= ${dialect.int(ask.now)}`);
  const candidates = yield* rows(
    db
      .select({ id: webhooks.id, serverUuid: webhooks.serverUuid, tokenId: servers.tokenId, messageId: webhooks.messageId, shown: webhooks.shown, leasedUntil: webhooks.liveLeasedUntil })
      .from(webhooks)
      .innerJoin(servers, eq(servers.uuid, webhooks.serverUuid))
      .where(live)
      .orderBy(asc(webhooks.liveNextAt), asc(webhooks.createdAt), asc(webhooks.id)),
  );
  const picked = pickLive(candidates, ask);
  if (picked.length === 0) return [];
  const free = and(inArray(webhooks.id, picked), live, sql`${webhooks.liveLeasedUntil} <= ${dialect.int(ask.now)}`);
  return yield* rows(
    db
      .update(webhooks)
      .set({ liveLeasedUntil: ask.now + ask.leaseMs })
      .where(free)
      .returning({ webhookId: webhooks.id, serverUuid: webhooks.serverUuid, url: webhooks.url, messageId: webhooks.messageId, intervalMs: webhooks.intervalMs }),
  );
}

/** Records how a post or an edit went and ends its lease; runs in one transaction. */
export function* settleLive({ db, tables: { webhooks }, dialect }: QueryContext, outcome: LiveOutcome): Steps<void> {
  const hook = yield* first(dialect.forUpdate(db.select({ failingSince: webhooks.failingSince }).from(webhooks).where(eq(webhooks.id, outcome.webhookId))));
  if (!hook) return;
  const { result, now, status } = outcome;
  const message = { messageId: outcome.messageId, liveNextAt: outcome.nextAt, liveLeasedUntil: 0, ...(outcome.shown === null ? {} : { shown: outcome.shown }) };
  // A wait Discord asked for is neither a success nor a failure.
  const attempt =
    result === "waited" ? { lastStatus: status, lastDeliveryAt: now }
    : result === "gone" ? { lastStatus: status, lastDeliveryAt: now, pausedAt: now }
    : afterAttempt({ ok: result === "done", now, status, retryAt: outcome.nextAt, pauseAfterMs: outcome.pauseAfterMs }, hook.failingSince).set;
  yield* run(db.update(webhooks).set({ ...message, ...attempt }).where(eq(webhooks.id, outcome.webhookId)));
}
