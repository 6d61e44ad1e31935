import { describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import journal from "../migrations/meta/_journal.json" with { type: "json" };
import { SQL_BY_TAG, embeddedMigrations } from "../src/store/migrations.ts";
import { openDatabase } from "../src/store/database.ts";
import { ReplayError } from "../src/store/write-refusals.ts";
import { acceptPush } from "../src/store/push.ts";
import { listSampleBuckets, writeServerPush } from "../src/store/servers.ts";
import { createToken } from "../src/store/tokens.ts";
import { tempDir } from "./support/cleanup.ts";

const MIGRATIONS = join(import.meta.dir, "..", "migrations");

describe("migrations", () => {
  test("every migration drizzle-kit generated is embedded", () => {
    const files = readdirSync(MIGRATIONS).filter((name) => name.endsWith(".sql")).map((name) => name.slice(0, -4));
    expect(Object.keys(SQL_BY_TAG).sort()).toEqual(files.sort());
    expect(journal.entries.map((entry) => entry.tag).sort()).toEqual(files.sort());
  });

  test("a journal entry without embedded SQL is an error, not a silent skip", () => {
    expect(() => embeddedMigrations([{ tag: "9999_missing", when: 1, breakpoints: true }])).toThrow("9999_missing");
  });

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
      createToken(db, { hash: "a".repeat(64), scope: "all", label: "one", now: 1 });
      createToken(db, { hash: "b".repeat(64), scope: "all", label: "two", now: 2 });
      expect(client.prepare("SELECT count(*) AS n FROM tokens").get()).toEqual({ n: 2 });
    } finally {
      db.$client.close();
    }
  });
});

describe("player history in buckets", () => {
  test("one point per bucket: its highest count at its newest sample; older samples, other servers and unknown counts left out", () => {
    const db = openDatabase(join(tempDir("store"), "pennant.db"));
    try {
      const token = createToken(db, { hash: "a".repeat(64), scope: "all", label: "t", now: 0 });
      const push = (uuid: string, now: number, playersOnline?: number) =>
        db.transaction((tx) => writeServerPush(tx, { uuid, tokenId: token.id, now, kind: "update", fields: { playersOnline }, maxPerToken: 10 }));
      const uuid = "00000000-0000-4000-8000-000000000001";
      // Times in minutes, as samples are kept one per minute.
      push(uuid, 60_000, 9); // before `since`
      push(uuid, 600_000, 3);
      push(uuid, 720_000, 7);
      push(uuid, 1_199_999, 5); // same bucket [600 000, 1 200 000): peak 7, newest time 1 199 999
      push(uuid, 1_200_000, 2);
      push("00000000-0000-4000-8000-000000000002", 1_200_000, 50);
      expect(listSampleBuckets(db, uuid, 300_000, 600_000)).toEqual([{ at: 1_199_999, online: 7 }, { at: 1_200_000, online: 2 }]);
      const silent = "00000000-0000-4000-8000-000000000003";
      push(silent, 900_000); // a first update without a player count stores a sample with none
      expect(listSampleBuckets(db, silent, 0, 600_000)).toEqual([]);
    } finally {
      db.$client.close();
    }
  });
});

describe("accepting a push", () => {
  // The route answers a known replay key before anything else (so resends cost
  // nothing); the key's primary key in used_signatures is what decides when
  // two identical requests get past that look-up together.
  test("a replay key the database already holds: the same fingerprint is a duplicate, another a replay; no write runs; once expired it is swept", () => {
    const db = openDatabase(join(tempDir("store"), "pennant.db"));
    try {
      const token = createToken(db, { hash: "b".repeat(64), scope: "all", label: "t", now: 0 });
      const credentials = { tokenId: token.id, tokenHash: token.hash };
      const record = { key: "c".repeat(64), fingerprint: "d".repeat(64), expiresAt: 10_000 };
      const writes: number[] = [];
      const bounds = { registrationMax: 1, maxBytesPerToken: 1024 };
      const plugin = { kind: "plugin" as const, uuid: "f".repeat(32) };
      expect(acceptPush(db, credentials, record, 1_000, plugin, bounds, () => writes.push(1_000))).toBe("new");
      expect(acceptPush(db, credentials, record, 10_000, plugin, bounds, () => writes.push(10_000))).toBe("duplicate");
      expect(() => acceptPush(db, credentials, { ...record, fingerprint: "e".repeat(64) }, 10_000, plugin, bounds, () => writes.push(10_000))).toThrow(ReplayError);
      expect(acceptPush(db, credentials, record, 10_001, plugin, bounds, () => writes.push(10_001))).toBe("new");
      expect(writes).toEqual([1_000, 10_001]);
    } finally {
      db.$client.close();
    }
  });
});
