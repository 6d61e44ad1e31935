// Alerts by webhook, from outside: subscriptions through the signed API, and
// a real HTTP receiver that gets what a server's outage and return send.

import { afterEach, describe, expect, test } from "bun:test";
import { createHmac, timingSafeEqual } from "node:crypto";
import { startTestServer, type TestServer } from "../support/server.ts";
import { newUuid, signedRequest, type SignedCall } from "../support/signing.ts";

let server: TestServer;
afterEach(async () => {
  await server?.close();
});

function send(call: SignedCall): Promise<Response> {
  return fetch(signedRequest(server.url, call, server.clock.now));
}

/** A token and a server it pushed (online, 7 of 20 players). */
async function pushedServer(status = "online"): Promise<{ token: string; serverUuid: string }> {
  const token = server.token("server");
  const serverUuid = newUuid();
  const response = await send({ path: "/api/server/update", token, serverUuid, body: { name: "Lobby", status, stats: { players: { online: 7, max: 20 } } } });
  expect(response.status).toBe(200);
  return { token, serverUuid };
}

/** A subscription of `body`, with no grace unless it names one: these tests send each change at once, as before grace existed. */
function subscribe(token: string, serverUuid: string, body: object, timestamp?: number): Promise<Response> {
  return send({ path: "/api/server/webhooks", token, serverUuid, body: { grace_seconds: 0, ...body }, timestamp });
}

async function expectError(response: Response, status: number, code: string): Promise<string> {
  expect(response.status).toBe(status);
  const body = (await response.json()) as { error: { code: string; message: string } };
  expect(body.error.code).toBe(code);
  return body.error.message;
}

function webhookRows(): number {
  return (server.db.$client.query("select count(*) as n from webhooks").get() as { n: number }).n;
}

