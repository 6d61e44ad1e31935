// The webhook operations of the store, one body for every backend.

import { expect, test } from "bun:test";
import type { ReplayRecord } from "../../src/auth/replay.ts";
import type { RowBatch } from "../../src/store/dump.ts";
import type { Store } from "../../src/store/store.ts";
import { stateOf } from "../../src/alerts/events.ts";
import type { DueDelivery, NewWebhook, ServerState, Transition, WatchedServer } from "../../src/store/webhook-records.ts";
import { forEachBackend } from "../support/backends.ts";

const SERVER = "00000000-0000-4000-8000-000000000001";
const OTHER = "00000000-0000-4000-8000-000000000002";
let requests = 0;

function replay(fingerprint = `print-${++requests}`): ReplayRecord {
  return { key: `key-${++requests}-`.padEnd(64, "0"), fingerprint, timestampMs: 0, expiresAt: Number.MAX_SAFE_INTEGER };
}

function hook(more: Partial<NewWebhook> = {}): NewWebhook {
  const id = crypto.randomUUID();
  return { id, serverUuid: SERVER, url: `https://example.com/${id}`, events: ["offline", "online"], format: "json", secret: "s".repeat(64), now: 10, replay: replay(), maxPerServer: 10, state: "online", graceMs: 0, intervalMs: 0, ...more };
}

/** A removal of subscription `id` of `serverUuid` by a signed request of its own. */
function removal(store: Store, serverUuid: string, id: string) {
  return store.webhooks.remove({ serverUuid, id, replay: replay(), now: 20 });
}

/** An update of `uuid` at `now`, `players` online, saying `status`, by the store's one token. */
async function pushServer(store: Store, uuid: string, now: number, players: number, status: string): Promise<void> {
  const token = (await store.tokens.findByHash("t".padEnd(64, "0")))!;
  await store.push({
    credentials: { tokenId: token.id, tokenHash: token.hash }, replay: replay(), now, bounds: { registrationMax: 10, maxBytesPerToken: 4096 },
    record: { kind: "server", uuid, serverPush: "update", fields: { name: "Lobby", status, playersOnline: players, playersMax: 20 }, maxPerToken: 10 },
  });
}

/** A store holding SERVER and OTHER (3 players online at 1 ms), pushed by one token. */
async function storeWithServers(open: () => Promise<Store>): Promise<Store> {
  const store = await open();
  await store.tokens.create({ hash: "t".padEnd(64, "0"), scope: "all", label: "t", now: 0 });
  for (const uuid of [SERVER, OTHER]) await pushServer(store, uuid, 1, 3, "online");
  return store;
}

/** A sweep's judgement of a server as a claim finds it. */
type Judge = (server: Pick<WatchedServer, "status" | "lastSeen">) => ServerState;

/** A lease's share roomy enough for every test but the one of shares. */
const SHARE = { total: 100, perToken: 100 };

/** A claim of SERVER going offline at 100 ms unless `more` says otherwise; a state claimed as the server is judged however it is now, unless its stateOf says. */
function offline({ change = { state: "offline" }, ...more }: Partial<Omit<Transition, "change">> & { change?: { state: ServerState; stateOf?: Judge } | { players: number } } = {}): Transition {
  const claimed = "players" in change ? change : { stateOf: () => change.state, ...change };
  return { serverUuid: SERVER, change: claimed, event: "offline", now: 100, body: (row) => `to ${row.id}`, maxQueued: 5, ...more };
}

