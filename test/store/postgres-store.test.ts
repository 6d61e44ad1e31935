// What only the PostgreSQL store has (its behaviour shared with SQLite is in
// test/store.test.ts, run on both): a database server that goes away, that
// holds a push up past the call deadline or the statement timeout, and
// `backup`, which names pg_dump instead.

import { beforeAll, describe, expect, test } from "bun:test";
import { SQL } from "bun";
import { PG_TIMEOUTS } from "../../src/store/postgres/open-postgres.ts";
import { openPostgresStore, PostgresStore } from "../../src/store/postgres/postgres-store.ts";
import { BackupError } from "../../src/store/backup.ts";
import type { Push } from "../../src/store/store.ts";
import { StoreUnavailableError } from "../../src/store/unavailable.ts";
import { StorageLimitError } from "../../src/store/write-refusals.ts";
import { track } from "../support/cleanup.ts";
import { startPostgres, type Postgres } from "../support/postgres.ts";

let postgres: Postgres;
beforeAll(async () => {
  postgres = await startPostgres();
});

async function open(url: string, timeouts = PG_TIMEOUTS): Promise<PostgresStore> {
  const store = await openPostgresStore(url, timeouts);
  track(() => store.close());
  return store;
}

function pushOf(tokenId: number, n: number): Push {
  const key = `fault-${n}-`.padEnd(64, "0");
  return {
    credentials: { tokenId, tokenHash: "a".repeat(64) },
    replay: { key, fingerprint: key, timestampMs: 0, expiresAt: Number.MAX_SAFE_INTEGER },
    now: 1_000,
    bounds: { registrationMax: 10, maxBytesPerToken: 65_536 },
    record: { kind: "server", uuid: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`, serverPush: "update", fields: {}, maxPerToken: 10 },
  };
}

/** Holds the row of token `id` locked from another connection until the test ends: pushes creating a record wait for it. */
async function lockToken(url: string, id: number): Promise<void> {
  const sql = new SQL(url, { max: 1 });
  const held = Promise.withResolvers<void>();
  const locked = Promise.withResolvers<void>();
  const transaction = sql.begin(async (tx) => {
    await tx`SELECT id FROM tokens WHERE id = ${id} FOR UPDATE`;
    locked.resolve();
    await held.promise;
  });
  track(async () => {
    held.resolve();
    await transaction;
    await sql.close();
  });
  await locked.promise;
}

describe("faults of the database server", () => {
  test("a push held up past the call deadline is refused as unavailable, timed out, after the deadline", async () => {
    const url = await postgres.database();
    // PostgreSQL would cancel the statement only after 10 s: the client's deadline is what answers.
    const store = await open(url, { ...PG_TIMEOUTS, statementMs: 10_000, callMs: 300 });
    const token = await store.tokens.create({ hash: "a".repeat(64), scope: "all", label: "", now: 1 });
    await lockToken(url, token.id);
    const started = performance.now();
    const refused = store.push(pushOf(token.id, 1));
    await expect(refused).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(refused).rejects.toMatchObject({ kind: "timeout", retryAfterSeconds: 2 });
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(await store.problem()).toStartWith("writes are failing since ");
  });

  test("a statement PostgreSQL cancels at its statement timeout is unavailable, timed out", async () => {
    const url = await postgres.database();
    const store = await open(url, { ...PG_TIMEOUTS, statementMs: 200 });
    const token = await store.tokens.create({ hash: "a".repeat(64), scope: "all", label: "", now: 1 });
    await lockToken(url, token.id);
    const refused = store.push(pushOf(token.id, 1));
    await expect(refused).rejects.toMatchObject({ name: "StoreUnavailableError", kind: "timeout" });
    await expect(refused).rejects.toThrow("SQLSTATE 57014");
  });

  test("a server that went away: every call is unavailable, unreachable, and /healthz's problem says so", async () => {
    const own = await startPostgres();
    const store = await open(await own.database());
    const token = await store.tokens.create({ hash: "a".repeat(64), scope: "all", label: "", now: 1 });
    expect(await store.push(pushOf(token.id, 1))).toBe("new");
    expect(await store.problem()).toBeUndefined();
    await own.close();
    for (const call of [() => store.push(pushOf(token.id, 2)), () => store.servers.list(), () => store.tokens.findByHash(token.hash)]) {
      await expect(call()).rejects.toMatchObject({ name: "StoreUnavailableError", kind: "unreachable", retryAfterSeconds: 5 });
    }
    expect(await store.problem()).toStartWith("the database cannot be read: the database server cannot be reached");
  });
});

describe("the push function's refusals", () => {
  test("come out as the store's refusals, with their figures: the bytes a token would hold as PostgreSQL writes its JSON out", async () => {
    const store = await open(await postgres.database());
    const token = await store.tokens.create({ hash: "a".repeat(64), scope: "all", label: "", now: 1 });
    const withExtra = (n: number, extra: Record<string, unknown>, maxBytesPerToken = 65_536): Push => {
      const push = pushOf(token.id, n);
      return { ...push, bounds: { ...push.bounds, maxBytesPerToken }, record: { ...push.record, fields: { extra } } as Push["record"] };
    };
    expect(await store.push(withExtra(1, { a: 1 }))).toBe("new");
    // '{"a": 1}' is 8 bytes, '{"text": "x...x"}' 5,012: PostgreSQL puts a space after each colon.
    const refused = store.push(withExtra(2, { text: "x".repeat(5_000) }, 1_000));
    await expect(refused).rejects.toBeInstanceOf(StorageLimitError);
    await expect(refused).rejects.toMatchObject({ limit: 1_000, wouldHold: 5_020 });
    const limited = pushOf(token.id, 3);
    await expect(store.push({ ...limited, record: { ...limited.record, maxPerToken: 1 } })).rejects.toMatchObject({ name: "RecordLimitError", kind: "server", limit: 1 });
    const unknown = { ...pushOf(token.id, 4), credentials: { tokenId: null, tokenHash: "b".repeat(64) } };
    await expect(store.push({ ...unknown, bounds: { ...unknown.bounds, registrationMax: 0 } })).rejects.toMatchObject({ name: "RegistrationFullError", limit: 0 });
    expect((await store.servers.list()).map((row) => row.uuid)).toEqual([pushOf(token.id, 1).record.uuid]);
  });
});

describe("backup", () => {
  test("refuses in one line that names pg_dump with this database's address, never its password", async () => {
    const url = new URL(await postgres.database());
    const opened = await open(url.toString());
    url.password = "hunter2-secret";
    const refused = new PostgresStore(opened.db, url).backup("backup.dump");
    await expect(refused).rejects.toBeInstanceOf(BackupError);
    const { message } = (await refused.catch((error: Error) => error)) as Error;
    expect(message).toBe(`backup copies SQLite files; back up PostgreSQL with pg_dump: pg_dump --format=custom --file=backup.dump --host=127.0.0.1 --port=${url.port} --username=postgres ${url.pathname.slice(1)}`);
    expect(message).not.toContain("hunter2");
  });
});
