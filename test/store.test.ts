import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import journal from "../migrations/meta/_journal.json" with { type: "json" };
import { SQLITE_SQL_BY_TAG, sqliteEmbeddedMigrations } from "../src/store/migrations.ts";
import { openDatabase } from "../src/store/database.ts";
import type { ReplayRecord } from "../src/auth/replay.ts";
import { LAST_USED_STEP_MS, REGISTRATION_IDLE_MS, type PluginFields, type ServerFields, type TokenRow } from "../src/store/records.ts";
import { openSqliteStore } from "../src/store/sqlite-store.ts";
import type { Push, Store } from "../src/store/store.ts";
import { sqliteCreateToken } from "../src/store/tokens.ts";
import { StoreUnavailableError } from "../src/store/unavailable.ts";
import { NotOwnerError, RecordLimitError, RegistrationFullError, ReplayError, StorageLimitError } from "../src/store/write-refusals.ts";
import { forEachBackend } from "./support/backends.ts";
import { tempDir } from "./support/cleanup.ts";
import { testEmbeddedMigrations } from "./support/embedded-migrations.ts";

const MIGRATIONS = join(import.meta.dir, "..", "migrations");

describe("migrations", () => {
  testEmbeddedMigrations({ folder: MIGRATIONS, journal, sqlByTag: SQLITE_SQL_BY_TAG, embeddedMigrations: sqliteEmbeddedMigrations });

  test("the database opens in WAL mode with every table, and reopening is a no-op", () => {
    const path = join(tempDir("store"), "pennant.db");
    const db = openDatabase(path);
    expect(db.$client.query("PRAGMA journal_mode").get()).toEqual({ journal_mode: "wal" });
    const tables = (db.$client.query("select name from sqlite_master where type = 'table' order by name").all() as { name: string }[]).map((t) => t.name);
    expect(tables).toEqual(expect.arrayContaining(["tokens", "servers", "server_samples", "plugins", "used_signatures"]));
    db.$client.close();
    const again = openDatabase(path);
    expect((again.$client.query("select count(*) as n from __drizzle_migrations").get() as { n: number }).n).toBe(journal.entries.length);
    again.$client.close();
  });
});

describe("compiled statements", () => {
  test("are kept by SQL text for the code's queries, up to a bound past which they are compiled each time", () => {
    const db = openDatabase(join(tempDir("store"), "pennant.db"));
    try {
      const client = db.$client;
      expect(client.prepare("SELECT 1")).toBe(client.prepare("SELECT 1"));
      for (let n = 2; n <= 300; n++) client.prepare(`SELECT ${n}`);
      expect(client.prepare("SELECT 2")).toBe(client.prepare("SELECT 2"));
      expect(client.prepare("SELECT 299")).not.toBe(client.prepare("SELECT 299"));
      // Queries still answer what they should through kept statements.
      sqliteCreateToken(db, { hash: "a".repeat(64), scope: "all", label: "one", now: 1 });
      sqliteCreateToken(db, { hash: "b".repeat(64), scope: "all", label: "two", now: 2 });
      expect(client.prepare("SELECT count(*) AS n FROM tokens").get()).toEqual({ n: 2 });
    } finally {
      db.$client.close();
    }
  });
});

describe("faults of the SQLite file", () => {
  test("come out of every operation as StoreUnavailableError, a write outside a push included", async () => {
    const path = join(tempDir("store"), "pennant.db");
    const store = openSqliteStore(path);
    const lock = new Database(path);
    try {
      lock.run("BEGIN EXCLUSIVE");
      const refused = store.tokens.create({ hash: "a".repeat(64), scope: "all", label: "locked out", now: 1 });
      await expect(refused).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(refused).rejects.toMatchObject({ kind: "busy" });
    } finally {
      lock.run("ROLLBACK");
      lock.close();
      await store.close();
    }
  });
});

// What follows holds on every backend: one body each, run against all of them.

