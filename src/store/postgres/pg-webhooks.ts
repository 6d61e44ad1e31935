// Alert subscriptions, their servers' remembered state and the delivery queue,
// in PostgreSQL (see ../webhooks.ts). Several instances run these at once:
// a subscription locks its server's row while it counts, a claim is a
// conditional update only one instance's transaction can make, and due
// deliveries are leased with SKIP LOCKED so two instances never take one.

import { and, asc, count, eq, gte, inArray, isNull, lt, max, ne, sql } from "drizzle-orm";
import type { ReplayStatus } from "../../auth/replay.ts";
import type { Attempt, DueDelivery, DueShare, NewWebhook, Transition, WatchedServer, WebhookRemoval, WebhookRow } from "../webhook-records.ts";
import { afterAttempt, UnknownWebhookError, WebhookLimitError } from "../webhook-records.ts";
import { ReplayError } from "../write-refusals.ts";
import type { PgDb } from "./open-postgres.ts";
import { rememberRequest, type PgTx } from "./pg-signed-requests.ts";
import { serverSamples, servers, webhookDeliveries, webhookStates, webhooks } from "./postgres-schema.ts";

export function createWebhook(db: PgDb, hook: NewWebhook): Promise<{ row: WebhookRow; duplicate: boolean }> {
  return db.transaction(async (tx) => {
    const { replay, now } = hook;
    if ((await rememberRequest(tx, replay, now)) === "duplicate") {
      const [made] = await tx.select().from(webhooks).where(eq(webhooks.requestKey, replay.key));
      if (made) return { row: made, duplicate: true };
      throw new ReplayError();
    }
    await tx.execute(sql`SELECT 1 FROM ${servers} WHERE ${servers.uuid} = ${hook.serverUuid} FOR UPDATE`);
    const [held] = await tx.select({ n: count() }).from(webhooks).where(eq(webhooks.serverUuid, hook.serverUuid));
    if ((held?.n ?? 0) >= hook.maxPerServer) throw new WebhookLimitError(hook.maxPerServer);
    await rememberStart(tx, hook);
    const [row] = await tx
      .insert(webhooks)
      .values({ id: hook.id, serverUuid: hook.serverUuid, url: hook.url, events: hook.events, format: hook.format, secret: hook.secret, requestKey: replay.key, createdAt: now })
      .returning();
    return { row: row!, duplicate: false };
  });
}

/** What a new subscription's alerts start from (see ../webhooks.ts); the server's row is locked, so subscriptions take turns. */
async function rememberStart(tx: PgTx, { serverUuid, state, now }: NewWebhook): Promise<void> {
  const [watching] = await tx.select({ n: count() }).from(webhooks).where(and(eq(webhooks.serverUuid, serverUuid), isNull(webhooks.pausedAt)));
  if ((watching?.n ?? 0) > 0) return;
  const [peak] = await tx.select({ players: max(serverSamples.playersOnline) }).from(serverSamples).where(and(eq(serverSamples.serverUuid, serverUuid), eq(serverSamples.online, true)));
  await tx
    .insert(webhookStates)
    .values({ serverUuid, state, changedAt: now, playersRecord: peak?.players ?? null })
    .onConflictDoUpdate({
      target: webhookStates.serverUuid,
      // greatest() passes over a null.
      set: { state, changedAt: now, playersRecord: sql`greatest(${webhookStates.playersRecord}, excluded.players_record)` },
    });
}

export function listWebhooks(db: PgDb, serverUuid: string): Promise<WebhookRow[]> {
  return db.select().from(webhooks).where(eq(webhooks.serverUuid, serverUuid)).orderBy(asc(webhooks.createdAt), asc(webhooks.id));
}

