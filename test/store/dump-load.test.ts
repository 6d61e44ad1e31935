// Store.dump and Store.load, on every backend (the CLI test, test/cli/copy.test.ts,
// moves stores between the two): more rows than one batch come across whole,
// replay keys past their window stay behind, a load is one transaction and
// goes only into an empty store (networks count as data), and ids made after it follow the copied ones
// (tokens, samples, webhook deliveries).

import { expect, test } from "bun:test";
import { BATCH_ROWS, StoreNotEmptyError, type RowBatch } from "../../src/store/dump.ts";
import type { Push, Store } from "../../src/store/store.ts";
import type { Transition } from "../../src/store/webhook-records.ts";
import { forEachBackend } from "../support/backends.ts";

const MINUTE = 60_000;
const SERVER = "00000000-0000-4000-8000-000000000001";
const BOUNDS = { registrationMax: 10, maxBytesPerToken: 1 << 20 };

/** An update of SERVER at `now`, its replay key kept until `expiresAt`. */
function update(tokenId: number, now: number, expiresAt = Number.MAX_SAFE_INTEGER): Push {
  const key = `dump-${now}-`.padEnd(64, "0");
  return {
    credentials: { tokenId, tokenHash: "t".repeat(64) },
    replay: { key, fingerprint: key, timestampMs: now, expiresAt },
    now,
    bounds: BOUNDS,
    record: { kind: "server", uuid: SERVER, serverPush: "update", fields: { playersOnline: now / MINUTE, extra: { uptime_ms: now } }, maxPerToken: 10 },
  };
}

/** SERVER's state moving to `state` at `now`, claimed for its webhooks. */
function transition(state: "online" | "offline", now: number): Transition {
  return { serverUuid: SERVER, change: { state, stateOf: () => state }, event: state, now, body: () => `{"event":"${state}"}`, maxQueued: 5 };
}

/**
 * A store with two tokens (one revoked), a plugin, `minutes` history
 * samples and replay keys, and with any minutes the server they are of, with
 * a webhook and one delivery of it waiting.
 */
async function seeded(open: () => Promise<Store>, minutes: number): Promise<Store> {
  const store = await open();
  const token = await store.tokens.create({ hash: "t".repeat(64), scope: "all", label: "seed", now: 1 });
  await store.tokens.revoke((await store.tokens.create({ hash: "u".repeat(64), scope: "plugin", label: "gone", now: 2 })).id, 3);
  for (let minute = 1; minute <= minutes; minute++) await store.push(update(token.id, minute * MINUTE));
  const plugin = { name: "EzShops", stats: { shops: 3 }, meta: { alpha: { downloads: 1 } }, minecraftVersions: ["1.21"], serverSoftware: ["Paper"] };
  await store.push({ ...update(token.id, 0), record: { kind: "plugin", uuid: SERVER, fields: plugin, maxPerToken: 10 } });
  if (minutes === 0) return store;
  const replay = { key: "hook".padEnd(64, "0"), fingerprint: "hook", timestampMs: 0, expiresAt: Number.MAX_SAFE_INTEGER };
  await store.webhooks.create({ id: crypto.randomUUID(), serverUuid: SERVER, url: "https://example.com/hook", events: ["offline", "online"], format: "json", secret: "s".repeat(64), now: 5, replay, maxPerServer: 10, state: "online", graceMs: 0, intervalMs: 0 });
  // Subscribing remembered the state: the change after it queues the delivery.
  expect(await store.webhooks.claim(transition("offline", 7))).toBe(1);
  return store;
}

/** A dump's batches, all read. */
async function batchesOf(dump: AsyncIterable<RowBatch>): Promise<RowBatch[]> {
  const batches: RowBatch[] = [];
  for await (const batch of dump) batches.push(batch);
  return batches;
}

/** A dump's rows per kind, batches joined. */
async function rowsOf(store: Store, now: number): Promise<Record<string, unknown[]>> {
  const rows: Record<string, unknown[]> = {};
  for (const batch of await batchesOf(store.dump(now))) (rows[batch.kind] ??= []).push(...batch.rows);
  return rows;
}