forEachBackend("webhook subscriptions", (open) => {
  test("created, listed per server oldest first, removed only under their own server, at most maxPerServer", async () => {
    const store = await storeWithServers(open);
    const first = await store.webhooks.create(hook({ now: 10 }));
    const second = await store.webhooks.create(hook({ now: 11, format: "discord", events: ["offline"] }));
    expect(first.duplicate).toBe(false);
    expect(first.row).toMatchObject({ serverUuid: SERVER, format: "json", events: ["offline", "online"], pausedAt: null, dropped: 0, lastStatus: null });
    expect((await store.webhooks.list(SERVER)).map((row) => row.id)).toEqual([first.row.id, second.row.id]);
    expect(await store.webhooks.list(OTHER)).toEqual([]);
    await expect(removal(store, OTHER, first.row.id)).rejects.toMatchObject({ name: "UnknownWebhookError" });
    expect(await removal(store, SERVER, first.row.id)).toBe("new");
    await expect(removal(store, SERVER, first.row.id)).rejects.toMatchObject({ name: "UnknownWebhookError" });
    await store.webhooks.create(hook({ maxPerServer: 2 }));
    const refused = hook({ maxPerServer: 2 });
    await expect(store.webhooks.create(refused)).rejects.toMatchObject({ name: "WebhookLimitError", limit: 2 });
    expect((await store.webhooks.list(SERVER)).map((row) => row.id)).not.toContain(refused.id);
    // The refused request was not remembered: the same signed request is accepted once there is room.
    await removal(store, SERVER, second.row.id);
    expect((await store.webhooks.create(refused)).row.id).toBe(refused.id);
  });

  test("a removal is remembered with it: an exact resend is a duplicate, its signature for another id refused, a refused one forgotten", async () => {
    const store = await storeWithServers(open);
    const [first, second] = [await store.webhooks.create(hook()), await store.webhooks.create(hook())];
    const removed = { serverUuid: SERVER, id: first.row.id, replay: replay("remove first"), now: 20 };
    expect(await store.webhooks.remove(removed)).toBe("new");
    expect(await store.webhooks.remove(removed)).toBe("duplicate");
    const elsewhere = { ...removed, id: second.row.id, replay: { ...removed.replay, fingerprint: "remove second" } };
    await expect(store.webhooks.remove(elsewhere)).rejects.toMatchObject({ name: "ReplayError" });
    expect((await store.webhooks.list(SERVER)).map((row) => row.id)).toEqual([second.row.id]);
    // Refused (no such id): its key is not kept, so the same request is taken once the id is right.
    const unknown = { serverUuid: SERVER, id: crypto.randomUUID(), replay: replay("remove second"), now: 20 };
    await expect(store.webhooks.remove(unknown)).rejects.toMatchObject({ name: "UnknownWebhookError" });
    expect(await store.webhooks.remove({ ...unknown, id: second.row.id })).toBe("new");
    expect(await store.webhooks.list(SERVER)).toEqual([]);
  });

  test("an exact duplicate hands back the first subscription; the signature reused elsewhere is refused", async () => {
    const store = await storeWithServers(open);
    const asked = hook();
    const first = await store.webhooks.create(asked);
    const again = await store.webhooks.create({ ...asked, id: crypto.randomUUID() });
    expect(again).toEqual({ row: first.row, duplicate: true });
    await expect(store.webhooks.create({ ...asked, id: crypto.randomUUID(), replay: { ...asked.replay, fingerprint: "elsewhere" } })).rejects.toMatchObject({ name: "ReplayError" });
    expect(await store.webhooks.list(SERVER)).toHaveLength(1);
  });
});

