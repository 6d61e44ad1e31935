import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/server.ts";
import { json, newUuid, signedRequest, type SignedCall } from "../support/signing.ts";

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

function push(token: string, uuid: string, body: object | string, extra: Partial<SignedCall> = {}): Promise<Response> {
  return fetch(
    signedRequest(server.url, { path: `/api/plugins/${uuid}/data`, token, body, tokenHeader: "X-Plugin-Token", ...extra }, server.clock.now),
  );
}

const DATA = {
  plugin: { name: "EzShops", version: "3.2.1" },
  stats: { shops_created: 1520, transactions: 98_000.5 },
  meta: {
    status: "Stable",
    alpha: { downloads: 12_345, latest_version: "3.2.1" },
    code: { stars: 321, forks: 12, open_issues: [{ id: 1 }, { id: 2 }], latest_release: "v3.2.1" },
    gamma: { license: "MIT" },
  },
  minecraft_versions: ["1.20.4", "1.21", "1.21.1"],
  server_software: ["Paper", "Folia", "Purpur"],
};

async function expectPayloadError(response: Response, field: string): Promise<void> {
  expect(response.status).toBe(400);
  const body = await json(response);
  expect(body.error.code).toBe("invalid_payload");
  expect(body.error.message).toContain(field);
}

describe("plugin data", () => {
  test("a push stores the plugin record and answers the spec's message", async () => {
    const token = server.token("plugin");
    const uuid = newUuid();
    const response = await push(token, uuid, DATA);
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ message: "Plugin data updated." });

    const row = (await server.store.plugins.get(uuid))!;
    expect(row.name).toBe("EzShops");
    expect(row.version).toBe("3.2.1");
    expect(row.stats).toEqual(DATA.stats);
    expect(row.meta).toEqual(DATA.meta);
    expect(row.minecraftVersions).toEqual(DATA.minecraft_versions);
    expect(row.serverSoftware).toEqual(DATA.server_software);
    expect(row.lastSeen).toBe(server.clock.now);
  });

  test("a later push replaces the fields it carries and keeps the others", async () => {
    const token = server.token("plugin");
    const uuid = newUuid();
    await push(token, uuid, DATA);
    server.clock.now += 5000;
    expect((await push(token, uuid, { stats: { shops_created: 1600 } })).status).toBe(200);
    const row = (await server.store.plugins.get(uuid))!;
    expect(row.stats).toEqual({ shops_created: 1600 });
    expect(row.meta).toEqual(DATA.meta);
    expect(row.name).toBe("EzShops");
    expect(row.lastSeen).toBe(server.clock.now);
  });

  test("the plugin UUID must be a UUID", async () => {
    // "%z" is not valid percent-encoding: Elysia hands the route no value at all.
    for (const raw of ["not-a-uuid", "%z"]) {
      const response = await push(server.token(), raw, DATA);
      expect({ raw, status: response.status }).toEqual({ raw, status: 400 });
      expect((await json(response)).error.code).toBe("invalid_plugin_uuid");
    }
  });

  test("needs X-Plugin-Token, not X-Server-Token", async () => {
    const response = await push(server.token(), newUuid(), DATA, { tokenHeader: "X-Server-Token" });
    expect(response.status).toBe(401);
    const error = (await json(response)).error;
    expect(error.code).toBe("missing_headers");
    expect(error.message).toContain("X-Plugin-Token");
  });

  test("a server-scoped token cannot push plugin data", async () => {
    const response = await push(server.token("server"), newUuid(), DATA);
    expect(response.status).toBe(403);
    expect((await json(response)).error.code).toBe("wrong_scope");
  });

  test("the first push binds the plugin; another token gets 403 and changes nothing", async () => {
    const uuid = newUuid();
    await push(server.token(), uuid, DATA);
    const response = await push(server.token(), uuid, { plugin: { name: "Stolen" } });
    expect(response.status).toBe(403);
    expect((await json(response)).error.code).toBe("not_owner");
    expect((await server.store.plugins.get(uuid))!.name).toBe("EzShops");
  });

  test("the same push again is a duplicate, and its signature for another plugin a replay (or, over the path, no signature of it)", async () => {
    const token = server.token();
    const uuid = newUuid();
    // Signed as the plugin signs, over timestamp and body: the same signature for every plugin UUID, kept to its first by the replay guard.
    const standard = { scheme: "standard" } as const;
    expect((await push(token, uuid, DATA, standard)).status).toBe(200);
    const again = await push(token, uuid, DATA, standard);
    expect([again.status, again.headers.get("x-duplicate")]).toEqual([200, "true"]);
    const elsewhere = await push(token, newUuid(), DATA, standard);
    expect(elsewhere.status).toBe(401);
    expect((await json(elsewhere)).error.code).toBe("replayed_request");
    // Signed over the path: the signature of one plugin's push does not match another's.
    const signed = signedRequest(server.url, { path: `/api/plugins/${uuid}/data`, token, body: DATA, tokenHeader: "X-Plugin-Token", timestamp: 1 + Math.floor(server.clock.now / 1000) }, server.clock.now);
    expect((await fetch(signed)).status).toBe(200);
    const reused = await push(token, newUuid(), DATA, { timestamp: signed.headers.get("x-timestamp")!, signature: signed.headers.get("x-signature")! });
    expect(reused.status).toBe(401);
    expect((await json(reused)).error.code).toBe("bad_signature");
  });

  test("stats values must be numbers", async () => {
    await expectPayloadError(await push(server.token(), newUuid(), { stats: { players: "many" } }), "stats.players");
  });

  test("minecraft_versions must be a list of strings", async () => {
    await expectPayloadError(await push(server.token(), newUuid(), { minecraft_versions: "1.21" }), "minecraft_versions");
    await expectPayloadError(await push(server.token(), newUuid(), { minecraft_versions: ["1.21", 5] }), "minecraft_versions[1]");
  });

  test("server_software must be a list of strings", async () => {
    await expectPayloadError(await push(server.token(), newUuid(), { server_software: [{}] }), "server_software[0]");
  });

  test("meta keys read by badges must have their type", async () => {
    await expectPayloadError(await push(server.token(), newUuid(), { meta: { code: { stars: "lots" } } }), "meta.code.stars");
    await expectPayloadError(await push(server.token(), newUuid(), { meta: { beta: { downloads: -5 } } }), "meta.beta.downloads");
    await expectPayloadError(await push(server.token(), newUuid(), { meta: { code: { open_issues: 4 } } }), "meta.code.open_issues");
    await expectPayloadError(await push(server.token(), newUuid(), { meta: { status: 1 } }), "meta.status");
  });

  test("free-form meta is bounded", async () => {
    const wide = Object.fromEntries(Array.from({ length: 2_001 }, (_, i) => [`k${i}`, i]));
    await expectPayloadError(await push(server.token(), newUuid(), { meta: wide }), "meta");
    expect((await push(server.token(), newUuid(), { meta: { custom: { nested: ["ok"] } } })).status).toBe(200);
  });

  test("too many stats: the first 128 are kept, and the answer says stats was trimmed", async () => {
    const uuid = newUuid();
    const stats = Object.fromEntries(Array.from({ length: 129 }, (_, i) => [`s${i}`, i]));
    expect(await json(await push(server.token(), uuid, { stats }))).toEqual({ message: "Plugin data updated.", trimmed: ["stats"] });
    expect(Object.keys((await server.store.plugins.get(uuid))!.stats!)).toHaveLength(128);
  });
});