export function removeWebhook(db: PgDb, removal: WebhookRemoval): Promise<ReplayStatus> {
  return db.transaction(async (tx) => {
    const { serverUuid, id, replay, now } = removal;
    if ((await rememberRequest(tx, replay, now)) === "duplicate") return "duplicate";
    const removed = await tx.delete(webhooks).where(and(eq(webhooks.serverUuid, serverUuid), eq(webhooks.id, id))).returning({ id: webhooks.id });
    // Thrown, so the transaction forgets the request's key with everything else.
    if (removed.length === 0) throw new UnknownWebhookError();
    return "new";
  });
}

export function watchedServers(db: PgDb, peakSince: number): Promise<WatchedServer[]> {
  const active = db.selectDistinct({ uuid: webhooks.serverUuid }).from(webhooks).where(isNull(webhooks.pausedAt));
  const peak = db
    .select({ players: max(serverSamples.playersOnline) })
    .from(serverSamples)
    .where(and(eq(serverSamples.serverUuid, servers.uuid), gte(serverSamples.at, peakSince), eq(serverSamples.online, true)));
  return db
    .select({
      uuid: servers.uuid, name: servers.name, status: servers.status, lastSeen: servers.lastSeen, playersOnline: servers.playersOnline, playersMax: servers.playersMax,
      playersPeak: sql<number | null>`(${peak})`.mapWith((value) => (value === null ? null : Number(value))),
    })
    .from(servers)
    .where(inArray(servers.uuid, active));
}

export function claimTransition(db: PgDb, transition: Transition): Promise<number | null> {
  return db.transaction(async (tx) => {
    const { serverUuid, now } = transition;
    if (!(await moveRemembered(tx, transition))) return null;
    const hooks = await tx.select().from(webhooks).where(and(eq(webhooks.serverUuid, serverUuid), isNull(webhooks.pausedAt)));
    const subscribed = hooks.filter((hook) => hook.events.includes(transition.event));
    for (const hook of subscribed) {
      await tx.insert(webhookDeliveries).values({ webhookId: hook.id, body: transition.body(hook), createdAt: now, nextAt: now });
      const over = await tx
        .select({ id: webhookDeliveries.id })
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.webhookId, hook.id))
        .orderBy(sql`${webhookDeliveries.id} desc`)
        .offset(transition.maxQueued);
      if (over.length === 0) continue;
      await tx.delete(webhookDeliveries).where(inArray(webhookDeliveries.id, over.map((row) => row.id)));
      await tx.update(webhooks).set({ dropped: sql`${webhooks.dropped} + ${over.length}` }).where(eq(webhooks.id, hook.id));
    }
    return subscribed.length;
  });
}

/** Moves the server's remembered state, or its player record up; false when there is nothing to claim (no change, or the server seen first). */
async function moveRemembered(tx: PgTx, { serverUuid, change, now }: Transition): Promise<boolean> {
  const row = eq(webhookStates.serverUuid, serverUuid);
  if ("state" in change) {
    const first = await tx.insert(webhookStates).values({ serverUuid, state: change.state, changedAt: now }).onConflictDoNothing().returning();
    if (first.length > 0) return false;
    const moved = await tx.update(webhookStates).set({ state: change.state, changedAt: now }).where(and(row, ne(webhookStates.state, change.state))).returning();
    return moved.length > 0;
  }
  // The first count seen sets the record; only passing it is news.
  const first = await tx.update(webhookStates).set({ playersRecord: change.players }).where(and(row, isNull(webhookStates.playersRecord))).returning();
  if (first.length > 0) return false;
  const passed = await tx.update(webhookStates).set({ playersRecord: change.players }).where(and(row, lt(webhookStates.playersRecord, change.players))).returning();
  return passed.length > 0;
}

/**
 * The deliveries to lease at `now`, in the round robin of ../webhooks.ts
 * (pickDue there). Read without locks: the lease below takes only those still
 * free, so two instances picking at once never lease one twice (and may
 * together lease a token past its share until their leases end).
 */