forEachBackend("webhook events and deliveries", (open) => {
  test("subscribing remembers the server's state; a change is claimed once and queued for its subscribers", async () => {
    const store = await storeWithServers(open);
    const both = await store.webhooks.create(hook());
    await store.webhooks.create(hook({ events: ["players_record"] }));
    expect((await store.webhooks.watched(0)).map((server) => server.uuid)).toEqual([SERVER]);
    expect(await store.webhooks.claim(offline({ change: { state: "online" }, event: "online" }))).toBeNull();
    const claims = await Promise.all(Array.from({ length: 6 }, () => store.webhooks.claim(offline())));
    expect(claims.filter((queued) => queued !== null)).toEqual([1]);
    const due = await store.webhooks.due(100, 30_000, SHARE);
    expect(due).toEqual([{ id: due[0]!.id, webhookId: both.row.id, url: both.row.url, format: "json", secret: both.row.secret, body: `to ${both.row.id}`, createdAt: 100, attempts: 0 }]);
    // Leased: no one else takes it meanwhile.
    expect(await store.webhooks.due(101, 30_000, SHARE)).toEqual([]);
  });

  test("a player record starts at the samples' peak when subscribing and is claimed once when passed, not when equalled or lower", async () => {
    const store = await storeWithServers(open);
    // Saying offline: not a count a record is made of.
    await pushServer(store, SERVER, 2, 40, "offline");
    await store.webhooks.create(hook({ events: ["players_record"] }));
    const record = (players: number) => offline({ change: { players }, event: "players_record", body: () => `record ${players}` });
    expect(await store.webhooks.claim(record(3))).toBeNull();
    expect(await store.webhooks.claim(record(2))).toBeNull();
    const claims = await Promise.all(Array.from({ length: 6 }, () => store.webhooks.claim(record(9))));
    expect(claims.filter((queued) => queued !== null)).toEqual([1]);
    expect((await store.webhooks.due(100, 30_000, SHARE)).map((delivery) => delivery.body)).toEqual(["record 9"]);
  });

  test("a subscription while another is active keeps the remembered state; the first after none starts again from now, the record kept", async () => {
    const store = await storeWithServers(open);
    await store.webhooks.create(hook());
    await store.webhooks.claim(offline({ change: { players: 30 }, event: "players_record" }));
    // Offline, not yet claimed: a second subscriber saying so changes nothing, the sweep still finds the change.
    await store.webhooks.create(hook({ state: "offline" }));
    expect(await store.webhooks.claim(offline())).toBe(2);
    for (const row of await store.webhooks.list(SERVER)) await removal(store, SERVER, row.id);
    // Back online while no one watched: a new subscriber starts from online, not from the offline remembered.
    await store.webhooks.create(hook({ now: 200, state: "online" }));
    expect(await store.webhooks.claim(offline({ change: { state: "online" }, event: "online", now: 300 }))).toBeNull();
    expect(await store.webhooks.claim(offline({ change: { players: 30 }, event: "players_record", now: 300 }))).toBeNull();
  });

  test("a watched server's peak counts the samples of updates saying online taken from the time asked", async () => {
    const store = await storeWithServers(open);
    await store.webhooks.create(hook());
    await pushServer(store, SERVER, 120_000, 50, "online");
    await pushServer(store, SERVER, 180_000, 10, "online");
    await pushServer(store, SERVER, 240_000, 70, "offline");
    const peak = async (since: number) => (await store.webhooks.watched(since)).map((server) => server.playersPeak);
    expect(await peak(0)).toEqual([50]);
    expect(await peak(180_000)).toEqual([10]);
    expect(await peak(240_000)).toEqual([null]);
  });

  test("a failed attempt is retried when due, a give-up is counted, a success clears the failure, a day of failures pauses", async () => {
    const store = await storeWithServers(open);
    const { row } = await store.webhooks.create(hook());
    await store.webhooks.claim(offline({ change: { state: "online" } }));
    await store.webhooks.claim(offline());
    const [delivery] = await store.webhooks.due(100, 30_000, SHARE);
    const attempt = { deliveryId: delivery!.id, webhookId: row.id, holdUntil: null, pauseAfterMs: 86_400_000 };
    await store.webhooks.settle({ ...attempt, now: 100, status: 500, ok: false, retryAt: 200 });
    expect(await store.webhooks.due(199, 30_000, SHARE)).toEqual([]);
    const [retry] = await store.webhooks.due(200, 30_000, SHARE);
    expect(retry).toMatchObject({ id: delivery!.id, attempts: 1 });
    await store.webhooks.settle({ ...attempt, now: 200, status: 0, ok: false, retryAt: null });
    expect((await store.webhooks.list(SERVER))[0]).toMatchObject({ failingSince: 100, lastStatus: 0, lastDeliveryAt: 200, dropped: 1, pausedAt: null });
    expect(await store.webhooks.due(10_000, 30_000, SHARE)).toEqual([]);

    await store.webhooks.claim(offline({ change: { state: "online" }, now: 300 }));
    const [next] = await store.webhooks.due(300, 30_000, SHARE);
    await store.webhooks.settle({ ...attempt, deliveryId: next!.id, now: 300, status: 204, ok: true, retryAt: null });
    expect((await store.webhooks.list(SERVER))[0]).toMatchObject({ failingSince: null, lastStatus: 204, pausedAt: null });

    await store.webhooks.claim(offline({ now: 400 }));
    const [failing] = await store.webhooks.due(400, 30_000, SHARE);
    await store.webhooks.settle({ ...attempt, deliveryId: failing!.id, now: 400, status: 500, ok: false, retryAt: 500 });
    const dayLater = 400 + 86_400_000;
    await store.webhooks.settle({ ...attempt, deliveryId: failing!.id, now: dayLater, status: 500, ok: false, retryAt: dayLater + 100 });
    expect((await store.webhooks.list(SERVER))[0]).toMatchObject({ pausedAt: dayLater });
    expect(await store.webhooks.due(dayLater + 1_000, 30_000, SHARE)).toEqual([]);
    expect(await store.webhooks.watched(0)).toEqual([]);
  });

  test("the queue keeps at most maxQueued deliveries per subscription, the newest, and counts those dropped", async () => {
    const store = await storeWithServers(open);
    await store.webhooks.create(hook());
    let at = 1_000;
    for (let i = 0; i < 8; i++) {
      at += 1;
      await store.webhooks.claim(offline({ change: { state: i % 2 === 0 ? "online" : "offline" }, event: i % 2 === 0 ? "online" : "offline", now: at, maxQueued: 3, body: () => `n${i}` }));
    }
    const due = await store.webhooks.due(at, 30_000, SHARE);
    expect(due.map((delivery) => delivery.body).sort()).toEqual(["n5", "n6", "n7"]);
    expect((await store.webhooks.list(SERVER))[0]!.dropped).toBe(4);
  });
});

