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
import { pgRememberRequest, type PgTx } from "./pg-signed-requests.ts";
import { pgServerSamples, pgServers, pgWebhookDeliveries, pgWebhookStates, pgWebhooks } from "./postgres-schema.ts";

export function pgCreateWebhook(db: PgDb, hook: NewWebhook): Promise<{ row: WebhookRow; duplicate: boolean }> {
  return db.transaction(async (tx) => {
    const { replay, now } = hook;
    if ((await pgRememberRequest(tx, replay, now)) === "duplicate") {
      const [made] = await tx.select().from(pgWebhooks).where(eq(pgWebhooks.requestKey, replay.key));
      if (made) return { row: made, duplicate: true };
      throw new ReplayError();
    }
    await tx.execute(sql`SELECT 1 FROM ${pgServers} WHERE ${pgServers.uuid} = ${hook.serverUuid} FOR UPDATE`);
    const [held] = await tx.select({ n: count() }).from(pgWebhooks).where(eq(pgWebhooks.serverUuid, hook.serverUuid));
    if ((held?.n ?? 0) >= hook.maxPerServer) throw new WebhookLimitError(hook.maxPerServer);
    await rememberStart(tx, hook);
    const [row] = await tx
      .insert(pgWebhooks)
      .values({ id: hook.id, serverUuid: hook.serverUuid, url: hook.url, events: hook.events, format: hook.format, secret: hook.secret, requestKey: replay.key, createdAt: now })
      .returning();
    return { row: row!, duplicate: false };
  });
}

/** What a new subscription's alerts start from (see ../webhooks.ts); the server's row is locked, so subscriptions take turns. */
async function rememberStart(tx: PgTx, { serverUuid, state, now }: NewWebhook): Promise<void> {
  const [watching] = await tx.select({ n: count() }).from(pgWebhooks).where(and(eq(pgWebhooks.serverUuid, serverUuid), isNull(pgWebhooks.pausedAt)));
  if ((watching?.n ?? 0) > 0) return;
  const [peak] = await tx.select({ players: max(pgServerSamples.playersOnline) }).from(pgServerSamples).where(and(eq(pgServerSamples.serverUuid, serverUuid), eq(pgServerSamples.online, true)));
  await tx
    .insert(pgWebhookStates)
    .values({ serverUuid, state, changedAt: now, playersRecord: peak?.players ?? null })
    .onConflictDoUpdate({
      target: pgWebhookStates.serverUuid,
      // greatest() passes over a null.
      set: { state, changedAt: now, playersRecord: sql`greatest(${pgWebhookStates.playersRecord}, excluded.players_record)` },
    });
}

export function pgListWebhooks(db: PgDb, serverUuid: string): Promise<WebhookRow[]> {
  return db.select().from(pgWebhooks).where(eq(pgWebhooks.serverUuid, serverUuid)).orderBy(asc(pgWebhooks.createdAt), asc(pgWebhooks.id));
}

export function pgRemoveWebhook(db: PgDb, removal: WebhookRemoval): Promise<ReplayStatus> {
  return db.transaction(async (tx) => {
    const { serverUuid, id, replay, now } = removal;
    if ((await pgRememberRequest(tx, replay, now)) === "duplicate") return "duplicate";
    const removed = await tx.delete(pgWebhooks).where(and(eq(pgWebhooks.serverUuid, serverUuid), eq(pgWebhooks.id, id))).returning({ id: pgWebhooks.id });
    // Thrown, so the transaction forgets the request's key with everything else.
    if (removed.length === 0) throw new UnknownWebhookError();
    return "new";
  });
}