const BOUNDS = { registrationMax: 10, maxBytesPerToken: 4096 };
let keys = 0;

/** A replay record no other push in the test has, unless one is given. */
function replayOf(replay: Partial<ReplayRecord> = {}): ReplayRecord {
  keys += 1;
  // The dash after the number keeps key-1 and key-10 apart once padded.
  return { key: `key-${keys}-`.padEnd(64, "0"), fingerprint: `print-${keys}-`.padEnd(64, "0"), timestampMs: 0, expiresAt: Number.MAX_SAFE_INTEGER, ...replay };
}

function tokenOf(store: Store, name: string, now = 0): Promise<TokenRow> {
  return store.tokens.create({ hash: `${name}.`.padEnd(64, "0"), scope: "all", label: name, now });
}

const asToken = (token: TokenRow) => ({ tokenId: token.id, tokenHash: token.hash });

function serverPush(credentials: Push["credentials"], uuid: string, now: number, fields: ServerFields, more: Partial<Push> = {}): Push {
  return { credentials, replay: replayOf(), now, bounds: BOUNDS, record: { kind: "server", uuid, serverPush: "update", fields, maxPerToken: 10 }, ...more };
}

function pluginPush(credentials: Push["credentials"], uuid: string, now: number, fields: PluginFields, more: Partial<Push> = {}): Push {
  return { credentials, replay: replayOf(), now, bounds: BOUNDS, record: { kind: "plugin", uuid, fields, maxPerToken: 10 }, ...more };
}

const uuidOf = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

/**
 * Reads at once as many times as pushes will race, so that a backend with a
 * pool of connections has them open: pushes waiting for a new connection each
 * would not start together.
 */
async function warmUp(store: Store): Promise<void> {
  await Promise.all(Array.from({ length: 16 }, () => store.plugins.get(uuidOf(0))));
}

/** How many of `pushes`, run at once, ended in each outcome: "new", "duplicate" or the refusal's class name. */
async function outcomes(pushes: Array<Promise<unknown>>): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const result of await Promise.allSettled(pushes)) {
    const outcome = result.status === "fulfilled" ? String(result.value) : (result.reason as Error).name;
    counts[outcome] = (counts[outcome] ?? 0) + 1;
  }
  return counts;
}

forEachBackend("tokens", (open) => {
  test("created, listed oldest first, found by hash, revoked once", async () => {
    const store = await open();
    const first = await tokenOf(store, "a", 1);
    const second = await tokenOf(store, "b", 2);
    expect(first).toMatchObject({ scope: "all", label: "a", origin: "cli", createdAt: 1, lastUsedAt: null, revokedAt: null });
    expect((await store.tokens.list()).map((token) => token.id)).toEqual([first.id, second.id]);
    expect(await store.tokens.findByHash(second.hash)).toEqual(second);
    expect(await store.tokens.findByHash("c".padEnd(64, "0"))).toBeUndefined();
    expect(await store.tokens.revoke(first.id, 5)).toBe(true);
    expect(await store.tokens.revoke(first.id, 6)).toBe(false);
    expect(await store.tokens.revoke(999, 6)).toBe(false);
    expect((await store.tokens.findByHash(first.hash))?.revokedAt).toBe(5);
  });
});

