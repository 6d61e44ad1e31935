// Signed bodies are checked against their one schema (the one the OpenAPI
// document shows) only after the signature over the raw bytes holds: an
// unsigned body gets 401 whatever it holds, a signed one of the wrong shape
// gets 400 invalid_payload naming the field. (Text over a bound is fitted to
// it, not refused: push-trimming.test.ts.)

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/server.ts";
import { json, newUuid, signedRequest, type SignedCall } from "../support/signing.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const PLUGIN = (uuid: string) => `/api/plugins/${uuid}/data`;

function send(call: Omit<SignedCall, "token"> & { token?: string }): Promise<Response> {
  const plugin = call.path.startsWith("/api/plugins/");
  return fetch(
    signedRequest(
      server.url,
      {
        token: call.token ?? server.token(),
        ...(plugin ? { tokenHeader: "X-Plugin-Token" as const } : { serverUuid: newUuid() }),
        ...call,
      },
      server.clock.now,
    ),
  );
}

async function error(response: Response): Promise<{ status: number; code: string; message: string }> {
  const body = await json(response);
  return { status: response.status, code: body.error?.code, message: body.error?.message };
}

describe("the signature comes first", () => {
  const breaksSchema = { name: 5, stats: { players: { online: "ten" } } };

  for (const path of ["/api/server/update", "/api/server/heartbeat", PLUGIN(newUuid())]) {
    test(`${path}: a body that breaks the schema with a bad signature is a 401, not a 400`, async () => {
      const body = path.startsWith("/api/plugins/") ? { stats: { x: "not a number" } } : breaksSchema;
      const response = await send({ path, body, signature: "0".repeat(64) });
      expect(await error(response)).toMatchObject({ status: 401, code: "bad_signature" });
    });
  }

  test("a body that breaks the schema with no token at all is a 401 naming the header", async () => {
    const response = await fetch(`${server.url}/api/server/update`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Server-UUID": newUuid() },
      body: JSON.stringify(breaksSchema),
    });
    expect(await error(response)).toMatchObject({ status: 401, code: "missing_headers" });
  });
});

describe("a signed body that breaks the schema is a 400 naming the field", () => {
  const cases: Array<[string, string, unknown, string]> = [
    ["update", "/api/server/update", { stats: { players: { online: 1.5 } } }, "stats.players.online must be an integer from 0 to 1000000000"],
    ["update", "/api/server/update", { stats: { players: { max: -1 } } }, "stats.players.max must be an integer from 0 to 1000000000"],
    ["update", "/api/server/update", { stats: { tps: 1001 } }, "stats.tps must be a number from 0 to 1000"],
    ["update", "/api/server/update", { stats: { motd: 5 } }, "stats.motd must be a string"],
    ["update", "/api/server/update", { stats: [] }, "stats must be an object"],
    ["update", "/api/server/update", [1, 2], "the body must be a JSON object"],
    ["heartbeat", "/api/server/heartbeat", "5", "the body must be a JSON object"],
    ["legacy update", "/api/server/update", { data: { max_players: "lots" } }, "data.max_players must be an integer from 0 to 1000000000"],
    ["legacy update", "/api/server/update", { data: { whitelist: "yes" } }, "data.whitelist must be true or false"],
    ["legacy update", "/api/server/update", { data: { uptime: -1 } }, "data.uptime must be a number from 0 to 9007199254740991"],
    ["legacy update", "/api/server/update", { data: { placeholders: { rank: {} } } }, "data.placeholders.rank must be a string, a number or true or false"],
    ["legacy update", "/api/server/update", { data: 5 }, "data must be an object"],
    ["plugin data", PLUGIN(newUuid()), { plugin: { name: 5 } }, "plugin.name must be a string"],
    ["plugin data", PLUGIN(newUuid()), { stats: { players: "many" } }, "stats.players must be a number"],
    ["plugin data", PLUGIN(newUuid()), { stats: { "a/b~c": "x" } }, "stats.a/b~c must be a number"],
    ["plugin data", PLUGIN(newUuid()), { minecraft_versions: ["1.21", 5] }, "minecraft_versions[1] must be a string"],
    ["plugin data", PLUGIN(newUuid()), { minecraft_versions: "1.21" }, "minecraft_versions must be a list of strings"],
    ["plugin data", PLUGIN(newUuid()), { meta: { code: { stars: -1 } } }, "meta.code.stars must be a number of at least 0"],
    ["plugin data", PLUGIN(newUuid()), { meta: { code: { open_issues: 4 } } }, "meta.code.open_issues must be a list"],
    ["plugin data", PLUGIN(newUuid()), { meta: { "a/b": { x: 1 }, status: true } }, "meta.status must be a string"],
  ];
  for (const [label, path, body, message] of cases) {
    test(`${label} ${JSON.stringify(body).slice(0, 60)}: "${message}"`, async () => {
      const response = await send({ path, body: typeof body === "string" ? body : (body as object) });
      expect(await error(response)).toEqual({ status: 400, code: "invalid_payload", message });
    });
  }
});

describe("what the schema lets through", () => {
  test("null counts as absent: the stored values stay", async () => {
    const token = server.token();
    const uuid = newUuid();
    const first = { name: "Lobby", status: "Online ", stats: { players: { online: 3, max: 20 }, tps: 20 } };
    expect((await send({ path: "/api/server/update", token, serverUuid: uuid, body: first })).status).toBe(200);
    server.clock.now += 1000;
    const nulls = { name: null, status: null, stats: { players: { online: null, max: 30 }, tps: null, motd: null } };
    expect((await send({ path: "/api/server/update", token, serverUuid: uuid, body: nulls })).status).toBe(200);
    expect(await server.store.servers.get(uuid)).toMatchObject({ name: "Lobby", status: "online", playersOnline: 3, playersMax: 30, tps: 20 });
  });

  test("unknown fields are ignored, and meta groups badges do not read as objects are free-form", async () => {
    const uuid = newUuid();
    const body = { future: { a: 1 }, plugin: { name: "P", extra: true }, meta: { code: "owner/repo", alpha: [1, 2], beta: null } };
    expect((await send({ path: PLUGIN(uuid), body })).status).toBe(200);
    expect(await server.store.plugins.get(uuid)).toMatchObject({ name: "P", meta: body.meta });
  });
});
