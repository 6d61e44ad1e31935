// Database faults degrade, they do not freeze: a lock held by another
// connection, a full database and a read-only one each turn pushes into a 503
// with Retry-After (never a 500 or a long stall), /healthz says why, lookups,
// banners and badges keep being served, and everything works again once the
// fault is gone.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { BUSY_PAUSE_MS, WriteHealth } from "../../src/store/write-health.ts";
import { StoreUnavailableError } from "../../src/store/unavailable.ts";
import { decodeImage } from "../support/images.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { json, newUuid, signedRequest } from "../support/signing.ts";

let server: TestServer;
let token: string;
beforeEach(async () => {
  server = await startTestServer();
  token = server.token();
});
afterEach(() => server.close());

function update(uuid = newUuid()): Promise<Response> {
  // Named after its server: one token's identical bodies in one second would carry one signature (a replay).
  const body = { name: `Faulty ${uuid}`, status: "online", stats: { players: { online: 1, max: 20 }, motd: "m".repeat(1000), version: "1.21" } };
  return fetch(signedRequest(server.url, { path: "/api/server/update", token, serverUuid: uuid, body }, server.clock.now));
}

function get(path: string): Promise<Response> {
  return fetch(server.url + path);
}

async function expectUnavailable(response: Response, retryAfter: string, words: RegExp): Promise<void> {
  expect(response.status).toBe(503);
  expect(response.headers.get("retry-after")).toBe(retryAfter);
  const body = await json(response);
  expect(body.error.code).toBe("database_unavailable");
  expect(body.error.message).toMatch(words);
}

async function expectUnhealthy(words: RegExp): Promise<void> {
  const response = await get("/healthz");
  expect(response.status).toBe(503);
  const body = await json(response);
  expect(body.ok).toBe(false);
  expect(body.error.code).toBe("database_unavailable");
  expect(body.error.message).toMatch(words);
}

async function expectHealthy(): Promise<void> {
  const response = await get("/healthz");
  expect(response.status).toBe(200);
  expect(await json(response)).toEqual({ ok: true });
}

/** A blocked address answers at once without the network: the lookup route works without the database. */
async function expectLookupServed(): Promise<void> {
  const response = await get("/api/lookup?address=127.0.0.1");
  expect(response.status).toBe(200);
  expect((await json(response)).error.code).toBe("blocked_address");
}

/**
 * What visitors see keeps being served from the records already stored: a
 * banner drawn from a pushed record (a fresh draw each time: the player count
 * in the query is new) and the record's badges, as PNG and JSON.
 */
let drawn = 0;
async function expectReadsServed(uuid: string): Promise<void> {
  const banner = await get(`/api/banner?data_mode=plugin&server_uuid=${uuid}&online_players=${++drawn}`);
  expect(banner.status).toBe(200);
  expect((await decodeImage(banner)).width).toBe(468);
  const badge = await get(`/shields/servers/${uuid}/players.png?label=v${drawn}`);
  expect(badge.status).toBe(200);
  expect((await decodeImage(badge)).height).toBeGreaterThan(0);
  const endpoint = await get(`/shields/servers/${uuid}/players.json`);
  expect(endpoint.status).toBe(200);
  expect((await json(endpoint)).message).toBe("1/20");
}

function serverCount(): number {
  return (server.db.$client.query("select count(*) as n from servers").get() as { n: number }).n;
}

