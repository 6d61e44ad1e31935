// Alerts from two instances on one PostgreSQL: both sweep, and each change
// reaches the receiver once (the claim in the database), whichever instance
// the server pushed to; a live Discord message is posted once and edited
// once per change (the lease in the database).

import { beforeAll, expect, test } from "bun:test";
import { generateToken, hashToken } from "../../src/auth/token.ts";
import { loadConfig } from "../../src/config.ts";
import { createApp } from "../../src/serve/app.ts";
import { listen } from "../../src/serve/listen.ts";
import { createLogger } from "../../src/log.ts";
import { openPostgresStore } from "../../src/store/postgres/postgres-store.ts";
import { track } from "../support/cleanup.ts";
import { startDiscordPeer } from "../support/discord-peer.ts";
import { startPostgres, type Postgres } from "../support/postgres.ts";
import { newUuid, signedRequest } from "../support/signing.ts";

let postgres: Postgres;
beforeAll(async () => {
  postgres = await startPostgres();
});

/** An instance in this process on `databaseUrl`, sweeping every `sweepMs` on the shared clock (live messages sent to `discordApi`). */
async function instance(databaseUrl: string, clock: { now: number }, { sweepMs = 30, discordApi }: { sweepMs?: number; discordApi?: string } = {}): Promise<string> {
  const config = loadConfig({
    PENNANT_DATABASE_URL: databaseUrl, PENNANT_WEBHOOK_PRIVATE: "on", PENNANT_STALE_AFTER: "60", PENNANT_RENDER_THREADS: "0", PENNANT_PUBLIC_URL: "https://banners.example.com",
  });
  const store = await openPostgresStore(databaseUrl, undefined, () => clock.now);
  const app = await createApp({ config, store, now: () => clock.now, log: createLogger({ level: "error", write: () => {} }), alertIntervalMs: sweepMs, discordApi });
  const port = listen(app, "127.0.0.1", 0);
  track(async () => {
    await app.stop(true);
    await store.close();
  });
  return `http://127.0.0.1:${port}`;
}

/** Two instances on a new database and a token in it; `send` posts a signed request of one server to either. */
async function twoInstances(clock: { now: number }, options: Parameters<typeof instance>[2] = {}) {
  const databaseUrl = await postgres.database();
  const [first, second] = await Promise.all([0, 1].map(() => instance(databaseUrl, clock, options)));
  const setup = await openPostgresStore(databaseUrl);
  track(() => setup.close());
  const token = generateToken();
  await setup.tokens.create({ hash: hashToken(token), scope: "all", label: "test", now: clock.now });
  const serverUuid = newUuid();
  const send = (url: string, path: string, body: object) => fetch(signedRequest(url, { path, token, serverUuid, body }, clock.now));
  return { first: first!, second: second!, send };
}

/** Waits until `count` of `seen` have come, then for many sweeps of both instances: one more would have come. */
async function settle(seen: readonly unknown[], count: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (seen.length < count && Date.now() < deadline) await Bun.sleep(10);
  await Bun.sleep(400);
}

test("two instances sweeping one PostgreSQL send one offline when the server goes stale and one online when it returns", async () => {
  const received: string[] = [];
  const receiver = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      received.push(await request.text());
      return new Response(null, { status: 204 });
    },
  });
  track(() => receiver.stop(true));
  const clock = { now: Date.now() };
  const { first, second, send } = await twoInstances(clock);

  expect((await send(first, "/api/server/update", { name: "Scaled", status: "online", stats: { players: { online: 3, max: 20 } } })).status).toBe(200);
  expect((await send(second, "/api/server/webhooks", { url: `http://127.0.0.1:${receiver.port}/hook`, events: ["offline", "online"], format: "json", grace_seconds: 0 })).status).toBe(201);
  await Bun.sleep(300);
  clock.now += 61_000;
  await settle(received, 1);
  expect(received.map((body) => JSON.parse(body).event)).toEqual(["offline"]);
  expect((await send(second, "/api/server/heartbeat", { status: "online" })).status).toBe(200);
  await settle(received, 2);
  expect(received.map((body) => JSON.parse(body).event)).toEqual(["offline", "online"]);
});

test("two instances sweeping one PostgreSQL post one live message and edit it once per change", async () => {
  const clock = { now: Date.now() };
  const discord = startDiscordPeer(clock);
  // Sweeping every 5 ms, their leases often meet: without the lease's re-check this fails 3 runs of 3.
  const { first, second, send } = await twoInstances(clock, { sweepMs: 5, discordApi: discord.api });
  const calls = () => discord.requests.map((request) => request.method);

  expect((await send(first, "/api/server/update", { name: "Scaled", status: "online", stats: { players: { online: 3, max: 20 } } })).status).toBe(200);
  expect((await send(second, "/api/server/webhooks", { url: discord.webhookUrl, format: "discord-live", interval_seconds: 30 })).status).toBe(201);
  await settle(discord.requests, 1);
  expect(calls()).toEqual(["POST"]);
  for (const [n, instanceUrl] of [first, second, first].entries()) {
    clock.now += 30_000;
    expect((await send(instanceUrl, "/api/server/update", { stats: { players: { online: 4 + n, max: 20 } } })).status).toBe(200);
    await settle(discord.requests, 2 + n);
    expect(calls()).toEqual(["POST", ...Array.from({ length: n + 1 }, () => "PATCH")]);
  }
  expect(discord.messages.size).toBe(1);
  expect(discord.violations).toEqual([]);
});