forEachBackend("player history in buckets", (open) => {
  test("one point per bucket: its highest count at its newest sample; older samples, other servers and unknown counts left out", async () => {
    const store = await open();
    const token = asToken(await tokenOf(store, "a"));
    const push = (uuid: string, now: number, playersOnline?: number) => store.push(serverPush(token, uuid, now, { playersOnline }));
    const uuid = uuidOf(1);
    // Times in minutes, as samples are kept one per minute.
    await push(uuid, 60_000, 9); // before `since`
    await push(uuid, 600_000, 3);
    await push(uuid, 720_000, 7);
    await push(uuid, 1_199_999, 5); // same bucket [600 000, 1 200 000): peak 7, newest time 1 199 999
    await push(uuid, 1_200_000, 2);
    await push(uuidOf(2), 1_200_000, 50);
    expect(await store.servers.sampleBuckets(uuid, 300_000, 600_000)).toEqual([{ at: 1_199_999, online: 7 }, { at: 1_200_000, online: 2 }]);
    const silent = uuidOf(3);
    await push(silent, 900_000); // a first update without a player count stores a sample with none
    expect(await store.servers.sampleBuckets(silent, 0, 600_000)).toEqual([]);
    expect((await store.servers.samples(uuid, 600_000)).map(({ at, playersOnline }) => [at, playersOnline])).toEqual([[600_000, 3], [720_000, 7], [1_199_999, 5], [1_200_000, 2]]);
  });
});

