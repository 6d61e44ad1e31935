// Networks through the signed API, from outside: PUT names or replaces, DELETE
// removes, both accepted once; servers and slugs of another token are refused
// with nothing stored.

import { afterEach, expect, test } from "bun:test";
import { MAX_NETWORKS_PER_TOKEN } from "../../src/store/network-records.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { newUuid, signedRequest, type SignedCall } from "../support/signing.ts";

let server: TestServer;
afterEach(async () => {
  await server?.close();
});

function send(call: SignedCall): Promise<Response> {
  return fetch(signedRequest(server.url, call, server.clock.now));
}

/** A token and servers it pushed. */
async function tokenWithServers(count: number): Promise<{ token: string; uuids: string[] }> {
  const token = server.token("server");
  const uuids: string[] = [];
  for (let i = 0; i < count; i++) {
    const uuid = newUuid();
    const pushed = await send({ path: "/api/server/update", token, serverUuid: uuid, body: { name: `S${i}`, status: "online", stats: { players: { online: i, max: 20 } } } });
    expect(pushed.status).toBe(200);
    uuids.push(uuid);
  }
  return { token, uuids };
}

const put = (token: string, slug: string, body: unknown, more: Partial<SignedCall> = {}) =>
  send({ method: "PUT", path: `/api/networks/${slug}`, token, body: body as object, ...more });
const remove = (token: string, slug: string, more: Partial<SignedCall> = {}) => send({ method: "DELETE", path: `/api/networks/${slug}`, token, ...more });

async function expectError(response: Response, status: number, code: string): Promise<string> {
  expect(response.status).toBe(status);
  const body = (await response.json()) as { error: { code: string; message: string } };
  expect(body.error.code).toBe(code);
  return body.error.message;
}

const rows = (table: string) => (server.db.$client.query(`select count(*) as n from ${table}`).get() as { n: number }).n;
const stored = (slug: string) => server.db.$client.query("select name from networks where slug = ?").get(slug) as { name: string } | null;

test("PUT names a network and replaces it; an exact resend is answered alike and, even after a later PUT, changes nothing; DELETE removes once", async () => {
  server = await startTestServer();
  const { token, uuids } = await tokenWithServers(3);
  const timestamp = Math.floor(server.clock.now / 1000);
  const first = { name: "  My Network ", servers: [uuids[0]!.toUpperCase(), uuids[1], uuids[0]] };
  const saved = await put(token, "My-Net", first, { timestamp });
  expect(saved.status).toBe(200);
  expect(await saved.json()).toEqual({ message: "Network saved.", slug: "my-net", servers: 2 });
  expect(stored("my-net")).toEqual({ name: "My Network" });

  server.clock.now += 1000;
  expect((await put(token, "my-net", { name: "Renamed", servers: [uuids[2]] })).status).toBe(200);
  const resent = await put(token, "My-Net", first, { timestamp });
  expect(resent.status).toBe(200);
  expect(resent.headers.get("x-duplicate")).toBe("true");
  expect(await resent.json()).toEqual({ message: "Network saved.", slug: "my-net", servers: 2 });
  expect(stored("my-net")).toEqual({ name: "Renamed" });
  expect(rows("network_members")).toBe(1);

  const removal = Math.floor(server.clock.now / 1000);
  const removed = await remove(token, "my-net", { timestamp: removal });
  expect(removed.status).toBe(200);
  expect(await removed.json()).toEqual({ message: "Network removed." });
  expect(rows("networks")).toBe(0);
  server.clock.now += 1000;
  await expectError(await remove(token, "my-net"), 404, "unknown_network");
  // Named again, the slug is not removed by the first DELETE resent.
  server.clock.now += 1000;
  await put(token, "my-net", { name: "Back", servers: [uuids[0]] });
  expect((await remove(token, "my-net", { timestamp: removal })).headers.get("x-duplicate")).toBe("true");
  expect(stored("my-net")).toEqual({ name: "Back" });
});

