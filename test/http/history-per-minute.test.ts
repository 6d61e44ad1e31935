// History keeps at most one sample per server per minute (issue 20): later
// updates of the minute write into it, keeping the minute's highest player
// count (what the banner's history plots, per 5 minutes) and its latest time,
// players max and TPS. Also across the upgrade from one sample per update.

import { afterEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { join } from "node:path";
import journal from "../../migrations/meta/_journal.json" with { type: "json" };
import { generateToken, hashToken } from "../../src/auth/token.ts";
import { migrate } from "../../src/store/database.ts";
import { sqliteEmbeddedMigrations } from "../../src/store/migrations.ts";
import { tempDir } from "../support/cleanup.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { newUuid, signedRequest } from "../support/signing.ts";

const MINUTE = 60_000;
/** The start of a minute, so that a test's pushes stay inside it. */
const MINUTE_START = Math.floor(Date.now() / MINUTE) * MINUTE;

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(env: Record<string, string> = {}): Promise<TestServer> {
  server = await startTestServer(env, { clockStart: MINUTE_START });
  return server;
}

/** A signed update at the server's current time; its status is checked. */
async function update(to: TestServer, token: string, uuid: string, stats: object): Promise<void> {
  const body = { status: "online", stats };
  const response = await fetch(signedRequest(to.url, { path: "/api/server/update", token, serverUuid: uuid, body }, to.clock.now));
  expect(response.status).toBe(200);
}

function players(online: number, max = 100, tps = 20) {
  return { players: { online, max }, tps };
}

async function samples(from: TestServer, uuid: string) {
  return (await from.store.servers.samples(uuid, 0)).map(({ at, playersOnline, playersMax, tps }) => ({ at, playersOnline, playersMax, tps }));
}

describe("history: one sample per server per minute", () => {
  test("50 updates within a minute leave one sample: the minute's highest count, its latest time, players max and TPS", async () => {
    const running = await start();
    const token = running.token("server");
    const uuid = newUuid();
    // The peak (90) comes mid-minute; the last update (12) is not the highest.
    const counts = Array.from({ length: 50 }, (_, i) => (i === 23 ? 90 : (i * 7) % 40 + 1));
    counts[49] = 12;
    for (const [i, online] of counts.entries()) {
      await update(running, token, uuid, players(online, 100 + i, 19 + i / 100));
      if (i < counts.length - 1) running.clock.now += 1_000;
    }
    expect(await samples(running, uuid)).toEqual([{ at: MINUTE_START + 49_000, playersOnline: 90, playersMax: 149, tps: 19.49 }]);
  });

  test("updates in two minutes leave two samples, each holding its own minute's highest", async () => {
    const running = await start();
    const token = running.token("server");
    const uuid = newUuid();
    await update(running, token, uuid, players(5));
    running.clock.now += 59_999; // the last millisecond of the first minute
    await update(running, token, uuid, players(8));
    running.clock.now += 1; // the next minute begins
    await update(running, token, uuid, players(3));
    expect((await samples(running, uuid)).map(({ at, playersOnline }) => [at, playersOnline])).toEqual([
      [MINUTE_START + 59_999, 8],
      [MINUTE_START + MINUTE, 3],
    ]);
  });

  test("concurrent updates in one minute leave one sample with the highest count", async () => {
    const running = await start();
    const token = running.token("server");
    const uuid = newUuid();
    await update(running, token, uuid, players(1));
    // Distinct bodies, so that none is a duplicate of another.
    await Promise.all(Array.from({ length: 30 }, (_, i) => update(running, token, uuid, players(i === 17 ? 77 : i + 2))));
    expect((await samples(running, uuid)).map((sample) => sample.playersOnline)).toEqual([77]);
  });

  test("an update without a player count keeps the count the minute already has", async () => {
    const running = await start();
    const token = running.token("server");
    const first = newUuid();
    // A first update with no player count stores none; the minute's next one fills it in.
    await update(running, token, first, { tps: 20 });
    running.clock.now += 1_000;
    await update(running, token, first, players(6));
    running.clock.now += 1_000;
    await update(running, token, first, { tps: 18 });
    expect((await samples(running, first)).map(({ playersOnline, tps }) => [playersOnline, tps])).toEqual([[6, 18]]);
  });
});

describe("upgrading from one sample per update", () => {
  /** A database as the release before this bound left it: a server with several samples in one minute. */
  function databaseBeforeMinuteSamples(dbPath: string, secret: string, uuid: string): void {
    const sqlite = new Database(dbPath, { create: true });
    migrate(drizzle({ client: sqlite }), sqliteEmbeddedMigrations(journal.entries.filter((entry) => entry.tag < "0003")));
    sqlite.run("insert into tokens (id, hash, scope, label, origin, created_at) values (1, ?, 'server', 'old', 'cli', 0)", [hashToken(secret)]);
    sqlite.run("insert into servers (uuid, token_id, first_seen, last_seen) values (?, 1, ?, ?)", [uuid, MINUTE_START - MINUTE, MINUTE_START]);
    const sample = sqlite.prepare("insert into server_samples (server_uuid, at, players_online, players_max, tps) values (?, ?, ?, ?, ?)");
    // The minute before: three samples, the peak first; then two in the current minute, the same time twice.
    sample.run(uuid, MINUTE_START - MINUTE, 9, 50, 19);
    sample.run(uuid, MINUTE_START - MINUTE + 20_000, null, 50, 18);
    sample.run(uuid, MINUTE_START - 1, 4, 60, 17);
    sample.run(uuid, MINUTE_START, 2, 70, 16);
    sample.run(uuid, MINUTE_START, 3, 80, 15);
    sqlite.close();
  }

  test("samples sharing a minute are folded into one, and later updates of that minute write into it", async () => {
    const dbPath = join(tempDir("pennant-upgrade-"), "pennant.db");
    const secret = generateToken();
    const uuid = newUuid();
    databaseBeforeMinuteSamples(dbPath, secret, uuid);
    const running = await start({ PENNANT_DB: dbPath });
    expect(await samples(running, uuid)).toEqual([
      { at: MINUTE_START - 1, playersOnline: 9, playersMax: 60, tps: 17 },
      { at: MINUTE_START, playersOnline: 3, playersMax: 80, tps: 15 },
    ]);
    running.clock.now += 30_000;
    await update(running, secret, uuid, players(1, 90, 14));
    expect((await samples(running, uuid)).slice(1)).toEqual([{ at: MINUTE_START + 30_000, playersOnline: 3, playersMax: 90, tps: 14 }]);
  });
});
