// The variant deployed plugin builds send on /api/server/update: signature over
// the body alone, X-Timestamp in milliseconds, both UUID headers, {"data": {...}}.

import { afterEach, describe, expect, test } from "bun:test";
import { pluginUpdate, pluginUpdateBody, sendPluginUpdate } from "../support/ezbanners-client.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { json, newUuid, signedRequest, type SignedCall } from "../support/signing.ts";

let server: TestServer;
afterEach(async () => {
  await server.close();
});

const LEGACY_BODY = {
  data: {
    server_name: "Old Plugin Server",
    online_players: 7,
    max_players: 100,
    server_version: "Paper 1.20.4",
    tps_1m: 19.97,
    tps_5m: 19.9,
    tps_15m: 19.5,
    uptime: 3_600_000,
    motd: "§6Gold MOTD",
    whitelist: false,
    placeholders: { "%vault_eco_balance%": "1000", rank: 3 },
  },
};

function legacyCall(token: string, uuid: string, body: object | string = LEGACY_BODY): SignedCall {
  return {
    path: "/api/server/update",
    token,
    body,
    scheme: "legacy",
    timestamp: server.clock.now,
    serverUuid: uuid,
    headers: { "X-Server-Id": uuid },
  };
}

async function readStatus(token: string, uuid: string): Promise<any> {
  return json(await fetch(signedRequest(server.url, { method: "GET", path: "/api/server/status", token, serverUuid: uuid }, server.clock.now)));
}