export function pgWatchedServers(db: PgDb, peakSince: number): Promise<WatchedServer[]> {
  const active = db.selectDistinct({ uuid: pgWebhooks.serverUuid }).from(pgWebhooks).where(isNull(pgWebhooks.pausedAt));
  const peak = db
    .select({ players: max(pgServerSamples.playersOnline) })
    .from(pgServerSamples)
    .where(and(eq(pgServerSamples.serverUuid, pgServers.uuid), gte(pgServerSamples.at, peakSince), eq(pgServerSamples.online, true)));
  return db
    .select({
      uuid: pgServers.uuid, name: pgServers.name, status: pgServers.status, lastSeen: pgServers.lastSeen, playersOnline: pgServers.playersOnline, playersMax: pgServers.playersMax,
      playersPeak: sql<number | null>`(${peak})`.mapWith((value) => (value === null ? null : Number(value))),
    })
    .from(pgServers)
    .where(inArray(pgServers.uuid, active));
}

export function pgClaimTransition(db: PgDb, transition: Transition): Promise<number | null> {
  return db.transaction(async (tx) => {
    const { serverUuid, now } = transition;
    if (!(await moveRemembered(tx, transition))) return null;
    const hooks = await tx.select().from(pgWebhooks).where(and(eq(pgWebhooks.serverUuid, serverUuid), isNull(pgWebhooks.pausedAt)));
    const subscribed = hooks.filter((hook) => hook.events.includes(transition.event));
    for (const hook of subscribed) {
      await tx.insert(pgWebhookDeliveries).values({ webhookId: hook.id, body: transition.body(hook), createdAt: now, nextAt: now });
      const over = await tx
        .select({ id: pgWebhookDeliveries.id })
        .from(pgWebhookDeliveries)
        .where(eq(pgWebhookDeliveries.webhookId, hook.id))
        .orderBy(sql`${pgWebhookDeliveries.id} desc`)
        .offset(transition.maxQueued);
      if (over.length === 0) continue;
      await tx.delete(pgWebhookDeliveries).where(inArray(pgWebhookDeliveries.id, over.map((row) => row.id)));
      await tx.update(pgWebhooks).set({ dropped: sql`${pgWebhooks.dropped} + ${over.length}` }).where(eq(pgWebhooks.id, hook.id));
    }
    return subscribed.length;
  });
}

/** Moves the server's remembered state, or its player record up; false when there is nothing to claim (no change, or the server seen first). */
async function moveRemembered(tx: PgTx, { serverUuid, change, now }: Transition): Promise<boolean> {
  const row = eq(pgWebhookStates.serverUuid, serverUuid);
  if ("state" in change) {
    const first = await tx.insert(pgWebhookStates).values({ serverUuid, state: change.state, changedAt: now }).onConflictDoNothing().returning();
    if (first.length > 0) return false;
    const moved = await tx.update(pgWebhookStates).set({ state: change.state, changedAt: now }).where(and(row, ne(pgWebhookStates.state, change.state))).returning();
    return moved.length > 0;
  }
  // The first count seen sets the record; only passing it is news.
  const first = await tx.update(pgWebhookStates).set({ playersRecord: change.players }).where(and(row, isNull(pgWebhookStates.playersRecord))).returning();
  if (first.length > 0) return false;
  const passed = await tx.update(pgWebhookStates).set({ playersRecord: change.players }).where(and(row, lt(pgWebhookStates.playersRecord, change.players))).returning();
  return passed.length > 0;
}

/**
 * The deliveries to lease at `now`, in the round robin of ../webhooks.ts
 * (pickDue there). Read without locks: the lease below takes only those still
 * free, so two instances picking at once never lease one twice (and may
 * together lease a token past its share until their leases end).
 */