forEachBackend("accepting a push", (open) => {
  // The route answers a known replay key before anything else (so resends cost
  // nothing); the key's primary key in the replay memory is what decides when
  // two identical requests get past that look-up together.
  test("a replay key the store already holds: the same fingerprint is a duplicate, another a replay; nothing is written; once expired it is swept", async () => {
    const store = await open();
    const token = asToken(await tokenOf(store, "b"));
    const replay = { key: "c".repeat(64), fingerprint: "d".repeat(64), timestampMs: 0, expiresAt: 10_000 };
    const uuid = uuidOf(9);
    const push = (now: number, fingerprint = replay.fingerprint) => store.push(pluginPush(token, uuid, now, { name: `at ${now}` }, { replay: { ...replay, fingerprint } }));
    expect(await push(1_000)).toBe("new");
    expect(await store.replay.rememberedFingerprint(replay.key, 10_000)).toBe(replay.fingerprint);
    expect(await push(10_000)).toBe("duplicate");
    await expect(push(10_000, "e".repeat(64))).rejects.toThrow(ReplayError);
    expect((await store.plugins.get(uuid))?.name).toBe("at 1000");
    expect(await store.replay.rememberedFingerprint(replay.key, 10_001)).toBeUndefined();
    expect(await push(10_001)).toBe("new");
    expect((await store.plugins.get(uuid))?.name).toBe("at 10001");
  });

  test("writes the record and moves its token's last use; a server's extra stats merge key by key, a plugin's fields replace whole", async () => {
    const store = await open();
    const token = await tokenOf(store, "a");
    await store.push(serverPush(asToken(token), uuidOf(1), 1_000, { name: "One", extra: { uptime: 1, tps_5m: 20 } }));
    await store.push(serverPush(asToken(token), uuidOf(1), 2_000, { extra: { uptime: 2 } }, { record: { kind: "server", uuid: uuidOf(1), serverPush: "heartbeat", fields: { extra: { uptime: 2 } }, maxPerToken: 10 } }));
    expect(await store.servers.get(uuidOf(1))).toMatchObject({ tokenId: token.id, name: "One", extra: { uptime: 2, tps_5m: 20 }, firstSeen: 1_000, lastSeen: 2_000, statsUpdatedAt: 1_000 });
    // The last use is written once it is older than a minute, so a busy token's pushes do not all write its row.
    const lastUsed = async () => (await store.tokens.findByHash(token.hash))?.lastUsedAt;
    expect(await lastUsed()).toBe(1_000);
    await store.push(serverPush(asToken(token), uuidOf(1), 1_000 + LAST_USED_STEP_MS, {}));
    expect(await lastUsed()).toBe(1_000);
    await store.push(serverPush(asToken(token), uuidOf(1), 1_001 + LAST_USED_STEP_MS, {}));
    expect(await lastUsed()).toBe(1_001 + LAST_USED_STEP_MS);
    await store.push(pluginPush(asToken(token), uuidOf(2), 3_000, { stats: { a: 1, b: 2 }, minecraftVersions: ["1.21"] }));
    await store.push(pluginPush(asToken(token), uuidOf(2), 4_000, { stats: { c: 3 } }));
    expect(await store.plugins.get(uuidOf(2))).toMatchObject({ stats: { c: 3 }, minecraftVersions: ["1.21"], meta: {}, firstSeen: 3_000, lastSeen: 4_000 });
    expect((await store.servers.list()).map((row) => row.uuid)).toEqual([uuidOf(1)]);
  });

  test("a refused push stores nothing: not the owner, over the record limit, over the bytes per token", async () => {
    const store = await open();
    const owner = asToken(await tokenOf(store, "a"));
    const other = asToken(await tokenOf(store, "b"));
    await store.push(serverPush(owner, uuidOf(1), 1_000, { playersOnline: 1 }));
    const before = await store.servers.get(uuidOf(1));
    const refused = serverPush(other, uuidOf(1), 2_000, { playersOnline: 2 });
    await expect(store.push(refused)).rejects.toThrow(NotOwnerError);
    const limited = { ...serverPush(owner, uuidOf(2), 2_000, {}), record: { kind: "server", uuid: uuidOf(2), serverPush: "update", fields: {}, maxPerToken: 1 } } as const;
    await expect(store.push(limited)).rejects.toThrow(RecordLimitError);
    const large = pluginPush(other, uuidOf(3), 2_000, { meta: { text: "x".repeat(5_000) } });
    await expect(store.push(large)).rejects.toThrow(StorageLimitError);
    expect(await store.servers.get(uuidOf(1))).toEqual(before);
    expect(await store.servers.samples(uuidOf(1), 0)).toHaveLength(1);
    expect(await store.servers.get(uuidOf(2))).toBeUndefined();
    expect(await store.plugins.get(uuidOf(3))).toBeUndefined();
    // Not remembered either: the same request may come again once it can pass.
    for (const push of [refused, limited, large]) expect(await store.replay.rememberedFingerprint(push.replay.key, 0)).toBeUndefined();
    expect((await store.tokens.findByHash(other.tokenHash))?.lastUsedAt).toBeNull();
  });

  test("pushes racing for one new record: exactly one owner, the others refused; a token's record limit holds under concurrency", async () => {
    const store = await open();
    const tokens = await Promise.all(Array.from({ length: 16 }, (_, n) => tokenOf(store, `racer${n}`)));
    await warmUp(store);
    const racing = await outcomes(tokens.map((token) => store.push(serverPush(asToken(token), uuidOf(1), 1_000, {}))));
    expect(racing).toEqual({ new: 1, NotOwnerError: 15 });
    const owner = (await store.servers.get(uuidOf(1)))?.tokenId;
    const one = asToken(tokens.find((token) => token.id === owner)!);
    const limit = (n: number) => ({ kind: "server", uuid: uuidOf(100 + n), serverPush: "update", fields: {}, maxPerToken: 3 }) as const;
    const limited = await outcomes(Array.from({ length: 16 }, (_, n) => store.push(serverPush(one, uuidOf(100 + n), 1_000, {}, { record: limit(n) }))));
    // The token owns uuidOf(1) already: two more fit under 3.
    expect(limited).toEqual({ new: 2, RecordLimitError: 14 });
    expect((await store.servers.list()).filter((row) => row.tokenId === one.tokenId)).toHaveLength(3);
  });

  test("a record limit of 3 under 16 pushes at once of a token that owns nothing yet: 3 written, the others refused", async () => {
    const store = await open();
    const token = asToken(await tokenOf(store, "a"));
    await warmUp(store);
    const limit = (n: number) => ({ kind: "plugin", uuid: uuidOf(n), fields: {}, maxPerToken: 3 }) as const;
    const racing = await outcomes(Array.from({ length: 16 }, (_, n) => store.push(pluginPush(token, uuidOf(n), 1_000, {}, { record: limit(n) }))));
    expect(racing).toEqual({ new: 3, RecordLimitError: 13 });
    const written = await Promise.all(Array.from({ length: 16 }, (_, n) => store.plugins.get(uuidOf(n))));
    expect(written.filter((row) => row !== undefined)).toHaveLength(3);
  });

  test("two identical pushes at once: one is applied, the other is its duplicate", async () => {
    const store = await open();
    const token = asToken(await tokenOf(store, "a"));
    const push = serverPush(token, uuidOf(1), 1_000, { playersOnline: 4 });
    await warmUp(store);
    expect(await outcomes([store.push(push), store.push(push)])).toEqual({ new: 1, duplicate: 1 });
    expect(await store.servers.samples(uuidOf(1), 0)).toHaveLength(1);
  });

  test("updates of one server within one minute at once: one history sample, with the minute's highest count", async () => {
    const store = await open();
    const token = asToken(await tokenOf(store, "a"));
    await store.push(serverPush(token, uuidOf(1), 60_000, { playersOnline: 1 }));
    await warmUp(store);
    const counts = Array.from({ length: 16 }, (_, n) => (n * 7) % 16);
    await Promise.all(counts.map((playersOnline, n) => store.push(serverPush(token, uuidOf(1), 60_001 + n, { playersOnline }))));
    const samples = await store.servers.samples(uuidOf(1), 0);
    expect(samples.map(({ playersOnline }) => playersOnline)).toEqual([15]);
  });
});