test("servers and slugs of another token are refused and nothing is stored; bad requests are 4xx with a JSON error", async () => {
  server = await startTestServer();
  const mine = await tokenWithServers(2);
  const theirs = await tokenWithServers(1);
  const message = await expectError(await put(mine.token, "net", { name: "Net", servers: [mine.uuids[0], theirs.uuids[0]] }), 403, "not_owner");
  expect(message).toContain(theirs.uuids[0]!);
  expect(rows("networks") + rows("network_members")).toBe(0);
  const never = newUuid();
  expect(await expectError(await put(mine.token, "net", { name: "Net", servers: [never] }), 404, "unknown_server")).toContain(never);
  expect(rows("networks")).toBe(0);

  expect((await put(theirs.token, "net", { name: "Theirs", servers: theirs.uuids })).status).toBe(200);
  await expectError(await put(mine.token, "net", { name: "Mine", servers: mine.uuids }), 403, "not_owner");
  await expectError(await remove(mine.token, "net"), 403, "not_owner");
  expect(stored("net")).toEqual({ name: "Theirs" });

  const good = { name: "Net", servers: mine.uuids };
  for (const slug of ["-net", "net-", "a".repeat(41), "n_t", "n%20t"]) await expectError(await put(mine.token, slug, good), 400, "invalid_slug");
  for (const body of [[], { name: "", servers: mine.uuids }, { name: "Net", servers: [] }, { name: "Net", servers: ["nope"] }, { name: 3, servers: mine.uuids }]) {
    await expectError(await put(mine.token, "mine", body), 400, "invalid_payload");
  }
  await expectError(await put(mine.token, "mine", { name: "Net", servers: Array.from({ length: 101 }, newUuid) }), 400, "invalid_payload");
  await expectError(await put(mine.token, "mine", "{"), 400, "invalid_json");
  await expectError(await put(mine.token, "mine", good, { signature: "0".repeat(64) }), 401, "bad_signature");
  await expectError(await put("pennant_unknown_token_000000000000000000", "mine", good), 401, "unknown_token");
  await expectError(await put(mine.token, "mine", good, { headers: { "Content-Type": "text/plain" } }), 415, "unsupported_media_type");
  expect(rows("networks")).toBe(1);

  // The signature of one request is not taken for another: the slug is signed with the method.
  const timestamp = Math.floor(server.clock.now / 1000);
  const first = signedRequest(server.url, { method: "PUT", path: "/api/networks/mine", token: mine.token, body: good, timestamp }, server.clock.now);
  const signature = first.headers.get("x-signature")!;
  expect((await fetch(first)).status).toBe(200);
  await expectError(await put(mine.token, "other", good, { timestamp, signature }), 401, "bad_signature");
  await expectError(await remove(mine.token, "mine", { timestamp, signature }), 401, "bad_signature");
  await expectError(await remove(mine.token, "mine", { timestamp, signature: "0".repeat(64) }), 401, "bad_signature");
  expect(rows("networks")).toBe(2);
});

test("a name longer than 64 characters is cut to them and said so", async () => {
  server = await startTestServer();
  const { token, uuids } = await tokenWithServers(1);
  const saved = await put(token, "long", { name: "N".repeat(70), servers: uuids });
  expect(saved.status).toBe(200);
  expect(await saved.json()).toEqual({ message: "Network saved.", slug: "long", servers: 1, trimmed: ["name"] });
  expect(stored("long")).toEqual({ name: "N".repeat(64) });
});

test("a token at its most networks is refused a new slug with 403 network_limit, nothing stored; it may still replace one", async () => {
  server = await startTestServer();
  const { token, uuids } = await tokenWithServers(1);
  for (let n = 0; n < MAX_NETWORKS_PER_TOKEN; n++) {
    server.clock.now += 1_000;
    expect((await put(token, `net-${n}`, { name: `Net ${n}`, servers: uuids })).status).toBe(200);
  }
  server.clock.now += 1_000;
  const message = await expectError(await put(token, "one-more", { name: "One more", servers: uuids }), 403, "network_limit");
  expect(message).toContain(`${MAX_NETWORKS_PER_TOKEN} networks`);
  expect(stored("one-more")).toBeNull();
  expect(rows("networks")).toBe(MAX_NETWORKS_PER_TOKEN);
  server.clock.now += 1_000;
  expect((await put(token, "net-0", { name: "Renamed", servers: uuids })).status).toBe(200);
  expect(stored("net-0")).toEqual({ name: "Renamed" });
});