async function pickDue(tx: PgTx, now: number, share: DueShare): Promise<number[]> {
  const inFlight = sql<boolean>`${pgWebhookDeliveries.leasedUntil} > ${now}::int8`;
  const lines = tx.$with("lines").as(
    tx
      .select({
        id: pgWebhookDeliveries.id, nextAt: pgWebhookDeliveries.nextAt, inFlight: inFlight.as("in_flight"),
        turn: sql<number>`row_number() over (partition by ${pgServers.tokenId} order by ${inFlight} desc, ${pgWebhookDeliveries.nextAt}, ${pgWebhookDeliveries.id})`.as("turn"),
      })
      .from(pgWebhookDeliveries)
      .innerJoin(pgWebhooks, eq(pgWebhooks.id, pgWebhookDeliveries.webhookId))
      .innerJoin(pgServers, eq(pgServers.uuid, pgWebhooks.serverUuid))
      .where(and(sql`${pgWebhookDeliveries.nextAt} <= ${now}::int8`, isNull(pgWebhooks.pausedAt))),
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

export async function pgLeaseDue(db: PgDb, now: number, leaseMs: number, share: DueShare): Promise<DueDelivery[]> {
  return db.transaction(async (tx) => {
    const ids = await pickDue(tx, now, share);
    if (ids.length === 0) return [];
    // Of those picked, the ones no other instance has leased since (its lease committed) or is leasing (its rows locked).
    const rows = await tx
      .select({
        id: pgWebhookDeliveries.id, webhookId: pgWebhookDeliveries.webhookId, url: pgWebhooks.url, format: pgWebhooks.format, secret: pgWebhooks.secret,
        body: pgWebhookDeliveries.body, createdAt: pgWebhookDeliveries.createdAt, attempts: pgWebhookDeliveries.attempts,
      })
      .from(pgWebhookDeliveries)
      .innerJoin(pgWebhooks, eq(pgWebhooks.id, pgWebhookDeliveries.webhookId))
      .where(and(inArray(pgWebhookDeliveries.id, ids), sql`${pgWebhookDeliveries.leasedUntil} <= ${now}::int8`))
      .for("update", { of: pgWebhookDeliveries, skipLocked: true });
    if (rows.length > 0) {
      await tx.update(pgWebhookDeliveries).set({ leasedUntil: now + leaseMs }).where(inArray(pgWebhookDeliveries.id, rows.map((row) => row.id)));
    }
    return rows;
  });
}

export function pgSettleAttempt(db: PgDb, attempt: Attempt): Promise<void> {
  return db.transaction(async (tx) => {
    const { deliveryId, webhookId } = attempt;
    if (attempt.ok || attempt.retryAt === null) await tx.delete(pgWebhookDeliveries).where(eq(pgWebhookDeliveries.id, deliveryId));
    else {
      await tx
        .update(pgWebhookDeliveries)
        .set({ attempts: sql`${pgWebhookDeliveries.attempts} + 1`, nextAt: attempt.retryAt, leasedUntil: 0 })
        .where(eq(pgWebhookDeliveries.id, deliveryId));
    }
    if (attempt.holdUntil !== null) await holdOthers(tx, attempt, attempt.holdUntil);
    const [hook] = await tx.select({ failingSince: pgWebhooks.failingSince }).from(pgWebhooks).where(eq(pgWebhooks.id, webhookId)).for("update");
    if (!hook) return;
    const { set, pause, gaveUp } = afterAttempt(attempt, hook.failingSince);
    await tx
      .update(pgWebhooks)
      .set({ ...set, ...(gaveUp ? { dropped: sql`${pgWebhooks.dropped} + 1` } : {}) })
      .where(eq(pgWebhooks.id, webhookId));
    if (pause) await tx.delete(pgWebhookDeliveries).where(eq(pgWebhookDeliveries.webhookId, webhookId));
  });
}

/** Moves the subscription's other waiting deliveries (not those in flight) to `until` at the earliest (see ../webhooks.ts). */
async function holdOthers(tx: PgTx, { deliveryId, webhookId, now }: Attempt, until: number): Promise<void> {
  await tx
    .update(pgWebhookDeliveries)
    .set({ nextAt: until })
    .where(
      and(
        eq(pgWebhookDeliveries.webhookId, webhookId), ne(pgWebhookDeliveries.id, deliveryId),
        sql`${pgWebhookDeliveries.nextAt} < ${until}::int8`, sql`${pgWebhookDeliveries.leasedUntil} <= ${now}::int8`,
      ),
    );
}