forEachBackend("webhook delivery leases", (open, openTwo) => {
  const THIRD = "00000000-0000-4000-8000-000000000003";

  /** storeWithServers' store, and THIRD pushed by a second token. */
  async function twoTokens(): Promise<Store> {
    const store = await storeWithServers(open);
    const other = await store.tokens.create({ hash: "u".padEnd(64, "0"), scope: "all", label: "u", now: 0 });
    await store.push({
      credentials: { tokenId: other.id, tokenHash: other.hash }, replay: replay(), now: 1, bounds: { registrationMax: 10, maxBytesPerToken: 4096 },
      record: { kind: "server", uuid: THIRD, serverPush: "update", fields: { name: "Third", status: "online", playersOnline: 1, playersMax: 20 }, maxPerToken: 10 },
    });
    return store;
  }

  /** Subscribes `hooks` subscriptions of `serverUuid` and claims its going offline at `now`: each delivery's body says whose it is. */
  async function queue(store: Store, serverUuid: string, hooks: number, now: number): Promise<void> {
    for (let n = 0; n < hooks; n++) await store.webhooks.create(hook({ serverUuid }));
    let turn = 0;
    await store.webhooks.claim(offline({ serverUuid, now, body: () => `${serverUuid.slice(-1)}.${turn++}` }));
  }

  test("are taken round robin across tokens, each token's in flight within its share, all within the total", async () => {
    const store = await twoTokens();
    // The first token's five deliveries are all older than the second token's one.
    await queue(store, SERVER, 3, 100);
    await queue(store, OTHER, 2, 110);
    await queue(store, THIRD, 1, 150);
    const lease = (now: number, perToken: number, total = 100) => store.webhooks.due(now, 30_000, { total, perToken });
    const bodies = (leased: DueDelivery[]) => leased.map((delivery) => delivery.body).sort();
    const [first, ...rest] = await lease(200, 2, 2);
    expect(bodies([first!, ...rest])).toEqual(["1.0", "3.0"]);
    // The first token has one in flight: one more is its share; then none.
    expect(bodies(await lease(200, 2))).toEqual(["1.1"]);
    expect(bodies(await lease(201, 2))).toEqual([]);
    const delivered = { deliveryId: first!.id, webhookId: first!.webhookId, now: 202, status: 204, ok: true, retryAt: null, holdUntil: null, pauseAfterMs: 86_400_000 };
    await store.webhooks.settle(delivered);
    expect(bodies(await lease(202, 2))).toEqual(["1.2"]);
    // Leases that ended (their instance gone) no longer count: at 30.2 s those of 0.2 s have, the one of 0.202 s has not.
    expect(bodies(await lease(30_200, 3))).toEqual(["1.1", "2.0", "3.0"]);
  });

  test("one whose receiver did not answer holds its subscription's other waiting deliveries until its retry", async () => {
    const store = await storeWithServers(open);
    await store.webhooks.create(hook());
    for (const [i, state] of (["offline", "online", "offline"] as const).entries()) {
      await store.webhooks.claim(offline({ change: { state }, event: state, now: 100 + i, body: () => `n${i}` }));
    }
    const [oldest] = await store.webhooks.due(200, 30_000, { total: 1, perToken: 1 });
    expect(oldest!.body).toBe("n0");
    await store.webhooks.settle({ deliveryId: oldest!.id, webhookId: oldest!.webhookId, now: 300, status: 0, ok: false, retryAt: 1_000, holdUntil: 1_000, pauseAfterMs: 86_400_000 });
    expect(await store.webhooks.due(999, 30_000, SHARE)).toEqual([]);
    expect((await store.webhooks.due(1_000, 30_000, SHARE)).map((delivery) => delivery.body).sort()).toEqual(["n0", "n1", "n2"]);
  });

  test("two instances leasing at once never lease one delivery twice, and together lease every one", async () => {
    const [one, two] = await openTwo();
    await storeWithServers(async () => one);
    await queue(one, SERVER, 10, 100);
    await queue(one, OTHER, 10, 110);
    const leased: string[] = [];
    // Rounds of both leasing at the same moment, a few at a time, until the queue is empty.
    for (let round = 0; round < 20; round++) {
      const both = await Promise.all([one, two, one, two].map((store) => store.webhooks.due(200, 30_000, { total: 3, perToken: 100 })));
      const ids = both.flat().map((delivery) => String(delivery.id));
      if (ids.length === 0) break;
      leased.push(...ids);
    }
    expect(new Set(leased).size).toBe(leased.length);
    expect(leased.length).toBe(20);
  });
});

