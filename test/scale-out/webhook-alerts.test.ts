// Alerts from two instances on one PostgreSQL: both sweep, and each change
// reaches the receiver once (the claim in the database), whichever instance
// the server pushed to.

import { beforeAll, expect, test } from "bun:test";
import { generateToken, hashToken } from "../../src/auth/token.ts";
import { loadConfig } from "../../src/config.ts";
import { createApp } from "../../src/serve/app.ts";
import { listen } from "../../src/serve/listen.ts";
import { createLogger } from "../../src/log.ts";
import { openPostgresStore } from "../../src/store/postgres/postgres-store.ts";
import { track } from "../support/cleanup.ts";
import { startPostgres, type Postgres } from "../support/postgres.ts";
import { newUuid, signedRequest } from "../support/signing.ts";

let postgres: Postgres;
beforeAll(async () => {
  postgres = await startPostgres();
});

/** An instance in this process on `databaseUrl`, sweeping every 30 ms on the shared clock. */
async function instance(databaseUrl: string, clock: { now: number }): Promise<string> {
  const config = loadConfig({ PENNANT_DATABASE_URL: databaseUrl, PENNANT_WEBHOOK_PRIVATE: "on", PENNANT_STALE_AFTER: "60", PENNANT_RENDER_THREADS: "0" });
  const store = await openPostgresStore(databaseUrl, undefined, () => clock.now);
  const app = await createApp({ config, store, now: () => clock.now, log: createLogger({ level: "error", write: () => {} }), alertIntervalMs: 30 });
  const port = listen(app, "127.0.0.1", 0);
  track(async () => {
    await app.stop(true);
    await store.close();
  });
  return `http://127.0.0.1:${port}`;
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
  const databaseUrl = await postgres.database();
  const clock = { now: Date.now() };
  const [first, second] = await Promise.all([instance(databaseUrl, clock), instance(databaseUrl, clock)]);
  const setup = await openPostgresStore(databaseUrl);
  track(() => setup.close());
  const token = generateToken();
  await setup.tokens.create({ hash: hashToken(token), scope: "all", label: "test", now: clock.now });
  const serverUuid = newUuid();
  const send = (url: string, path: string, body: object) => fetch(signedRequest(url, { path, token, serverUuid, body }, clock.now));

  expect((await send(first!, "/api/server/update", { name: "Scaled", status: "online", stats: { players: { online: 3, max: 20 } } })).status).toBe(200);
  expect((await send(second!, "/api/server/webhooks", { url: `http://127.0.0.1:${receiver.port}/hook`, events: ["offline", "online"], format: "json", grace_seconds: 0 })).status).toBe(201);
  await Bun.sleep(300);
  clock.now += 61_000;
  const settle = async (count: number) => {
    const deadline = Date.now() + 10_000;
    while (received.length < count && Date.now() < deadline) await Bun.sleep(20);
    // Several sweeps of both instances: a second delivery of the change would have come.
    await Bun.sleep(400);
  };
  await settle(1);
  expect(received.map((body) => JSON.parse(body).event)).toEqual(["offline"]);
  expect((await send(second!, "/api/server/heartbeat", { status: "online" })).status).toBe(200);
  await settle(2);
  expect(received.map((body) => JSON.parse(body).event)).toEqual(["offline", "online"]);
});
