// POST /api/server/webhooks/{id}/test over real HTTP, to a real local
// receiver: one `test` event in the subscription's format, signed with its
// secret, and the receiver's status in the answer; only the server's own
// token; bounded per token, per minute and in flight.

import { afterEach, describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { TEST_RATE_LIMIT } from "../../src/http/webhook-test-route.ts";
import { track } from "../support/cleanup.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { newUuid, signedRequest, type SignedCall } from "../support/signing.ts";

let server: TestServer;
afterEach(async () => {
  await server?.close();
});

function send(call: SignedCall): Promise<Response> {
  return fetch(signedRequest(server.url, call, server.clock.now));
}

interface Received {
  headers: Headers;
  body: string;
}

/** A receiver on loopback answering `status`, after `hold` resolves when given. */
function receiver(status: number, hold?: Promise<void>): { url: string; received: Received[] } {
  const received: Received[] = [];
  const listening = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: async (request) => {
      received.push({ headers: request.headers, body: await request.text() });
      await hold;
      return new Response("not read", { status });
    },
  });
  track(() => listening.stop(true));
  return { url: `http://127.0.0.1:${listening.port}/hook`, received };
}

/** A token, its server and a subscription of it to `url` in `format`. */
async function subscribed(url: string, format = "json"): Promise<{ token: string; serverUuid: string; id: string; secret: string }> {
  const token = server.token("server");
  const serverUuid = newUuid();
  expect((await send({ path: "/api/server/update", token, serverUuid, body: { name: "Lobby", status: "online", stats: { players: { online: 7, max: 20 } } } })).status).toBe(200);
  const body = format === "discord-live" ? { url, format } : { url, format, events: ["offline"] };
  const created = await send({ path: "/api/server/webhooks", token, serverUuid, body });
  expect(created.status).toBe(201);
  return { token, serverUuid, ...((await created.json()) as { id: string; secret: string }) };
}

const tested = (token: string, serverUuid: string, id: string, more: Partial<SignedCall> = {}) =>
  send({ path: `/api/server/webhooks/${id}/test`, token, serverUuid, body: {}, ...more });

describe("a test delivery", () => {
  test("sends one signed test event in the subscription's format and answers the receiver's status", async () => {
    server = await startTestServer({ PENNANT_WEBHOOK_PRIVATE: "on" });
    const { url, received } = receiver(418);
    const { token, serverUuid, id, secret } = await subscribed(url);
    const response = await tested(token, serverUuid, id);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ message: "The receiver answered 418.", status: 418, delivered: false });
    expect(received).toHaveLength(1);
    const [delivery] = received;
    expect(JSON.parse(delivery!.body)).toEqual({
      event: "test", server_uuid: serverUuid, name: "Lobby", status: "online", players: { online: 7, max: 20 }, at: new Date(server.clock.now).toISOString(),
    });
    const timestamp = delivery!.headers.get("x-pennant-timestamp");
    expect(delivery!.headers.get("x-pennant-signature")).toBe(createHmac("sha256", secret).update(`${timestamp}.${delivery!.body}`).digest("hex"));
    // Nothing kept changes: the subscription's last answer is its deliveries', not the test's.
    const listed = (await (await send({ method: "GET", path: "/api/server/webhooks", token, serverUuid })).json()) as Array<{ last_status: number | null }>;
    expect(listed[0]!.last_status).toBeNull();

    // discord: an embed saying it is a test.
    const discord = receiver(204);
    const other = await subscribed(discord.url, "discord");
    expect(await (await tested(other.token, other.serverUuid, other.id)).json()).toEqual({ message: "The receiver answered 204.", status: 204, delivered: true });
    expect(JSON.parse(discord.received[0]!.body).embeds[0].title).toBe("Lobby: a test delivery from Pennant");
  });

  test("no answer is status 0; another token's server reads as unknown, an unknown id as such", async () => {
    server = await startTestServer({ PENNANT_WEBHOOK_PRIVATE: "on" });
    const closed = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
    const url = `http://127.0.0.1:${closed.port}/hook`;
    closed.stop(true);
    const { token, serverUuid, id } = await subscribed(url);
    const response = await tested(token, serverUuid, id);
    expect((await response.json()) as object).toMatchObject({ status: 0, delivered: false });

    const stranger = server.token("server");
    const others = await tested(stranger, serverUuid, id);
    const nobodys = await tested(stranger, newUuid(), id);
    expect([others.status, nobodys.status]).toEqual([404, 404]);
    expect(await others.json()).toEqual(await nobodys.json());
    const unknown = await tested(token, serverUuid, newUuid());
    expect([unknown.status, ((await unknown.json()) as { error: { code: string } }).error.code]).toEqual([404, "unknown_webhook"]);
    expect((await tested(token, serverUuid, id, { scheme: "standard" })).status).toBe(401);
  });

  test(`at most ${TEST_RATE_LIMIT.count} a minute per token, and 2 at once: a receiver that holds its answers holds no more`, async () => {
    server = await startTestServer({ PENNANT_WEBHOOK_PRIVATE: "on" });
    let release!: () => void;
    const held = receiver(200, new Promise((resolve) => (release = resolve)));
    const { token, serverUuid, id } = await subscribed(held.url);
    const first = [tested(token, serverUuid, id), tested(token, serverUuid, id, { body: { n: 2 } })];
    while (held.received.length < 2) await Bun.sleep(10);
    const third = await tested(token, serverUuid, id, { body: { n: 3 } });
    expect(third.status).toBe(429);
    release();
    expect((await Promise.all(first)).map((response) => response.status)).toEqual([200, 200]);
    // Three taken of the minute's budget (the refused one too); the rest go through, then 429.
    for (let n = 3; n < TEST_RATE_LIMIT.count; n++) expect((await tested(token, serverUuid, id, { body: { n: n + 10 } })).status).toBe(200);
    const over = await tested(token, serverUuid, id, { body: { n: 99 } });
    expect(over.status).toBe(429);
    expect(over.headers.get("retry-after")).not.toBeNull();
    expect(held.received).toHaveLength(TEST_RATE_LIMIT.count - 1);
    // Another token's budget is its own.
    const other = await subscribed(held.url);
    expect((await tested(other.token, other.serverUuid, other.id)).status).toBe(200);
  });
});
