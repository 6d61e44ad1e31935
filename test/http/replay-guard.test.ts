// The replay guard of pushes: an accepted request is refused when sent again,
// however its route and subject are spelled, for as long as its timestamp
// passes the clock window; a different signature is never taken for it.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { getPlugin } from "../../src/store/plugins.ts";
import { listSamples } from "../../src/store/servers.ts";
import { pluginUpdate, pluginUpdateBody, sendPluginUpdate } from "../support/ezbanners-client.ts";
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

describe("resends are refused however they are spelled", () => {
  test("the plugin's update resent to /api/server/update/ is a 404 and writes nothing", async () => {
    const token = server.token("server");
    const uuid = newUuid();
    const update = pluginUpdate(server.url, token, uuid, pluginUpdateBody({ onlinePlayers: 3 }), server.clock.now);
    expect((await sendPluginUpdate(update)).status).toBe(200);

    const slash = await sendPluginUpdate(update, { url: `${server.url}/api/server/update/` });
    expect(slash.status).toBe(404);
    expect((await json(slash)).error.code).toBe("not_found");
    expect(listSamples(server.db, uuid, 0)).toHaveLength(1);
    expect(usedSignatures()).toBe(1);
  });

  test("a fresh update to /api/server/update/ is a 404 too: one spelling per route", async () => {
    const token = server.token("server");
    const uuid = newUuid();
    const update = pluginUpdate(server.url, token, uuid, pluginUpdateBody({ onlinePlayers: 3 }), server.clock.now, "/api/server/update/");
    expect((await sendPluginUpdate(update)).status).toBe(404);
    expect(listSamples(server.db, uuid, 0)).toHaveLength(0);
  });

  test("a plugin push resent with its UUID in upper case is refused as a replay", async () => {
    const token = server.token("plugin");
    const uuid = newUuid();
    const body = { plugin: { name: "EzShops", version: "1.0" }, stats: { shops: 1 } };
    const first = await sendAndCapture(
      signedRequest(server.url, { path: `/api/plugins/${uuid}/data`, token, tokenHeader: "X-Plugin-Token", body }, server.clock.now),
    );
    const before = getPlugin(server.db, uuid)!;
    server.clock.now += 1000;

    const upper = await resend(first, `/api/plugins/${uuid.toUpperCase()}/data`);
    expect(upper.status).toBe(401);
    expect((await json(upper)).error.code).toBe("replayed_request");
    expect(getPlugin(server.db, uuid)).toEqual(before);
    expect(usedSignatures()).toBe(1);
  });

  test("a new plugin push with its UUID in upper case names the same plugin", async () => {
    const token = server.token("plugin");
    const uuid = newUuid();
    const upper = signedRequest(server.url, { path: `/api/plugins/${uuid.toUpperCase()}/data`, token, tokenHeader: "X-Plugin-Token", body: { plugin: { name: "P" } } }, server.clock.now);
    expect((await fetch(upper)).status).toBe(200);
    expect(getPlugin(server.db, uuid)?.name).toBe("P");
  });

  test("a plugin push resent to .../data/ is a 404 and writes nothing", async () => {
    const token = server.token("plugin");
    const uuid = newUuid();
    const first = await sendAndCapture(
      signedRequest(server.url, { path: `/api/plugins/${uuid}/data`, token, tokenHeader: "X-Plugin-Token", body: { stats: { shops: 1 } } }, server.clock.now),
    );
    const before = getPlugin(server.db, uuid)!;
    server.clock.now += 1000;

    const slash = await resend(first, `/api/plugins/${uuid}/data/`);
    expect(slash.status).toBe(404);
    expect(getPlugin(server.db, uuid)).toEqual(before);
    expect(usedSignatures()).toBe(1);
  });

  test("a server push resent with X-Server-UUID in upper case or as X-Server-Id is refused", async () => {
    const token = server.token("server");
    const uuid = newUuid();
    const first = await sendAndCapture(signedRequest(server.url, { path: "/api/server/heartbeat", token, serverUuid: uuid, body: { name: "A" } }, server.clock.now));
    const { "x-server-uuid": _, ...withoutUuid } = first.headers;
    for (const response of [
      await resend(first, first.path, { "x-server-uuid": uuid.toUpperCase() }),
      await fetch(server.url + first.path, { method: "POST", headers: { ...withoutUuid, "X-Server-Id": uuid }, body: first.body }),
    ]) {
      expect(response.status).toBe(401);
      expect((await json(response)).error.code).toBe("replayed_request");
    }
  });
});

describe("how long a push is remembered", () => {
  test("a resend 2 s later is still refused; after the window it is refused as stale", async () => {
    const token = server.token();
    const uuid = newUuid();
    const first = await sendAndCapture(signedRequest(server.url, { path: "/api/server/update", token, serverUuid: uuid, body: { stats: { players: { online: 1, max: 2 } } } }, server.clock.now));

    server.clock.now += 2000;
    const later = await resend(first);
    expect(later.status).toBe(401);
    expect((await json(later)).error.code).toBe("replayed_request");

    server.clock.now += 299_000; // 301 s after the timestamp: outside the 300 s window
    const stale = await resend(first);
    expect(stale.status).toBe(401);
    expect((await json(stale)).error.code).toBe("stale_timestamp");
    expect(listSamples(server.db, uuid, 0)).toHaveLength(1);
  });

  test("a push timestamped at the far edge of the window is remembered until that timestamp leaves it", async () => {
    const token = server.token();
    const uuid = newUuid();
    const future = Math.floor(server.clock.now / 1000) + 300;
    const first = await sendAndCapture(signedRequest(server.url, { path: "/api/server/heartbeat", token, serverUuid: uuid, timestamp: future }, server.clock.now));
    server.clock.now += 550_000; // 250 s after the timestamp
    expect((await json(await resend(first))).error.code).toBe("replayed_request");
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
      const response = await fetch(signedRequest(server.url, { path: "/api/server/heartbeat", token, serverUuid: newUuid(), body, timestamp: ts, signature }, server.clock.now));
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