async function pickDue(tx: PgTx, now: number, share: DueShare): Promise<number[]> {
  const inFlight = sql<boolean>`${webhookDeliveries.leasedUntil} > ${now}::int8`;
  const lines = tx.$with("lines").as(
    tx
      .select({
        id: webhookDeliveries.id, nextAt: webhookDeliveries.nextAt, inFlight: inFlight.as("in_flight"),
        turn: sql<number>`row_number() over (partition by ${servers.tokenId} order by ${inFlight} desc, ${webhookDeliveries.nextAt}, ${webhookDeliveries.id})`.as("turn"),
      })
      .from(webhookDeliveries)
      .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
      .innerJoin(servers, eq(servers.uuid, webhooks.serverUuid))
      .where(and(sql`${webhookDeliveries.nextAt} <= ${now}::int8`, isNull(webhooks.pausedAt))),
  );
  const rows = await tx
    .with(lines)
    .select({ id: lines.id })
    .from(lines)
    .where(and(sql`not ${lines.inFlight}`, sql`${lines.turn} <= ${share.perToken}`))
    .orderBy(asc(lines.turn), asc(lines.nextAt), asc(lines.id))
    .limit(share.total);
  return rows.map((row) => row.id);
}

export async function leaseDue(db: PgDb, now: number, leaseMs: number, share: DueShare): Promise<DueDelivery[]> {
  return db.transaction(async (tx) => {
    const ids = await pickDue(tx, now, share);
    if (ids.length === 0) return [];
    // Of those picked, the ones no other instance has leased since (its lease committed) or is leasing (its rows locked).
    const rows = await tx
      .select({
        id: webhookDeliveries.id, webhookId: webhookDeliveries.webhookId, url: webhooks.url, format: webhooks.format, secret: webhooks.secret,
        body: webhookDeliveries.body, createdAt: webhookDeliveries.createdAt, attempts: webhookDeliveries.attempts,
      })
      .from(webhookDeliveries)
      .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
      .where(and(inArray(webhookDeliveries.id, ids), sql`${webhookDeliveries.leasedUntil} <= ${now}::int8`))
      .for("update", { of: webhookDeliveries, skipLocked: true });
    if (rows.length > 0) {
      await tx.update(webhookDeliveries).set({ leasedUntil: now + leaseMs }).where(inArray(webhookDeliveries.id, rows.map((row) => row.id)));
    }
    return rows;
  });
}

export function settleAttempt(db: PgDb, attempt: Attempt): Promise<void> {
  return db.transaction(async (tx) => {
    const { deliveryId, webhookId } = attempt;
    if (attempt.ok || attempt.retryAt === null) await tx.delete(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId));
    else {
      await tx
        .update(webhookDeliveries)
        .set({ attempts: sql`${webhookDeliveries.attempts} + 1`, nextAt: attempt.retryAt, leasedUntil: 0 })
        .where(eq(webhookDeliveries.id, deliveryId));
    }
    if (attempt.holdUntil !== null) await holdOthers(tx, attempt, attempt.holdUntil);
    const [hook] = await tx.select({ failingSince: webhooks.failingSince }).from(webhooks).where(eq(webhooks.id, webhookId)).for("update");
    if (!hook) return;
    const { set, pause, gaveUp } = afterAttempt(attempt, hook.failingSince);
    await tx
      .update(webhooks)
      .set({ ...set, ...(gaveUp ? { dropped: sql`${webhooks.dropped} + 1` } : {}) })
      .where(eq(webhooks.id, webhookId));
    if (pause) await tx.delete(webhookDeliveries).where(eq(webhookDeliveries.webhookId, webhookId));
  });
}

/** Moves the subscription's other waiting deliveries (not those in flight) to `until` at the earliest (see ../webhooks.ts). */
async function holdOthers(tx: PgTx, { deliveryId, webhookId, now }: Attempt, until: number): Promise<void> {
  await tx
    .update(webhookDeliveries)
    .set({ nextAt: until })
    .where(
      and(
        eq(webhookDeliveries.webhookId, webhookId), ne(webhookDeliveries.id, deliveryId),
        sql`${webhookDeliveries.nextAt} < ${until}::int8`, sql`${webhookDeliveries.leasedUntil} <= ${now}::int8`,
      ),
    );
}
