// The replay guard of pushes. A push's token, X-Timestamp instant and
// signature are accepted once: never again on another route, for another
// server or plugin UUID, under either signature scheme. The same request sent
// again to the same route and UUID with the same body (an exact duplicate) is
// answered as the first was, marked X-Duplicate, and changes nothing.
// Requests here are signed as the plugins sign, over timestamp and body
// (scheme "standard"), whose signature names no route: the replay guard is
// what keeps it to one. A signature over method and path is refused on any
// other route before the guard (cross-route-replay.test.ts).

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { pluginDataBody, pluginDataPush, pluginUpdate, pluginUpdateBody, sendPluginUpdate } from "../support/ezbanners-client.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { hmacHex, json, newUuid, signedRequest } from "../support/signing.ts";

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

interface Captured {
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** Sends a signed request and returns it as captured on the wire, for resending. */
async function sendAndCapture(request: Request): Promise<Captured> {
  const captured = {
    path: new URL(request.url).pathname,
    headers: Object.fromEntries(request.headers.entries()),
    body: await request.clone().text(),
  };
  expect((await fetch(request)).status).toBe(200);
  return captured;
}

function resend(captured: Captured, path = captured.path, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(server.url + path, { method: "POST", headers: { ...captured.headers, ...headers }, body: captured.body });
}

function usedSignatures(): number {
  return (server.db.$client.query("select count(*) as n from used_signatures").get() as { n: number }).n;
}

async function expectReplayed(response: Response): Promise<void> {
  expect(response.status).toBe(401);
  expect(response.headers.get("x-duplicate")).toBeNull();
  expect((await json(response)).error.code).toBe("replayed_request");
}

/** An exact duplicate: 200, the first answer's body, marked X-Duplicate. */
async function expectDuplicate(response: Response, firstAnswer: unknown): Promise<void> {
  expect(response.status).toBe(200);
  expect(response.headers.get("x-duplicate")).toBe("true");
  expect(await json(response)).toEqual(firstAnswer);
}

const pluginPath = (uuid: string) => `/api/plugins/${uuid}/data`;

describe("a signature is accepted once, whatever route or UUID it is sent to", () => {
  /** A heartbeat accepted for a server, by a token of scope "all" (it may push both kinds). */
  async function acceptedHeartbeat() {
    const token = server.token("all");
    const uuid = newUuid();
    const heartbeat = await sendAndCapture(signedRequest(server.url, { scheme: "standard", path: "/api/server/heartbeat", token, serverUuid: uuid, body: { name: "A", status: "online" } }, server.clock.now));
    const before = (await server.store.servers.get(uuid))!;
    server.clock.now += 1000;
    return { token, uuid, heartbeat, before };
  }

  test("a heartbeat's bytes sent as an update are refused: no history sample, no stats time", async () => {
    const { uuid, heartbeat, before } = await acceptedHeartbeat();
    await expectReplayed(await resend(heartbeat, "/api/server/update"));
    expect(await server.store.servers.samples(uuid, 0)).toHaveLength(0);
    expect(await server.store.servers.get(uuid)).toEqual(before);
  });

  test("a heartbeat's bytes sent for another server UUID are refused: no record is created", async () => {
    const { heartbeat } = await acceptedHeartbeat();
    const other = newUuid();
    await expectReplayed(await resend(heartbeat, heartbeat.path, { "x-server-uuid": other }));
    await expectReplayed(await resend(heartbeat, "/api/server/update", { "x-server-uuid": other }));
    expect(await server.store.servers.get(other)).toBeUndefined();
  });

  test("a heartbeat's bytes sent as plugin data with X-Plugin-Token are refused: no plugin is created", async () => {
    const { token, heartbeat } = await acceptedHeartbeat();
    const plugin = newUuid();
    const { "x-server-token": _, "x-server-uuid": __, ...signature } = heartbeat.headers;
    const response = await fetch(server.url + pluginPath(plugin), { method: "POST", headers: { ...signature, "X-Plugin-Token": token }, body: heartbeat.body });
    await expectReplayed(response);
    expect(await server.store.plugins.get(plugin)).toBeUndefined();
    expect(usedSignatures()).toBe(1);
  });

  test("a plugin push's bytes are refused for another plugin UUID and at the server endpoints", async () => {
    const token = server.token("all");
    const uuid = newUuid();
    const body = pluginDataBody(3, newUuid());
    const first = await sendAndCapture(signedRequest(server.url, { scheme: "standard", path: pluginPath(uuid), token, tokenHeader: "X-Plugin-Token", body }, server.clock.now));
    const other = newUuid();
    await expectReplayed(await resend(first, pluginPath(other)));
    const asServer = { "X-Server-Token": token, "X-Server-UUID": other };
    await expectReplayed(await resend(first, "/api/server/heartbeat", asServer));
    await expectReplayed(await resend(first, "/api/server/update", asServer));
    expect(await server.store.plugins.get(other)).toBeUndefined();
    expect(await server.store.servers.get(other)).toBeUndefined();
  });

  test("the plugin's legacy update (body-only signature) is refused for another server UUID", async () => {
    const token = server.token("server");
    const update = pluginUpdate(server.url, token, newUuid(), pluginUpdateBody({ onlinePlayers: 3 }), server.clock.now);
    expect((await sendPluginUpdate(update)).status).toBe(200);
    const other = newUuid();
    await expectReplayed(await sendPluginUpdate(update, { headers: { "X-Server-UUID": other, "X-Server-Id": other } }));
    expect(await server.store.servers.get(other)).toBeUndefined();
  });

  test("a changed body under the same signature is not a duplicate: it fails the signature", async () => {
    const token = server.token("server");
    const update = pluginUpdate(server.url, token, newUuid(), pluginUpdateBody({ onlinePlayers: 3 }), server.clock.now);
    expect((await sendPluginUpdate(update)).status).toBe(200);
    const changed = await fetch(update.url, { method: "POST", headers: update.headers, body: pluginUpdateBody({ onlinePlayers: 4 }) });
    expect(changed.status).toBe(401);
    expect((await json(changed)).error.code).toBe("bad_signature");
  });
});

describe("an exact duplicate is answered as the first push and changes nothing", () => {
  test("the EzBanners plugin's data pushed twice in one second: byte-identical, both 200, applied once", async () => {
    const token = server.token("plugin");
    const uuid = newUuid();
    const body = pluginDataBody(3, newUuid());
    const first = pluginDataPush(server.url, token, uuid, body, server.clock.now);
    // Its timestamp is in seconds: a second push in the same second is the same bytes.
    expect(pluginDataPush(server.url, token, uuid, body, server.clock.now - (server.clock.now % 1000) + 999)).toEqual(first);

    const accepted = await sendPluginUpdate(first);
    expect(accepted.status).toBe(200);
    expect(accepted.headers.get("x-duplicate")).toBeNull();
    const answer = await json(accepted);
    const before = (await server.store.plugins.get(uuid))!;
    const tokenBefore = server.db.$client.query("select last_used_at from tokens").get();

    server.clock.now += 400;
    await expectDuplicate(await sendPluginUpdate(first), answer);
    expect(await server.store.plugins.get(uuid)).toEqual(before);
    expect(server.db.$client.query("select last_used_at from tokens").get()).toEqual(tokenBefore);
    expect(usedSignatures()).toBe(1);
  });

  test("the plugin's legacy update sent again, however its timestamp and signature are spelled: one sample", async () => {
    const token = server.token("server");
    const uuid = newUuid();
    const update = pluginUpdate(server.url, token, uuid, pluginUpdateBody({ onlinePlayers: 3 }), server.clock.now);
    const answer = await json(await sendPluginUpdate(update));
    const before = (await server.store.servers.get(uuid))!;

    server.clock.now += 2000;
    const again = [
      sendPluginUpdate(update),
      // The same instant spelled with a leading zero, the signature in upper case, the UUID in upper case.
      sendPluginUpdate(update, { headers: { "X-Timestamp": `0${update.headers["X-Timestamp"]}` } }),
      sendPluginUpdate(update, { headers: { "X-Signature": update.headers["X-Signature"]!.toUpperCase() } }),
      sendPluginUpdate(update, { headers: { "X-Server-UUID": uuid.toUpperCase(), "X-Server-Id": uuid.toUpperCase() } }),
    ];
    for (const response of await Promise.all(again)) await expectDuplicate(response, answer);
    expect(await server.store.servers.samples(uuid, 0)).toHaveLength(1);
    expect(await server.store.servers.get(uuid)).toEqual(before);
  });

  test("a duplicate arriving after a newer push changes nothing: the newer data stays", async () => {
    const token = server.token("server");
    const uuid = newUuid();
    const older = pluginUpdate(server.url, token, uuid, pluginUpdateBody({ onlinePlayers: 3 }), server.clock.now);
    const answer = await json(await sendPluginUpdate(older));
    server.clock.now += 60_000; // the next minute, so each update keeps its own history sample
    const newer = pluginUpdate(server.url, token, uuid, pluginUpdateBody({ onlinePlayers: 4 }), server.clock.now);
    expect((await sendPluginUpdate(newer)).status).toBe(200);
    const after = (await server.store.servers.get(uuid))!;

    server.clock.now += 1000;
    await expectDuplicate(await sendPluginUpdate(older), answer);
    expect(await server.store.servers.get(uuid)).toEqual(after);
    expect(after.playersOnline).toBe(4);
    expect((await server.store.servers.samples(uuid, 0)).map((sample) => sample.playersOnline)).toEqual([3, 4]);
  });

  test("two identical pushes at once: both 200 with the same answer, one marked, applied once", async () => {
    const token = server.token("server");
    const uuid = newUuid();
    const update = pluginUpdate(server.url, token, uuid, pluginUpdateBody({ onlinePlayers: 3 }), server.clock.now);
    const responses = await Promise.all([sendPluginUpdate(update), sendPluginUpdate(update)]);
    expect(responses.map((response) => response.status)).toEqual([200, 200]);
    expect(responses.map((response) => response.headers.get("x-duplicate")).sort()).toEqual(["true", null].sort());
    const [a, b] = await Promise.all(responses.map(json));
    expect(a).toEqual(b);
    expect(await server.store.servers.samples(uuid, 0)).toHaveLength(1);
    expect(usedSignatures()).toBe(1);
  });

  test("two identical first pushes of a self-registered token at once: one token, one server", async () => {
    await server.close();
    server = await startTestServer({ PENNANT_REGISTRATION: "open" });
    const token = "self-chosen-token-0123456789";
    const uuid = newUuid();
    const heartbeat = () => signedRequest(server.url, { scheme: "standard", path: "/api/server/heartbeat", token, serverUuid: uuid, body: { name: "New" } }, server.clock.now);
    const responses = await Promise.all([fetch(heartbeat()), fetch(heartbeat())]);
    expect(responses.map((response) => response.status)).toEqual([200, 200]);
    expect(responses.filter((response) => response.headers.get("x-duplicate") === "true")).toHaveLength(1);
    const count = (table: string) => (server.db.$client.query(`select count(*) as n from ${table}`).get() as { n: number }).n;
    expect([count("tokens"), count("servers"), count("used_signatures")]).toEqual([1, 1, 1]);
  });

  test("a heartbeat sent again does not move last_seen", async () => {
    const token = server.token("server");
    const uuid = newUuid();
    const heartbeat = await sendAndCapture(signedRequest(server.url, { scheme: "standard", path: "/api/server/heartbeat", token, serverUuid: uuid, body: { status: "online" } }, server.clock.now));
    const before = (await server.store.servers.get(uuid))!;
    server.clock.now += 5000;
    await expectDuplicate(await resend(heartbeat), { message: "Heartbeat received." });
    expect(await server.store.servers.get(uuid)).toEqual(before);
  });

  test("the same UUID spelled otherwise is the same push: X-Server-UUID in upper case, X-Server-Id, a plugin UUID in upper case", async () => {
    const token = server.token("all");
    const uuid = newUuid();
    const heartbeat = await sendAndCapture(signedRequest(server.url, { scheme: "standard", path: "/api/server/heartbeat", token, serverUuid: uuid, body: { name: "A" } }, server.clock.now));
    const { "x-server-uuid": _, ...withoutUuid } = heartbeat.headers;
    server.clock.now += 1000;
    await expectDuplicate(await resend(heartbeat, heartbeat.path, { "x-server-uuid": uuid.toUpperCase() }), { message: "Heartbeat received." });
    await expectDuplicate(
      await fetch(server.url + heartbeat.path, { method: "POST", headers: { ...withoutUuid, "X-Server-Id": uuid }, body: heartbeat.body }),
      { message: "Heartbeat received." },
    );

    const plugin = newUuid();
    const data = await sendAndCapture(signedRequest(server.url, { scheme: "standard", path: pluginPath(plugin), token, tokenHeader: "X-Plugin-Token", body: { stats: { shops: 1 } } }, server.clock.now));
    const before = (await server.store.plugins.get(plugin))!;
    server.clock.now += 1000;
    await expectDuplicate(await resend(data, pluginPath(plugin.toUpperCase())), { message: "Plugin data updated." });
    expect(await server.store.plugins.get(plugin)).toEqual(before);
  });

  test("a push refused the first time is refused again: a refusal is not remembered", async () => {
    const owner = server.token("server");
    const intruder = server.token("server");
    const uuid = newUuid();
    expect((await fetch(signedRequest(server.url, { scheme: "standard", path: "/api/server/heartbeat", token: owner, serverUuid: uuid }, server.clock.now))).status).toBe(200);
    const refused = () => signedRequest(server.url, { scheme: "standard", path: "/api/server/heartbeat", token: intruder, serverUuid: uuid, body: { name: "Taken" } }, server.clock.now);
    for (const response of [await fetch(refused()), await fetch(refused())]) {
      expect(response.status).toBe(403);
      expect((await json(response)).error.code).toBe("not_owner");
    }
    expect((await server.store.servers.get(uuid))?.name).toBeNull();
  });
});

describe("resends to another spelling of a route", () => {
  test("the plugin's update resent to /api/server/update/ is a 404 and writes nothing", async () => {
    const token = server.token("server");
    const uuid = newUuid();
    const update = pluginUpdate(server.url, token, uuid, pluginUpdateBody({ onlinePlayers: 3 }), server.clock.now);
    expect((await sendPluginUpdate(update)).status).toBe(200);

    const slash = await sendPluginUpdate(update, { url: `${server.url}/api/server/update/` });
    expect(slash.status).toBe(404);
    expect((await json(slash)).error.code).toBe("not_found");
    expect(await server.store.servers.samples(uuid, 0)).toHaveLength(1);
    expect(usedSignatures()).toBe(1);
  });

  test("a fresh update to /api/server/update/ is a 404 too: one spelling per route", async () => {
    const token = server.token("server");
    const uuid = newUuid();
    const update = pluginUpdate(server.url, token, uuid, pluginUpdateBody({ onlinePlayers: 3 }), server.clock.now, "/api/server/update/");
    expect((await sendPluginUpdate(update)).status).toBe(404);
    expect(await server.store.servers.samples(uuid, 0)).toHaveLength(0);
  });

  test("a new plugin push with its UUID in upper case names the same plugin", async () => {
    const token = server.token("plugin");
    const uuid = newUuid();
    const upper = signedRequest(server.url, { scheme: "standard", path: pluginPath(uuid.toUpperCase()), token, tokenHeader: "X-Plugin-Token", body: { plugin: { name: "P" } } }, server.clock.now);
    expect((await fetch(upper)).status).toBe(200);
    expect((await server.store.plugins.get(uuid))?.name).toBe("P");
  });

  test("a plugin push resent to .../data/ is a 404 and writes nothing", async () => {
    const token = server.token("plugin");
    const uuid = newUuid();
    const first = await sendAndCapture(
      signedRequest(server.url, { scheme: "standard", path: pluginPath(uuid), token, tokenHeader: "X-Plugin-Token", body: { stats: { shops: 1 } } }, server.clock.now),
    );
    const before = (await server.store.plugins.get(uuid))!;
    server.clock.now += 1000;

    const slash = await resend(first, `${pluginPath(uuid)}/`);
    expect(slash.status).toBe(404);
    expect(await server.store.plugins.get(uuid)).toEqual(before);
    expect(usedSignatures()).toBe(1);
  });
});

describe("how long a push is remembered", () => {
  test("sent again 2 s later it is a duplicate, and elsewhere a replay; after the window it is refused as stale", async () => {
    const token = server.token();
    const uuid = newUuid();
    const first = await sendAndCapture(signedRequest(server.url, { scheme: "standard", path: "/api/server/update", token, serverUuid: uuid, body: { stats: { players: { online: 1, max: 2 } } } }, server.clock.now));

    server.clock.now += 2000;
    await expectDuplicate(await resend(first), { message: "Server data updated." });
    await expectReplayed(await resend(first, first.path, { "x-server-uuid": newUuid() }));

    server.clock.now += 299_000; // 301 s after the timestamp: outside the 300 s window
    const stale = await resend(first);
    expect(stale.status).toBe(401);
    expect((await json(stale)).error.code).toBe("stale_timestamp");
    expect(await server.store.servers.samples(uuid, 0)).toHaveLength(1);
  });

  test("a push timestamped at the far edge of the window is remembered until that timestamp leaves it", async () => {
    const token = server.token();
    const uuid = newUuid();
    const future = Math.floor(server.clock.now / 1000) + 300;
    const first = await sendAndCapture(signedRequest(server.url, { scheme: "standard", path: "/api/server/heartbeat", token, serverUuid: uuid, timestamp: future }, server.clock.now));
    server.clock.now += 550_000; // 250 s after the timestamp
    await expectReplayed(await resend(first, first.path, { "x-server-uuid": newUuid() }));
  });
});

describe("signatures are compared whole", () => {
  test("a signature equal in its first 16 bytes but not after is refused", async () => {
    const token = server.token();
    const ts = String(Math.floor(server.clock.now / 1000));
    const body = JSON.stringify({ name: "Prefix" });
    const good = hmacHex(token, `${ts}.${body}`);
    for (const position of [32, 40, 63]) {
      // Change one hex digit at or after byte 16, keeping the first 16 bytes.
      const digit = good[position] === "0" ? "1" : "0";
      const signature = good.slice(0, position) + digit + good.slice(position + 1);
      const response = await fetch(signedRequest(server.url, { scheme: "standard", path: "/api/server/heartbeat", token, serverUuid: newUuid(), body, timestamp: ts, signature }, server.clock.now));
      expect(response.status).toBe(401);
      expect((await json(response)).error.code).toBe("bad_signature");
    }
    const legacy = pluginUpdate(server.url, token, newUuid(), pluginUpdateBody({ onlinePlayers: 1 }), server.clock.now);
    const legacySignature = legacy.headers["X-Signature"]!;
    const tampered = legacySignature.slice(0, 63) + (legacySignature[63] === "0" ? "1" : "0");
    const response = await sendPluginUpdate(legacy, { headers: { "X-Signature": tampered } });
    expect((await json(response)).error.code).toBe("bad_signature");
    expect(usedSignatures()).toBe(0);
  });
});