forEachBackend("webhook grace", (open, openTwo) => {
  test("offline is claimed for a subscription once its grace has passed, by one of two instances claiming at once; online only after it", async () => {
    const [one, two] = await openTwo();
    await storeWithServers(async () => one);
    const graced = await one.webhooks.create(hook({ graceMs: 60_000 }));
    await one.webhooks.create(hook({ graceMs: 0, events: ["offline"] }));
    // Seen offline at 100: the one without grace hears it now, the other not yet.
    expect(await one.webhooks.claim(offline())).toBe(1);
    expect(await one.webhooks.claim(offline({ now: 60_099 }))).toBeNull();
    const claims = await Promise.all([one, two, one, two, one, two].map((store) => store.webhooks.claim(offline({ now: 60_100 }))));
    expect(claims.filter((queued) => queued !== null)).toEqual([1]);
    const online = offline({ change: { state: "online" }, event: "online", now: 70_000 });
    expect(await one.webhooks.claim(online)).toBe(1);
    const bodies = (await one.webhooks.due(70_000, 30_000, SHARE)).map((delivery) => delivery.body).sort();
    expect(bodies.filter((body) => body === `to ${graced.row.id}`)).toHaveLength(2);
  });

  test("a subscription made before grace existed is told the state the sweeps remembered: the change after it is not lost", async () => {
    const source = await storeWithServers(open);
    await source.webhooks.create(hook({ events: ["online"] }));
    await source.webhooks.claim(offline());
    const batches: RowBatch[] = [];
    for await (const batch of source.dump(0)) {
      // As a database migrated from before grace holds them: told nothing.
      batches.push(batch.kind === "webhooks" ? { ...batch, rows: batch.rows.map((row) => ({ ...row, toldState: null })) } : batch);
    }
    const target = await open();
    await target.load((async function* () { yield* batches; })());
    expect(await target.webhooks.claim(offline({ change: { state: "online" }, event: "online", now: 200 }))).toBe(1);
  });
});