forEachBackend("dump and load", (open) => {
  test("more rows than one batch come across whole, every field and id kept, in batches of at most BATCH_ROWS", async () => {
    const many = 2 * BATCH_ROWS + 1;
    const rows = {
      tokens: [
        { id: 3, hash: "t".repeat(64), scope: "all", label: "seed", origin: "cli", createdAt: 1, lastUsedAt: 2, revokedAt: null },
        { id: 7, hash: "r".repeat(64), scope: "server", label: "", origin: "registration", createdAt: 4, lastUsedAt: null, revokedAt: 5 },
      ],
      servers: [
        {
          uuid: SERVER, tokenId: 3, name: "Lobby", pluginVersion: "1.0", status: "online", playersOnline: 7, playersMax: 50, tps: 19.5,
          motd: "§aHi", version: "1.21", extra: { uptime_ms: 5, placeholders: { a: "b" } }, firstSeen: 10, lastSeen: 20, statsUpdatedAt: 20,
          pageEnabled: false,
        },
      ],
      plugins: [
        {
          uuid: SERVER, tokenId: 7, name: "EzShops", version: "3.2.1", stats: { shops: 1.5 }, meta: { alpha: { downloads: 1 } },
          minecraftVersions: ["1.21"], serverSoftware: ["Paper"], firstSeen: 1, lastSeen: 2,
        },
      ],
      samples: Array.from({ length: many }, (_, i) => ({ id: i + 1, serverUuid: SERVER, at: i * MINUTE, playersOnline: i, playersMax: null, tps: i / 2, online: i % 5 !== 0 })),
      // Keyed by (server, step, at): pages after a key of three columns, in that order.
      history: Array.from({ length: many }, (_, i) => {
        const hourly = i > BATCH_ROWS;
        return {
          serverUuid: SERVER, stepMs: hourly ? 3_600_000 : 300_000, at: (hourly ? i : many - i) * 3_600_000,
          playersMin: i % 3 ? i : null, playersAvg: i % 3 ? i + 0.5 : null, playersMax: i % 3 ? i + 1 : null, samples: i % 3 ? 5 : 0, online: (i % 4) / 4,
        };
      }).sort((a, b) => a.stepMs - b.stepMs || a.at - b.at),
      replayKeys: Array.from({ length: many }, (_, i) => ({ signature: `k${String(i).padStart(5, "0")}`, expiresAt: 10, fingerprint: i ? "f" : null })),
      replayCoverage: [{ id: 1, clockSkewMs: 300_000, coveredSince: 0 }],
      historyMarks: [{ id: 1, fiveMinutesUntil: 600_000, hoursUntil: 3_600_000 }],
      webhooks: [
        {
          id: "1b0e7c6a-0000-4000-8000-000000000001", serverUuid: SERVER, url: "https://example.com/hook", events: ["offline", "online"], format: "json",
          secret: "s".repeat(64), requestKey: "q".repeat(64), createdAt: 11, failingSince: null, pausedAt: null, lastStatus: 204, lastDeliveryAt: 12, dropped: 0,
          graceMs: 120_000, toldState: "offline", intervalMs: 0, messageId: null, shown: null, liveNextAt: 0, liveLeasedUntil: 0,
        },
        {
          id: "1b0e7c6a-0000-4000-8000-000000000002", serverUuid: SERVER, url: "https://discord.com/api/webhooks/1/a", events: ["players_record"], format: "discord",
          secret: "d".repeat(64), requestKey: "p".repeat(64), createdAt: 13, failingSince: 14, pausedAt: 15, lastStatus: 0, lastDeliveryAt: 15, dropped: 3,
          graceMs: 0, toldState: null, intervalMs: 0, messageId: null, shown: null, liveNextAt: 0, liveLeasedUntil: 0,
        },
        {
          id: "1b0e7c6a-0000-4000-8000-000000000003", serverUuid: SERVER, url: "https://discord.com/api/webhooks/2/b", events: [], format: "discord-live",
          secret: "l".repeat(64), requestKey: "l".repeat(64), createdAt: 14, failingSince: null, pausedAt: null, lastStatus: 200, lastDeliveryAt: 16, dropped: 0,
          graceMs: 0, toldState: "online", intervalMs: 60_000, messageId: "1234567890123456789", shown: "0123456789abcdef", liveNextAt: 76_000, liveLeasedUntil: 0,
        },
      ],
      webhookStates: [{ serverUuid: SERVER, state: "offline", changedAt: 16, playersRecord: 42 }],
      // Ids with a gap: they are kept, not renumbered.
      webhookDeliveries: [4, 9].map((id) => ({
        id, webhookId: "1b0e7c6a-0000-4000-8000-000000000001", body: `{"event":"offline","n":${id}}`, createdAt: 16, attempts: id - 4, nextAt: 17, leasedUntil: id === 9 ? 18 : 0,
      })),
      networks: [{ slug: "my-net", tokenId: 3, name: "My Network", createdAt: 19, updatedAt: 21 }],
      networkMembers: [{ networkSlug: "my-net", serverUuid: SERVER, position: 0 }],
    } as const;
    async function* inBatches(): AsyncGenerator<RowBatch> {
      for (const [kind, all] of Object.entries(rows)) {
        for (let at = 0; at < all.length; at += BATCH_ROWS) yield { kind, rows: all.slice(at, at + BATCH_ROWS) } as unknown as RowBatch;
      }
    }
    const source = await open();
    expect(await source.load(inBatches())).toEqual({
      tokens: 2, servers: 1, plugins: 1, samples: many, history: many, replayKeys: many, replayCoverage: 1, historyMarks: 1,
      webhooks: 3, webhookStates: 1, webhookDeliveries: 2, networks: 1, networkMembers: 1,
    });
    const batches = await batchesOf(source.dump(0));
    expect(batches.filter((batch) => batch.kind === "samples").map((batch) => batch.rows.length)).toEqual([BATCH_ROWS, BATCH_ROWS, 1]);
    expect(batches.filter((batch) => batch.kind === "history").map((batch) => batch.rows.length)).toEqual([BATCH_ROWS, BATCH_ROWS, 1]);
    expect(await rowsOf(source, 0)).toEqual(rows as unknown as Record<string, unknown[]>);

    const target = await open();
    await target.load(source.dump(0));
    expect(await rowsOf(target, 0)).toEqual(rows as unknown as Record<string, unknown[]>);
    expect(await target.servers.samples(SERVER, 0)).toEqual(await source.servers.samples(SERVER, 0));
    expect(await target.plugins.get(SERVER)).toEqual(await source.plugins.get(SERVER));
    expect(await target.networks.get("my-net")).toEqual(await source.networks.get("my-net"));
  });

  test("the replay memory comes across as it stands: live keys and the window, not keys past it", async () => {
    const source = await seeded(open, 0);
    const token = (await source.tokens.list())[0]!;
    // A window of 1 s: each key is kept until its own expiry (later than its timestamp plus the window).
    await source.replay.adoptClockSkew(1_000, 1_000);
    await source.push(update(token.id, 1_000, 5_000));
    await source.push(update(token.id, 2_000, 50_000));
    const target = await open();
    await target.load(source.dump(10_000));
    const live = "dump-2000-".padEnd(64, "0");
    const keys = (await rowsOf(target, 0)).replayKeys;
    expect(keys).toContainEqual({ signature: live, expiresAt: 50_000, fingerprint: live });
    expect(keys).not.toContainEqual(expect.objectContaining({ signature: "dump-1000-".padEnd(64, "0") }));
    expect(await target.replay.rememberedFingerprint(live, 10_000)).toBe(live);
    expect((await rowsOf(target, 0)).replayCoverage).toEqual([{ id: 1, clockSkewMs: 1_000, coveredSince: 0 }]);
  });

  test("a load that fails half-way writes nothing, and the store takes a whole one afterwards", async () => {
    const source = await seeded(open, 3);
    const target = await open();
    async function* failing() {
      for await (const batch of source.dump(0)) {
        yield batch;
        if (batch.kind === "servers") throw new Error("source lost");
      }
    }
    await expect(target.load(failing())).rejects.toThrow("source lost");
    expect(await rowsOf(target, 0)).toEqual({});
    await target.load(source.dump(0));
    expect(await rowsOf(target, 0)).toEqual(await rowsOf(source, 0));
  });

  test("a store holding data refuses a load, naming what it holds, and keeps only that", async () => {
    const source = await seeded(open, 2);
    const target = await open();
    await target.tokens.create({ hash: "x".repeat(64), scope: "all", label: "mine", now: 5 });
    const before = await rowsOf(target, 0);
    const refusal = await target.load(source.dump(0)).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(StoreNotEmptyError);
    expect((refusal as StoreNotEmptyError).counts).toEqual({ tokens: 1 });
    expect(await rowsOf(target, 0)).toEqual(before);
  });

  test("tokens, samples and webhook deliveries made after a load take ids past the copied ones", async () => {
    const source = await seeded(open, 2);
    const target = await open();
    await target.load(source.dump(0));
    const tokenId = (await target.tokens.list()).at(-1)!.id;
    expect((await target.tokens.create({ hash: "n".repeat(64), scope: "all", label: "next", now: 9 })).id).toBe(tokenId + 1);
    await target.push(update(1, 3 * MINUTE));
    const samples = (await rowsOf(target, 0)).samples as Array<{ id: number }>;
    expect(samples.map((sample) => sample.id)).toEqual([1, 2, 3]);
    expect(await target.webhooks.claim(transition("online", 8))).toBe(1);
    const deliveries = (await rowsOf(target, 0)).webhookDeliveries as Array<{ id: number }>;
    expect(deliveries.map((delivery) => delivery.id)).toEqual([1, 2]);
  });
});