describe("group commit on SQLite", () => {
  test("pushes arriving together share one commit; one refused among them is rolled back alone; every accepted one is committed when answered", async () => {
    const path = join(tempDir("store"), "pennant.db");
    const store = openSqliteStore(path);
    const reader = new Database(path, { readonly: true });
    try {
      const owner = asToken(await tokenOf(store, "owner"));
      const other = asToken(await tokenOf(store, "other"));
      await store.push(serverPush(owner, uuidOf(1), 60_000, { playersOnline: 1 }));
      const walBytes = () => Bun.file(`${path}-wal`).size;
      // A lone update's commit: the pages it writes, appended to the WAL.
      const beforeLone = walBytes();
      await store.push(serverPush(owner, uuidOf(1), 60_001, { playersOnline: 2 }));
      const lone = walBytes() - beforeLone;

      const accepted = Array.from({ length: 15 }, (_, n) => serverPush(owner, uuidOf(1), 60_002 + n, { playersOnline: 3 + n }));
      const refused = serverPush(other, uuidOf(1), 60_100, { playersOnline: 99 });
      const beforeBatch = walBytes();
      const answered: string[] = [];
      const pushes = [...accepted.slice(0, 8), refused, ...accepted.slice(8)].map((push) =>
        store.push(push).then((status) => {
          // Another connection sees the push as soon as it is answered: it was committed first.
          const row = reader.query("SELECT 1 AS found FROM used_signatures WHERE signature = ?").get(push.replay.key);
          answered.push(`${status} ${row ? "committed" : "not committed"}`);
          return status;
        }),
      );
      expect(await outcomes(pushes)).toEqual({ new: 15, NotOwnerError: 1 });
      expect(answered).toEqual(Array(15).fill("new committed"));
      // Sixteen commits would append about sixteen times a lone one's pages; one commit writes each page once.
      expect(walBytes() - beforeBatch).toBeLessThan(3 * lone);
      expect(await store.replay.rememberedFingerprint(refused.replay.key, 0)).toBeUndefined();
      expect(await store.servers.get(uuidOf(1))).toMatchObject({ tokenId: owner.tokenId, playersOnline: 17, lastSeen: 60_016 });
    } finally {
      reader.close();
      await store.close();
    }
  });
});