forEachBackend("webhook claims out of order", (open, openTwo) => {
  /** A sweep's judgement of SERVER at `now`, as alert-sweep.ts makes it: a minute without a push is offline. */
  const judgedAt = (now: number): Judge => (server) => stateOf(server, now, 60_000);
  /** The claim of a sweep that read `server` and judged it at `now`. */
  const claimOf = (server: WatchedServer, now: number): Transition => {
    const state = judgedAt(now)(server);
    return offline({ change: { state, stateOf: judgedAt(now) }, event: state, now, body: () => `${state} at ${now}` });
  };
  const bodies = async (store: Store) => (await store.webhooks.due(Number.MAX_SAFE_INTEGER, 30_000, SHARE)).map((delivery) => delivery.body).sort();

  test("a claim judged before the state last moved changes nothing: two instances' sweeps committing out of order tell no flap", async () => {
    const [one, two] = await openTwo();
    await storeWithServers(async () => one);
    await one.webhooks.create(hook());
    const [read] = await one.webhooks.watched(0);
    // Both read the server pushed at 1 ms; one judged it stale a minute on, the other just before (its commit comes last).
    expect(await one.webhooks.claim(claimOf(read!, 60_002))).toBe(1);
    expect(await two.webhooks.claim(claimOf(read!, 60_000))).toBeNull();
    expect(await one.webhooks.claim(claimOf(read!, 60_003))).toBeNull();
    expect(await bodies(one)).toEqual(["offline at 60002"]);
  });

  test("a claim judged on a read a push has since outdated changes nothing: the server is not told offline after it came back", async () => {
    const [one, two] = await openTwo();
    await storeWithServers(async () => one);
    await one.webhooks.create(hook());
    const [stale] = await one.webhooks.watched(0);
    expect(await one.webhooks.claim(claimOf(stale!, 70_000))).toBe(1);
    // One instance's sweep reads the server still stale; it pushes; the other's sweep finds it back and tells so; the first then claims what it read.
    const [beforePush] = await one.webhooks.watched(0);
    await pushServer(one, SERVER, 80_000, 3, "online");
    const [afterPush] = await two.webhooks.watched(0);
    expect(await two.webhooks.claim(claimOf(afterPush!, 80_001))).toBe(1);
    expect(await one.webhooks.claim(claimOf(beforePush!, 80_002))).toBeNull();
    expect(await two.webhooks.claim(claimOf(afterPush!, 80_003))).toBeNull();
    expect(await bodies(one)).toEqual(["offline at 70000", "online at 80001"]);
  });
});