describe("subscriptions", () => {
  test("created with a secret shown once, listed without it, removed by id; an exact duplicate answers the same", async () => {
    server = await startTestServer({ PENNANT_WEBHOOK_PRIVATE: "on" });
    const { token, serverUuid } = await pushedServer();
    const asked = { url: "http://127.0.0.1:9/hook", events: ["offline", "online"], format: "json" };
    const timestamp = Math.floor(server.clock.now / 1000);
    const created = await subscribe(token, serverUuid, asked, timestamp);
    expect(created.status).toBe(201);
    const { id, secret } = (await created.json()) as { id: string; secret: string };
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    const again = await subscribe(token, serverUuid, asked, timestamp);
    expect(again.status).toBe(200);
    expect(again.headers.get("x-duplicate")).toBe("true");
    expect(await again.json()).toEqual({ id, secret });

    const listed = await send({ method: "GET", path: "/api/server/webhooks", token, serverUuid });
    expect(listed.status).toBe(200);
    const rows = (await listed.json()) as Array<Record<string, unknown>>;
    expect(rows).toEqual([
      {
        id, url: asked.url, events: asked.events, format: "json", state: "active", created_at: new Date(server.clock.now).toISOString(), last_status: null, last_delivery_at: null, dropped: 0,
        grace_seconds: 0, interval_seconds: null, message_id: null,
      },
    ]);
    expect(JSON.stringify(rows)).not.toContain(secret);

    const remove: SignedCall = { method: "DELETE", path: `/api/server/webhooks/${id}`, token, serverUuid };
    expect((await send(remove)).status).toBe(200);
    // Accepted once: the same request again (the same second) is an exact duplicate, answered alike; a new one finds nothing.
    const removedAgain = await send(remove);
    expect([removedAgain.status, removedAgain.headers.get("x-duplicate"), await removedAgain.json()]).toEqual([200, "true", { message: "Webhook removed." }]);
    server.clock.now += 1000;
    await expectError(await send(remove), 404, "unknown_webhook");
    expect(webhookRows()).toBe(0);
  });

  test("bad requests are 4xx with a JSON error and store nothing", async () => {
    server = await startTestServer({ PENNANT_WEBHOOK_PRIVATE: "on" });
    const { token, serverUuid } = await pushedServer();
    const good = { url: "http://127.0.0.1:9/hook", events: ["offline"], format: "discord" };
    await expectError(await subscribe(token, serverUuid, { ...good, events: [] }), 400, "invalid_payload");
    await expectError(await subscribe(token, serverUuid, { ...good, events: ["exploded"] }), 400, "invalid_payload");
    await expectError(await subscribe(token, serverUuid, { ...good, format: "slack" }), 400, "invalid_payload");
    await expectError(await subscribe(token, serverUuid, { ...good, url: 42 }), 400, "invalid_payload");
    await expectError(await subscribe(token, serverUuid, { ...good, url: "not a url" }), 400, "refused_url");
    await expectError(await send({ path: "/api/server/webhooks", token, serverUuid, body: "{" }), 400, "invalid_json");
    await expectError(await send({ path: "/api/server/webhooks", token, serverUuid, body: good, signature: "0".repeat(64) }), 401, "bad_signature");
    // Another token's server, and a server never pushed, answer alike.
    const other = server.token("server");
    await expectError(await subscribe(other, serverUuid, good), 404, "unknown_server");
    await expectError(await subscribe(token, newUuid(), good), 404, "unknown_server");
    await expectError(await send({ method: "GET", path: "/api/server/webhooks", token: other, serverUuid }), 404, "unknown_server");
    expect(webhookRows()).toBe(0);

    for (let n = 0; n < 10; n++) expect((await subscribe(token, serverUuid, { ...good, url: `${good.url}/${n}` })).status).toBe(201);
    const message = await expectError(await subscribe(token, serverUuid, good), 403, "webhook_limit");
    expect(message).toContain("10");
    expect(webhookRows()).toBe(10);
  });

  test("a URL that is not https, or whose host is or resolves to a non-public address, is refused naming the rule", async () => {
    server = await startTestServer();
    const { token, serverUuid } = await pushedServer();
    const refusals: Array<[string, string]> = [
      ["http://example.com/hook", "https"],
      ["https://127.0.0.1/hook", "loopback"],
      ["https://[::1]/hook", "loopback"],
      ["https://10.1.2.3/hook", "private"],
      ["https://192.168.1.10/hook", "private"],
      ["https://169.254.169.254/latest", "link-local"],
      ["https://[fe80::1]/hook", "link-local"],
      ["https://[::ffff:10.0.0.1]/hook", "private"],
      // A name is refused by the rule alone, never by what it resolves to (webhook-refusals.test.ts).
      ["https://localhost/hook", "must resolve, and to public addresses only"],
      ["https://alerts.localhost/hook", "must resolve, and to public addresses only"],
      ["https://user:pass@example.com/hook", "user name or password"],
      ["ftp://example.com/hook", "https"],
    ];
    for (const [url, rule] of refusals) {
      const message = await expectError(await subscribe(token, serverUuid, { url, events: ["offline"], format: "json" }), 400, "refused_url");
      expect(`${url}: ${message}`).toContain(rule);
    }
    expect(webhookRows()).toBe(0);
  });
});

interface Received {
  headers: Headers;
  body: string;
}

/** A plain-HTTP receiver on loopback that keeps every request it gets and answers `answer` (204 by default). */
function startReceiver(answer = () => new Response(null, { status: 204 })): { url: string; received: Received[]; stop(): void } {
  const received: Received[] = [];
  const receiver = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      received.push({ headers: request.headers, body: await request.text() });
      return answer();
    },
  });
  return { url: `http://127.0.0.1:${receiver.port}/hook`, received, stop: () => receiver.stop(true) };
}

