// A revoked token and a token that was never issued read the same from
// outside, on every signed endpoint: status, body, headers. Only the log
// line tells the operator which it was.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { generateToken, hashToken } from "../../src/auth/token.ts";
import { pluginDataBody, pluginDataPush, pluginUpdate, pluginUpdateBody, sendPluginUpdate } from "../support/ezbanners-client.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { newUuid, signedRequest } from "../support/signing.ts";

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

/** A token as `token create` makes it, then revoked as `token revoke` does. */
async function revokedToken(): Promise<string> {
  const token = server.token();
  expect(await server.store.tokens.revoke((await server.store.tokens.findByHash(hashToken(token)))!.id, server.clock.now)).toBe(true);
  return token;
}

/** Everything a client sees of an answer, but for what differs per request (its id, the time). */
async function seen(response: Response) {
  const headers = Object.fromEntries([...response.headers.entries()].filter(([name]) => name !== "x-request-id" && name !== "date"));
  return { status: response.status, headers, body: await response.text() };
}

async function logLine(response: Response): Promise<Record<string, any>> {
  const id = response.headers.get("x-request-id");
  for (let waited = 0; waited < 2000; waited += 5) {
    const line = server.logs().find((entry) => entry.request_id === id);
    if (line) return line;
    await Bun.sleep(5);
  }
  throw new Error(`no log line for request ${id}`);
}

const uuid = newUuid();
const requests: Record<string, (token: string) => Promise<Response>> = {
  heartbeat: (token) => fetch(signedRequest(server.url, { path: "/api/server/heartbeat", token, serverUuid: uuid, body: { name: "S" } }, server.clock.now)),
  update: (token) => fetch(signedRequest(server.url, { path: "/api/server/update", token, serverUuid: uuid, body: { stats: { players: { online: 1, max: 2 } } } }, server.clock.now)),
  "the plugin's legacy update": (token) => sendPluginUpdate(pluginUpdate(server.url, token, uuid, pluginUpdateBody({ onlinePlayers: 1 }), server.clock.now)),
  "plugin data": (token) => sendPluginUpdate(pluginDataPush(server.url, token, uuid, pluginDataBody(1, uuid), server.clock.now)),
  "status read": (token) => fetch(signedRequest(server.url, { method: "GET", path: "/api/server/status", token, serverUuid: uuid }, server.clock.now)),
};

describe("a revoked token reads like one never issued", () => {
  for (const [name, send] of Object.entries(requests)) {
    test(`${name}: same status, body and headers`, async () => {
      const revoked = await send(await revokedToken());
      const unknown = await send(generateToken());
      const answer = await seen(revoked);
      expect(answer).toEqual(await seen(unknown));
      expect(answer.status).toBe(401);
      expect(JSON.parse(answer.body)).toEqual({ error: { code: "unknown_token", message: "unknown or revoked token" } });
    });
  }

  test("a token that cannot be one of ours gets the same answer", async () => {
    const malformed = await seen(await requests.heartbeat!("short"));
    expect(malformed).toEqual(await seen(await requests.heartbeat!(await revokedToken())));
  });

  test("the log tells them apart", async () => {
    const revoked = await logLine(await requests.update!(await revokedToken()));
    const unknown = await logLine(await requests.update!(generateToken()));
    expect(revoked).toMatchObject({ status: 401, code: "unknown_token", detail: "revoked token" });
    expect(unknown).toMatchObject({ status: 401, code: "unknown_token", detail: "no such token" });
  });
});