forEachBackend("open registration", (open) => {
  test("an unknown token's push registers it; a second push of it, looked up before the first registered it, is that token's", async () => {
    const store = await open();
    const newcomer = { tokenId: null, tokenHash: "n".padEnd(64, "0") };
    expect(await store.push(pluginPush(newcomer, uuidOf(1), 1_000, {}))).toBe("new");
    expect(await store.push(pluginPush(newcomer, uuidOf(2), 2_000, {}))).toBe("new");
    const [registered, ...others] = await store.tokens.list();
    expect(others).toHaveLength(0);
    expect(registered).toMatchObject({ hash: newcomer.tokenHash, origin: "registration", label: "self-registered", createdAt: 1_000, lastUsedAt: 1_000 });
    expect((await store.plugins.get(uuidOf(2)))?.tokenId).toBe(registered!.id);
  });

  test("registration stops at its bound, storing nothing; tokens idle for a day expire with their records and free their slots", async () => {
    const store = await open();
    const bounds = { ...BOUNDS, registrationMax: 1 };
    const newcomer = (name: string) => ({ tokenId: null, tokenHash: name.padEnd(64, "0") });
    await store.push(serverPush(newcomer("first"), uuidOf(1), 0, {}, { bounds }));
    const refused = serverPush(newcomer("second"), uuidOf(2), 1_000, {}, { bounds });
    await expect(store.push(refused)).rejects.toThrow(RegistrationFullError);
    expect(await store.tokens.findByHash(newcomer("second").tokenHash)).toBeUndefined();
    expect(await store.servers.get(uuidOf(2))).toBeUndefined();
    const idle = REGISTRATION_IDLE_MS;
    expect(await store.tokens.expireIdleRegistrations(idle)).toBe(0);
    expect(await store.tokens.expireIdleRegistrations(idle + 1)).toBe(1);
    expect(await store.servers.get(uuidOf(1))).toBeUndefined();
    expect(await store.push(serverPush(newcomer("second"), uuidOf(2), idle + 2, {}, { bounds }))).toBe("new");
  });
});

forEachBackend("the replay memory's clock window", (open) => {
  const T0 = Date.now();

  test("only a raise limits what the memory vouches for; lowering and restarting at the same window do not", async () => {
    const store = await open();
    const adopt = (clockSkewMs: number, now: number) => store.replay.adoptClockSkew(clockSkewMs, now);
    expect(await adopt(300_000, T0)).toBe(0); // a new database: nothing forgotten yet
    expect(await adopt(300_000, T0 + 1_000)).toBe(0);
    // Lowered: the keys are still kept for the largest window recorded (another instance may use it).
    expect(await adopt(60_000, T0 + 2_000)).toBe(0);
    expect(await adopt(600_000, T0 + 3_000)).toBe(T0 + 3_000 - 300_000);
    // Coverage only ever moves forward, whatever comes next.
    expect(await adopt(600_000, T0 + 4_000)).toBe(T0 + 3_000 - 300_000);
    // A raise from 600 s reaches back further than the limit already in place, which stays.
    expect(await adopt(900_000, T0 + 5_000)).toBe(T0 + 3_000 - 300_000);
  });

  test("a wider window extends the keys held and vouches only for pushes since the narrower one's reach", async () => {
    const store = await open();
    expect(await store.replay.adoptClockSkew(60_000, 1_000_000)).toBe(0);
    const token = asToken(await tokenOf(store, "a"));
    const replay = replayOf({ expiresAt: 1_050_000 });
    await store.push(pluginPush(token, uuidOf(1), 1_000_000, {}, { replay }));
    expect(await store.replay.adoptClockSkew(300_000, 1_100_000)).toBe(1_100_000 - 60_000);
    expect(await store.replay.rememberedFingerprint(replay.key, 1_200_000)).toBe(replay.fingerprint);
    expect(await store.replay.adoptClockSkew(300_000, 1_200_000)).toBe(1_100_000 - 60_000);
  });
});

forEachBackend("health", (open) => {
  test("a store that reads and writes has no problem", async () => {
    const store = await open();
    expect(await store.problem()).toBeUndefined();
  });
});