forEachBackend("live message leases", (open, openTwo) => {
  const live = (serverUuid = SERVER) => hook({ serverUuid, format: "discord-live", events: [], url: "https://discord.com/api/webhooks/1/a", intervalMs: 60_000 });
  const ask = (now: number, shown: string, share = SHARE) => ({ now, leaseMs: 30_000, share, shown: () => shown });
  const done = (webhookId: string, now: number, more: object = {}) => ({
    webhookId, now, result: "done" as const, status: 200, messageId: "42", shown: "A", nextAt: now + 60_000, pauseAfterMs: 86_400_000, ...more,
  });

  test("a message is due when it has none or shows other than its server would, past its next time; a lease holds it", async () => {
    const store = await storeWithServers(open);
    const { row } = await store.webhooks.create(live());
    await store.webhooks.create(hook());
    const [leased] = await store.webhooks.leaseLive(ask(100, "A"));
    expect(leased).toEqual({ webhookId: row.id, serverUuid: SERVER, url: row.url, messageId: null, intervalMs: 60_000 });
    expect(await store.webhooks.leaseLive(ask(101, "A"))).toEqual([]);
    await store.webhooks.settleLive(done(row.id, 200));
    expect((await store.webhooks.list(SERVER)).find((listed) => listed.id === row.id)).toMatchObject({ messageId: "42", shown: "A", liveNextAt: 60_200, liveLeasedUntil: 0, lastStatus: 200 });
    // Showing the same: not due however late; showing other: due at its next time, not before.
    expect(await store.webhooks.leaseLive(ask(1_000_000, "A"))).toEqual([]);
    expect(await store.webhooks.leaseLive(ask(60_199, "B"))).toEqual([]);
    expect((await store.webhooks.leaseLive(ask(60_200, "B"))).map((lease) => lease.messageId)).toEqual(["42"]);
  });

  test("a wait is no failure, a failure is counted and a day of them pauses, a webhook gone pauses at once", async () => {
    const store = await storeWithServers(open);
    const { row } = await store.webhooks.create(live());
    const state = async () => (await store.webhooks.list(SERVER))[0]!;
    await store.webhooks.leaseLive(ask(100, "A"));
    await store.webhooks.settleLive(done(row.id, 100, { result: "waited", status: 429, messageId: null, shown: null, nextAt: 5_100 }));
    expect(await state()).toMatchObject({ failingSince: null, pausedAt: null, lastStatus: 429, messageId: null, shown: null, liveNextAt: 5_100 });
    await store.webhooks.leaseLive(ask(5_100, "A"));
    await store.webhooks.settleLive(done(row.id, 5_100, { result: "failed", status: 500, messageId: null, shown: null }));
    expect(await state()).toMatchObject({ failingSince: 5_100, pausedAt: null });
    await store.webhooks.settleLive(done(row.id, 5_100 + 86_400_000, { result: "failed", status: 500, messageId: null, shown: null }));
    expect(await state()).toMatchObject({ pausedAt: 5_100 + 86_400_000 });
    expect(await store.webhooks.leaseLive(ask(10 ** 12, "B"))).toEqual([]);

    const other = await store.webhooks.create(live(OTHER));
    await store.webhooks.leaseLive(ask(100, "A"));
    await store.webhooks.settleLive(done(other.row.id, 100, { result: "gone", status: 401, messageId: null, shown: null }));
    expect((await store.webhooks.list(OTHER))[0]).toMatchObject({ pausedAt: 100, lastStatus: 401 });
    expect(await store.webhooks.watched(0)).toEqual([]);
  });

  test("are taken round robin across tokens, each token's in flight within its share, all within the total", async () => {
    const store = await storeWithServers(open);
    const other = await store.tokens.create({ hash: "u".padEnd(64, "0"), scope: "all", label: "u", now: 0 });
    const third = "00000000-0000-4000-8000-000000000003";
    await store.push({
      credentials: { tokenId: other.id, tokenHash: other.hash }, replay: replay(), now: 1, bounds: { registrationMax: 10, maxBytesPerToken: 4096 },
      record: { kind: "server", uuid: third, serverPush: "update", fields: { name: "Third", status: "online", playersOnline: 1, playersMax: 20 }, maxPerToken: 10 },
    });
    for (let n = 0; n < 4; n++) await store.webhooks.create(live(n % 2 === 0 ? SERVER : OTHER));
    const thirds = [(await store.webhooks.create(live(third))).row.id];
    const first = await store.webhooks.leaseLive(ask(100, "A", { total: 2, perToken: 2 }));
    expect(first.filter((lease) => lease.serverUuid === third).map((lease) => lease.webhookId)).toEqual(thirds);
    expect(first).toHaveLength(2);
    // The first token has one in flight: one more is its share; then none.
    expect(await store.webhooks.leaseLive(ask(100, "A", { total: 10, perToken: 2 }))).toHaveLength(1);
    expect(await store.webhooks.leaseLive(ask(101, "A", { total: 10, perToken: 2 }))).toEqual([]);
  });

  test("two instances leasing at once never lease one message twice, and together lease every one", async () => {
    const [one, two] = await openTwo();
    await storeWithServers(async () => one);
    for (let n = 0; n < 10; n++) await one.webhooks.create(live(n % 2 === 0 ? SERVER : OTHER));
    const leased: string[] = [];
    for (let round = 0; round < 20; round++) {
      const both = await Promise.all([one, two, one, two].map((store) => store.webhooks.leaseLive(ask(200, "A", { total: 2, perToken: 100 }))));
      const ids = both.flat().map((lease) => lease.webhookId);
      if (ids.length === 0) break;
      leased.push(...ids);
    }
    expect(new Set(leased).size).toBe(leased.length);
    expect(leased.length).toBe(10);
  });
});