/** What a receiver does: the HMAC of timestamp + "." + body under the secret, compared in constant time. */
function verifies(secret: string, delivery: Received): boolean {
  const timestamp = delivery.headers.get("x-pennant-timestamp") ?? "";
  const expected = createHmac("sha256", secret).update(`${timestamp}.${delivery.body}`).digest();
  const given = Buffer.from(delivery.headers.get("x-pennant-signature") ?? "", "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Whether every attempt sent so far has been recorded: the clock may move only then, or a retry would be scheduled from the moved time. */
function attemptsSettled(): boolean {
  return (server.db.$client.query("select count(*) as n from webhook_deliveries where leased_until > 0").get() as { n: number }).n === 0;
}

async function until(condition: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await Bun.sleep(20);
  }
}

/** Long enough for several sweeps, so a second delivery of one event would have come. */
const SEVERAL_SWEEPS_MS = 400;

describe("deliveries", () => {
  test("a pushed server going stale sends one signed offline, its return one online", async () => {
    const receiver = startReceiver();
    try {
      server = await startTestServer({ PENNANT_WEBHOOK_PRIVATE: "on", PENNANT_STALE_AFTER: "60" }, { alertIntervalMs: 50 });
      const { token, serverUuid } = await pushedServer();
      const created = await subscribe(token, serverUuid, { url: receiver.url, events: ["offline", "online"], format: "json" });
      const { secret } = (await created.json()) as { secret: string };
      await Bun.sleep(SEVERAL_SWEEPS_MS);
      expect(receiver.received).toEqual([]);

      server.clock.now += 61_000;
      await until(() => receiver.received.length > 0);
      await Bun.sleep(SEVERAL_SWEEPS_MS);
      expect(receiver.received).toHaveLength(1);
      const [offline] = receiver.received;
      expect(verifies(secret, offline!)).toBe(true);
      expect(offline!.headers.get("x-pennant-timestamp")).toBe(String(Math.floor(server.clock.now / 1000)));
      expect(JSON.parse(offline!.body)).toEqual({
        event: "offline", server_uuid: serverUuid, name: "Lobby", status: "offline", players: { online: 7, max: 20 }, at: new Date(server.clock.now).toISOString(),
      });

      await send({ path: "/api/server/heartbeat", token, serverUuid, body: { status: "online" } });
      await until(() => receiver.received.length > 1);
      await Bun.sleep(SEVERAL_SWEEPS_MS);
      expect(receiver.received).toHaveLength(2);
      expect(verifies(secret, receiver.received[1]!)).toBe(true);
      expect(JSON.parse(receiver.received[1]!.body)).toMatchObject({ event: "online", status: "online" });
      // A forged delivery does not verify.
      expect(verifies("another secret", receiver.received[1]!)).toBe(false);

      const [listed] = (await (await send({ method: "GET", path: "/api/server/webhooks", token, serverUuid })).json()) as Array<Record<string, unknown>>;
      expect(listed).toMatchObject({ state: "active", last_status: 204, dropped: 0 });
    } finally {
      receiver.stop();
    }
  });

  test("a server pushing offline sends a Discord embed to a discord subscription; events not asked for send nothing", async () => {
    const receiver = startReceiver();
    try {
      server = await startTestServer({ PENNANT_WEBHOOK_PRIVATE: "on" }, { alertIntervalMs: 50 });
      const { token, serverUuid } = await pushedServer();
      await subscribe(token, serverUuid, { url: receiver.url, events: ["offline"], format: "discord" });
      await Bun.sleep(SEVERAL_SWEEPS_MS);
      await send({ path: "/api/server/heartbeat", token, serverUuid, body: { status: "offline" } });
      await until(() => receiver.received.length > 0);
      const body = JSON.parse(receiver.received[0]!.body);
      expect(body.embeds).toHaveLength(1);
      expect(body.embeds[0]).toMatchObject({ title: "Lobby is offline", fields: [{ name: "Status", value: "offline" }, { name: "Players", value: "7/20" }] });
      await send({ path: "/api/server/heartbeat", token, serverUuid, body: { status: "online" } });
      await Bun.sleep(SEVERAL_SWEEPS_MS);
      expect(receiver.received).toHaveLength(1);
    } finally {
      receiver.stop();
    }
  });
});

describe("grace", () => {
  test("offline waits the grace (120 s unless asked): a 10 s outage sends nothing, a 90 s one offline then online under a 60 s grace, nothing under 120 s", async () => {
    const graced = startReceiver();
    const byDefault = startReceiver();
    try {
      server = await startTestServer({ PENNANT_WEBHOOK_PRIVATE: "on" }, { alertIntervalMs: 30 });
      const { token, serverUuid } = await pushedServer();
      expect((await subscribe(token, serverUuid, { url: graced.url, events: ["offline", "online"], format: "json", grace_seconds: 60 })).status).toBe(201);
      const asked = { url: byDefault.url, events: ["offline", "online"], format: "json" };
      expect((await send({ path: "/api/server/webhooks", token, serverUuid, body: asked })).status).toBe(201);
      const rows = (await (await send({ method: "GET", path: "/api/server/webhooks", token, serverUuid })).json()) as Array<Record<string, unknown>>;
      expect(rows.map((row) => row.grace_seconds as number).sort((a, b) => a - b)).toEqual([60, 120]);
      /** A heartbeat saying `status`, once a sweep has seen it (the grace counts from then). */
      const heartbeat = async (status: string) => {
        expect((await send({ path: "/api/server/heartbeat", token, serverUuid, body: { status } })).status).toBe(200);
        await until(() => (server.db.$client.query("select state from webhook_states").get() as { state: string }).state === status);
      };
      /** Moves the clock by `seconds`, 5 s at a time, each step seen by several sweeps. */
      const wait = async (seconds: number) => {
        for (let left = seconds; left > 0; left -= 5) {
          server.clock.now += Math.min(5, left) * 1000;
          await Bun.sleep(60);
        }
      };
      await heartbeat("offline");
      await wait(10);
      await heartbeat("online");
      await wait(5);
      await Bun.sleep(SEVERAL_SWEEPS_MS);
      expect([graced.received, byDefault.received]).toEqual([[], []]);

      await heartbeat("offline");
      await wait(55);
      expect(graced.received).toEqual([]);
      await wait(5);
      await until(() => graced.received.length === 1);
      await wait(30);
      await heartbeat("online");
      await until(() => graced.received.length === 2);
      await Bun.sleep(SEVERAL_SWEEPS_MS);
      expect(graced.received.map((delivery) => JSON.parse(delivery.body).event)).toEqual(["offline", "online"]);
      expect(byDefault.received).toEqual([]);
    } finally {
      graced.stop();
      byDefault.stop();
    }
  });
});

describe("the address a delivery connects to", () => {
  test("is the one the name resolved to, the name kept in Host", async () => {
    const receiver = startReceiver();
    try {
      server = await startTestServer({ PENNANT_WEBHOOK_PRIVATE: "on" }, { alertIntervalMs: 30 });
      const { token, serverUuid } = await pushedServer();
      const byName = receiver.url.replace("127.0.0.1", "localhost");
      expect((await subscribe(token, serverUuid, { url: byName, events: ["offline"], format: "json" })).status).toBe(201);
      await Bun.sleep(SEVERAL_SWEEPS_MS);
      await send({ path: "/api/server/heartbeat", token, serverUuid, body: { status: "offline" } });
      await until(() => receiver.received.length === 1);
      expect(receiver.received[0]!.headers.get("host")).toBe(new URL(byName).host);
    } finally {
      receiver.stop();
    }
  });
});

describe("player records", () => {
  test("passing the most players seen sends one players_record; the same count or fewer sends nothing", async () => {
    const receiver = startReceiver();
    try {
      server = await startTestServer({ PENNANT_WEBHOOK_PRIVATE: "on" }, { alertIntervalMs: 30 });
      const { token, serverUuid } = await pushedServer();
      await subscribe(token, serverUuid, { url: receiver.url, events: ["players_record"], format: "json" });
      await Bun.sleep(SEVERAL_SWEEPS_MS);
      const players = (online: number) => send({ path: "/api/server/update", token, serverUuid, body: { stats: { players: { online, max: 20 } } } });
      await players(12);
      await until(() => receiver.received.length === 1);
      expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({ event: "players_record", status: "online", players: { online: 12, max: 20 } });
      await players(12);
      await Bun.sleep(SEVERAL_SWEEPS_MS);
      await players(11);
      await Bun.sleep(SEVERAL_SWEEPS_MS);
      expect(receiver.received).toHaveLength(1);
    } finally {
      receiver.stop();
    }
  });
});

describe("failing receivers", () => {
  test("a failed delivery is retried with backoff for an hour then dropped; a day of failures pauses the subscription", async () => {
    const receiver = startReceiver(() => new Response("down", { status: 500 }));
    try {
      server = await startTestServer({ PENNANT_WEBHOOK_PRIVATE: "on", PENNANT_STALE_AFTER: "60" }, { alertIntervalMs: 30 });
      const { token, serverUuid } = await pushedServer();
      await subscribe(token, serverUuid, { url: receiver.url, events: ["offline", "online"], format: "json" });
      const listed = async () =>
        ((await (await send({ method: "GET", path: "/api/server/webhooks", token, serverUuid })).json()) as Array<Record<string, unknown>>)[0];
      await Bun.sleep(SEVERAL_SWEEPS_MS);
      server.clock.now += 61_000;
      await until(() => receiver.received.length === 1 && attemptsSettled());
      expect(await listed()).toMatchObject({ state: "failing", last_status: 500, dropped: 0 });
      // Nothing before the first retry is due (30 s), then one try per wait, each twice the one before.
      await Bun.sleep(SEVERAL_SWEEPS_MS);
      expect(receiver.received).toHaveLength(1);
      // The last wait is cut to end at the hour after the event (31.5 minutes in, 28.5 to go).
      for (const waitSeconds of [30, 60, 120, 240, 480, 960, 1710]) {
        const before = receiver.received.length;
        server.clock.now += waitSeconds * 1000;
        await until(() => receiver.received.length === before + 1 && attemptsSettled());
      }
      server.clock.now += 60 * 60_000;
      await Bun.sleep(SEVERAL_SWEEPS_MS);
      expect(receiver.received).toHaveLength(8);
      expect(new Set(receiver.received.map((delivery) => delivery.body)).size).toBe(1);
      expect(await listed()).toMatchObject({ state: "failing", dropped: 1 });

      // A day after the first failure, the next failure pauses it: nothing more is queued or sent.
      server.clock.now += 24 * 60 * 60_000;
      await send({ path: "/api/server/heartbeat", token, serverUuid, body: { status: "online" } });
      await until(() => receiver.received.length === 9);
      await Bun.sleep(SEVERAL_SWEEPS_MS);
      expect(await listed()).toMatchObject({ state: "paused" });
      server.clock.now += 120_000;
      await Bun.sleep(SEVERAL_SWEEPS_MS);
      expect(receiver.received).toHaveLength(9);
    } finally {
      receiver.stop();
    }
  });

  test("a redirect is not followed: it is a failed delivery", async () => {
    const target = startReceiver();
    const redirecting = startReceiver(() => new Response(null, { status: 307, headers: { Location: target.url } }));
    try {
      server = await startTestServer({ PENNANT_WEBHOOK_PRIVATE: "on" }, { alertIntervalMs: 30 });
      const { token, serverUuid } = await pushedServer();
      await subscribe(token, serverUuid, { url: redirecting.url, events: ["offline"], format: "json" });
      await Bun.sleep(SEVERAL_SWEEPS_MS);
      await send({ path: "/api/server/heartbeat", token, serverUuid, body: { status: "offline" } });
      await until(() => redirecting.received.length === 1);
      await Bun.sleep(SEVERAL_SWEEPS_MS);
      expect(target.received).toEqual([]);
      const [listed] = (await (await send({ method: "GET", path: "/api/server/webhooks", token, serverUuid })).json()) as Array<Record<string, unknown>>;
      expect(listed).toMatchObject({ state: "failing", last_status: 307 });
    } finally {
      target.stop();
      redirecting.stop();
    }
  });
});