describe("legacy plugin signatures (PENNANT_LEGACY_SIGNATURES on by default)", () => {
  test("a legacy update is accepted and mapped onto the server record", async () => {
    server = await startTestServer();
    const token = server.token("server");
    const uuid = newUuid();
    const response = await fetch(signedRequest(server.url, legacyCall(token, uuid), server.clock.now));
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ message: "Server data updated." });

    const status = await readStatus(token, uuid);
    expect(status).toMatchObject({
      uuid,
      name: "Old Plugin Server",
      status: "online",
      stats: {
        players: { online: 7, max: 100 },
        tps: 19.97,
        motd: "§6Gold MOTD",
        version: "Paper 1.20.4",
        tps_5m: 19.9,
        tps_15m: 19.5,
        uptime_ms: 3_600_000,
        whitelist: false,
        placeholders: { "%vault_eco_balance%": "1000", rank: 3 },
      },
    });
  });

  test("any legacy field may be missing", async () => {
    server = await startTestServer();
    const token = server.token();
    const uuid = newUuid();
    const response = await fetch(signedRequest(server.url, legacyCall(token, uuid, { data: { online_players: 3 } }), server.clock.now));
    expect(response.status).toBe(200);
    const status = await readStatus(token, uuid);
    expect(status.stats.players.online).toBe(3);
    expect(status.name).toBeNull();
  });

  test("a legacy field of the wrong type is a 400 naming it", async () => {
    server = await startTestServer();
    const response = await fetch(signedRequest(server.url, legacyCall(server.token(), newUuid(), { data: { max_players: "lots" } }), server.clock.now));
    expect(response.status).toBe(400);
    expect((await json(response)).error.message).toContain("data.max_players");
  });

  test("the plugin's update with an earlier body and a new X-Timestamp is accepted (uptime off: no lost update)", async () => {
    server = await startTestServer();
    const token = server.token("server");
    const uuid = newUuid();
    // A player leaves and comes back: the third body equals the first.
    for (const online of [3, 2, 3]) {
      const response = await sendPluginUpdate(pluginUpdate(server.url, token, uuid, pluginUpdateBody({ onlinePlayers: online }), server.clock.now));
      expect(response.status).toBe(200);
      expect(await json(response)).toEqual({ message: "Server data updated." });
      server.clock.now += 300_000; // the plugin's sync interval
    }
    const status = await readStatus(token, uuid);
    expect(status.stats.players).toEqual({ online: 3, max: 50 });
    expect(status.stats.motd).toBe("§aWelcome\n§7Second line");
    expect(status.stats.uptime_ms).toBeUndefined();
    expect((await server.store.servers.samples(uuid, 0)).map((sample) => sample.playersOnline)).toEqual([3, 2, 3]);
  });

  test("the same body twice within one second, each with its own X-Timestamp, is two updates", async () => {
    server = await startTestServer();
    const token = server.token("server");
    const uuid = newUuid();
    const body = pluginUpdateBody({ onlinePlayers: 3 });
    expect((await sendPluginUpdate(pluginUpdate(server.url, token, uuid, body, server.clock.now))).status).toBe(200);
    server.clock.now += 1;
    expect((await sendPluginUpdate(pluginUpdate(server.url, token, uuid, body, server.clock.now))).status).toBe(200);
    // Applied twice: the second moved last_seen (a duplicate would change nothing).
    expect((await server.store.servers.get(uuid))?.lastSeen).toBe(server.clock.now);
  });

  test("an exact resend is answered as a duplicate until its timestamp leaves the clock window, then as stale; one sample", async () => {
    server = await startTestServer();
    const token = server.token("server");
    const uuid = newUuid();
    const update = pluginUpdate(server.url, token, uuid, pluginUpdateBody({ onlinePlayers: 3 }), server.clock.now);
    expect((await sendPluginUpdate(update)).status).toBe(200);

    // Until its timestamp leaves the clock window (300 s), then it is stale.
    server.clock.now += 300_000;
    const atEdge = await sendPluginUpdate(update);
    expect(atEdge.status).toBe(200);
    expect(atEdge.headers.get("x-duplicate")).toBe("true");
    server.clock.now += 1;
    const stale = await sendPluginUpdate(update);
    expect((await json(stale)).error.code).toBe("stale_timestamp");
    expect(await server.store.servers.samples(uuid, 0)).toHaveLength(1);
  });

  test("the legacy timestamp must still be inside the clock window", async () => {
    server = await startTestServer();
    const call = { ...legacyCall(server.token(), newUuid()), timestamp: server.clock.now - 600_000 };
    const response = await fetch(signedRequest(server.url, call, server.clock.now));
    expect(response.status).toBe(401);
    expect((await json(response)).error.code).toBe("stale_timestamp");
  });

  test("the body-only signature is accepted on update only", async () => {
    server = await startTestServer();
    const call: SignedCall = { ...legacyCall(server.token(), newUuid(), { name: "x" }), path: "/api/server/heartbeat" };
    const response = await fetch(signedRequest(server.url, call, server.clock.now));
    expect(response.status).toBe(401);
    expect((await json(response)).error.code).toBe("bad_signature");
  });

  test("a {data} body with a standard signature is mapped the same way", async () => {
    server = await startTestServer();
    const token = server.token();
    const uuid = newUuid();
    const response = await fetch(signedRequest(server.url, { path: "/api/server/update", token, serverUuid: uuid, body: LEGACY_BODY }, server.clock.now));
    expect(response.status).toBe(200);
    expect((await readStatus(token, uuid)).stats.players.max).toBe(100);
  });
});

describe("PENNANT_LEGACY_SIGNATURES=off", () => {
  test("refuses body-only signatures and still accepts standard ones", async () => {
    server = await startTestServer({ PENNANT_LEGACY_SIGNATURES: "off" });
    const token = server.token();
    const legacy = await fetch(signedRequest(server.url, legacyCall(token, newUuid()), server.clock.now));
    expect(legacy.status).toBe(401);
    expect((await json(legacy)).error.code).toBe("bad_signature");

    const standard = await fetch(signedRequest(server.url, { path: "/api/server/update", token, serverUuid: newUuid(), body: LEGACY_BODY, timestamp: server.clock.now }, server.clock.now));
    expect(standard.status).toBe(200);
  });
});