describe("a lock held by another connection", () => {
  test("pushes answer 503 with Retry-After after a short wait, /healthz says why, lookups, banners and badges are served", async () => {
    const stored = newUuid();
    expect((await update(stored)).status).toBe(200);
    const lock = new Database(server.dbPath);
    lock.run("BEGIN EXCLUSIVE");
    try {
      // Three pushes and a health check at once: with a long busy_timeout each push
      // held the (synchronous) process for seconds and /healthz waited behind them.
      const started = performance.now();
      const [first, second, third, health] = await Promise.all([update(), update(), update(), get("/healthz")]);
      const elapsed = performance.now() - started;
      for (const response of [first, second, third]) await expectUnavailable(response!, "1", /locked/);
      expect(health!.status).toBeLessThan(600);
      // A bound on the freeze, not a speed test: one short lock wait, not three of 5 s.
      expect(elapsed).toBeLessThan(1000);
      await expectUnhealthy(/writes are failing.*locked/);
      await expectLookupServed();
      await expectReadsServed(stored);
      expect(serverCount()).toBe(1);
    } finally {
      lock.run("ROLLBACK");
      lock.close();
    }
    // Within the pause after a busy write, pushes are refused without waiting; after it they work.
    await expectUnavailable(await update(), "1", /locked/);
    server.clock.now += BUSY_PAUSE_MS;
    expect((await update()).status).toBe(200);
    await expectHealthy();
  });

  test("one log line per kind of fault, not one per push, with the count of the lines held back", async () => {
    const storeLines = () => server.logs().filter((line) => line.level === "error");
    const lock = new Database(server.dbPath);
    try {
      lock.run("BEGIN EXCLUSIVE");
      for (let i = 0; i < 5; i++) expect((await update()).status).toBe(503);
      expect(storeLines().length).toBe(1);
      expect(storeLines()[0]!.msg).toMatch(/^database unavailable: the database is locked by another process \(SQLITE_BUSY/);

      server.clock.now += 60_000;
      expect((await update()).status).toBe(503);
      expect(storeLines().length).toBe(2);
      expect(storeLines()[1]!.msg).toContain("(4 more since the last such line)");
    } finally {
      lock.run("ROLLBACK");
      lock.close();
    }
  });
});

describe("a full database", () => {
  test("pushes answer 503, /healthz reports failing writes while reads, banners and badges work, and both recover", async () => {
    const stored = newUuid();
    expect((await update(stored)).status).toBe(200);
    const { page_count } = server.db.$client.query("PRAGMA page_count").get() as { page_count: number };
    server.db.$client.run(`PRAGMA max_page_count = ${page_count}`);
    let refused: Response | undefined;
    for (let i = 0; i < 200 && !refused; i++) {
      const response = await update();
      if (response.status !== 200) refused = response;
    }
    expect(refused).toBeDefined();
    await expectUnavailable(refused!, "60", /full/);
    await expectUnhealthy(/writes are failing.*full/);
    await expectLookupServed();
    await expectReadsServed(stored);

    server.db.$client.run("PRAGMA max_page_count = 1000000");
    expect((await update()).status).toBe(200);
    await expectHealthy();
  });
});

describe("a read-only database", () => {
  test("pushes answer 503 and /healthz says it cannot be written while banners and badges are served; writable again, all is well", async () => {
    const stored = newUuid();
    expect((await update(stored)).status).toBe(200);
    server.db.$client.run("PRAGMA query_only = 1");
    await expectUnavailable(await update(), "60", /cannot be written/);
    await expectUnhealthy(/writes are failing.*cannot be written/);
    await expectReadsServed(stored);
    expect(serverCount()).toBe(1);

    server.db.$client.run("PRAGMA query_only = 0");
    expect((await update()).status).toBe(200);
    await expectHealthy();
  });
});

describe("/healthz", () => {
  test("answers ok while the database can be read and writes succeed", async () => {
    await expectHealthy();
    expect((await update()).status).toBe(200);
    await expectHealthy();
  });

  test("answers 503 with the reason when the database cannot be read", async () => {
    server.db.$client.close();
    await expectUnhealthy(/cannot be read/);
  });
});

describe("WriteHealth", () => {
  const busy = () => {
    throw new StoreUnavailableError("busy", "SQLITE_BUSY: database is locked");
  };

  test("after a busy write, the next writes of the pause are refused without being tried", () => {
    let now = 1_000;
    const health = new WriteHealth(() => now);
    expect(() => health.run(busy)).toThrow(StoreUnavailableError);
    let tried = false;
    now += BUSY_PAUSE_MS - 1;
    expect(() => health.run(() => (tried = true))).toThrow(/locked/);
    expect(tried).toBe(false);
    now += 1;
    expect(health.run(() => "written")).toBe("written");
    expect(health.lastFailure()).toBeUndefined();
  });

  test("a refusal that is not a store fault leaves the last outcome as it was", () => {
    let now = 1_000;
    const health = new WriteHealth(() => now);
    expect(() => health.run(busy)).toThrow();
    now += BUSY_PAUSE_MS;
    expect(() =>
      health.run(() => {
        throw new Error("not the owner");
      }),
    ).toThrow("not the owner");
    expect(health.lastFailure()).toMatchObject({ kind: "busy", since: 1_000 });
  });
});
