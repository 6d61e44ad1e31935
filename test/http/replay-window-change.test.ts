// The replay guard across a restart that widens PENNANT_CLOCK_SKEW: a push
// whose memory was swept under the smaller window must not pass again under
// the larger one (src/store/replay-memory.ts), and honest pushes still pass.
// The same across the upgrade that changed the replay key: what the earlier
// key remembered cannot be found by the new one, and must not pass either.

import { afterEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { join } from "node:path";
import journal from "../../migrations/meta/_journal.json" with { type: "json" };
import { migrate } from "../../src/store/database.ts";
import { sqliteEmbeddedMigrations } from "../../src/store/migrations.ts";
import { tempDir } from "../support/cleanup.ts";
import { pluginUpdate, pluginUpdateBody, sendPluginUpdate, type PluginUpdate } from "../support/ezbanners-client.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { json, newUuid, signedRequest } from "../support/signing.ts";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const T0 = Date.now();

async function start(dbPath: string, skewSeconds: number, at: number): Promise<TestServer> {
  await server?.close();
  server = await startTestServer({ PENNANT_DB: dbPath, PENNANT_CLOCK_SKEW: String(skewSeconds) }, { clockStart: at });
  return server;
}

function resend(update: PluginUpdate, to: TestServer): Promise<Response> {
  return sendPluginUpdate(update, { url: `${to.url}/api/server/update` });
}

function heldRows(to: TestServer): number {
  return (to.db.$client.query("select count(*) as n from used_signatures").get() as { n: number }).n;
}

/** A server on `dbPath` with a 60 s window, and a push it accepted at T0. */
async function firstPushUnder60s(dbPath: string) {
  const running = await start(dbPath, 60, T0);
  const token = running.token("server");
  const uuid = newUuid();
  const first = pluginUpdate(running.url, token, uuid, pluginUpdateBody({ onlinePlayers: 3 }), T0);
  expect((await sendPluginUpdate(first)).status).toBe(200);
  return { running, token, uuid, first };
}

describe("a clock window widened across a restart", () => {
  test("a push forgotten under the old window is refused when resent inside the new one", async () => {
    const dbPath = join(tempDir("pennant-skew-"), "pennant.db");
    const { token, uuid, first, ...before } = await firstPushUnder60s(dbPath);
    let running = before.running;
    // 61 s on, the next accepted push sweeps the first one's row: its timestamp left the 60 s window.
    running.clock.now = T0 + 61_000;
    expect((await resend(pluginUpdate(running.url, token, uuid, pluginUpdateBody({ onlinePlayers: 4 }), running.clock.now), running)).status).toBe(200);
    expect(heldRows(running)).toBe(1);

    running = await start(dbPath, 300, T0 + 62_000);
    const replayed = await resend(first, running);
    expect(replayed.status).toBe(401);
    expect((await json(replayed)).error.code).toBe("stale_timestamp");
    // An honest push, timestamped now, is accepted.
    expect((await resend(pluginUpdate(running.url, token, uuid, pluginUpdateBody({ onlinePlayers: 5 }), running.clock.now), running)).status).toBe(200);
  });

  test("a push still remembered at the restart stays remembered for the whole new window", async () => {
    const dbPath = join(tempDir("pennant-skew-"), "pennant.db");
    const { token, uuid, first, ...before } = await firstPushUnder60s(dbPath);
    let running = before.running;

    running = await start(dbPath, 300, T0 + 30_000);
    // 90 s after the first push: past its old 60 s expiry, inside the new 300 s window; a new push sweeps.
    running.clock.now = T0 + 90_000;
    expect((await resend(pluginUpdate(running.url, token, uuid, pluginUpdateBody({ onlinePlayers: 4 }), running.clock.now), running)).status).toBe(200);
    const again = await resend(first, running);
    expect([again.status, again.headers.get("x-duplicate")]).toEqual([200, "true"]);
    expect(await running.store.servers.samples(uuid, 0)).toHaveLength(2);
    const other = newUuid();
    const elsewhere = await sendPluginUpdate(first, { url: `${running.url}/api/server/update`, headers: { "X-Server-UUID": other, "X-Server-Id": other } });
    expect((await json(elsewhere)).error.code).toBe("replayed_request");
  });
});

describe("upgrading from the replay key of route, subject and scheme", () => {
  /** A database as the release before fingerprints left it: its migrations only, one push remembered under the earlier key. */
  function databaseBeforeFingerprints(dbPath: string, pushedAt: number): void {
    const sqlite = new Database(dbPath, { create: true });
    migrate(drizzle({ client: sqlite }), sqliteEmbeddedMigrations(journal.entries.filter((entry) => entry.tag < "0002")));
    sqlite.run("insert into replay_memory (id, clock_skew_ms, covered_since) values (1, 300000, 0)");
    sqlite.run("insert into used_signatures (signature, expires_at) values (?, ?)", ["a".repeat(64), pushedAt + 300_000]);
    sqlite.close();
  }

  test("a push remembered under the earlier key is refused after the upgrade; honest pushes pass", async () => {
    const dbPath = join(tempDir("pennant-upgrade-"), "pennant.db");
    const pushedAt = T0 - 10_000;
    databaseBeforeFingerprints(dbPath, pushedAt);
    const running = await start(dbPath, 300, T0);
    const token = running.token("server");
    const uuid = newUuid();
    // The request the earlier release accepted 10 s before the upgrade (its row holds no key the new code computes).
    const captured = pluginUpdate(running.url, token, uuid, pluginUpdateBody({ onlinePlayers: 3 }), pushedAt);
    const replayed = await resend(captured, running);
    expect(replayed.status).toBe(401);
    expect((await json(replayed)).error.code).toBe("stale_timestamp");
    expect(await running.store.servers.get(uuid)).toBeUndefined();

    expect((await resend(pluginUpdate(running.url, token, uuid, pluginUpdateBody({ onlinePlayers: 4 }), running.clock.now), running)).status).toBe(200);
    // The earlier key's row is gone; the new push's row is held.
    expect(heldRows(running)).toBe(1);
  });
});

describe("instances on one database with different windows", () => {
  test("a push accepted under the smaller window is still known when resent to the larger one, whichever started last", async () => {
    const dbPath = join(tempDir("pennant-skew-"), "pennant.db");
    // The larger window starts first; the smaller one's start must not shrink what is kept.
    const wide = await startTestServer({ PENNANT_DB: dbPath, PENNANT_CLOCK_SKEW: "600" }, { clockStart: T0 });
    const narrow = await startTestServer({ PENNANT_DB: dbPath, PENNANT_CLOCK_SKEW: "60" }, { clockStart: T0 });
    try {
      const token = narrow.token("server");
      const uuid = newUuid();
      const first = pluginUpdate(narrow.url, token, uuid, pluginUpdateBody({ onlinePlayers: 3 }), T0);
      expect((await sendPluginUpdate(first)).status).toBe(200);
      // 400 s on, past the narrow window: its next push sweeps what that window no longer covers.
      narrow.clock.now = wide.clock.now = T0 + 400_000;
      expect((await resend(pluginUpdate(narrow.url, token, uuid, pluginUpdateBody({ onlinePlayers: 4 }), narrow.clock.now), narrow)).status).toBe(200);
      // The wide instance accepts a timestamp 400 s old: the first push must still be known, as an exact
      // duplicate that changes nothing (not applied again over the newer one).
      const again = await resend(first, wide);
      expect([again.status, again.headers.get("x-duplicate")]).toEqual([200, "true"]);
      const status = await json(await fetch(signedRequest(wide.url, { method: "GET", path: "/api/server/status", token, serverUuid: uuid }, wide.clock.now)));
      expect(status.stats.players.online).toBe(4);
    } finally {
      await narrow.close();
      await wide.close();
    }
  });
});
