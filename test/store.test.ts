import { describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import journal from "../migrations/meta/_journal.json" with { type: "json" };
import { SQL_BY_TAG, embeddedMigrations } from "../src/store/migrations.ts";
import { openDatabase } from "../src/store/database.ts";
import { statusAt } from "../src/store/servers.ts";
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

describe("server status at a time", () => {
  const minute = 60_000;
  const row = (status: string | null, lastSeen: number) => ({ status, lastSeen });

  test("a fresh record shows what it pushed; anything but online is offline", () => {
    expect(statusAt(row("online", 0), 10 * minute, 15 * minute)).toBe("online");
    expect(statusAt(row("offline", 0), 10 * minute, 15 * minute)).toBe("offline");
    expect(statusAt(row("maintenance", 0), 0, 15 * minute)).toBe("offline");
    expect(statusAt(row(null, 0), 0, 15 * minute)).toBe("offline");
  });

  test("a record not refreshed within the stale time reads offline, whatever it said", () => {
    expect(statusAt(row("online", 0), 15 * minute, 15 * minute)).toBe("online");
    expect(statusAt(row("online", 0), 15 * minute + 1, 15 * minute)).toBe("offline");
  });
});
