// The administrator's endpoints over real HTTP (src/http/admin-routes.ts):
// absent (404) without PENNANT_ADMIN_TOKEN; with it, signed over method and
// path with that token as the key, which is never sent and is compared as a
// signature in constant time; tokens listed, created (shown once) and
// revoked (then refused), each change accepted once; limited per client and
// every request logged without a token.

import { afterEach, describe, expect, spyOn, test } from "bun:test";
import * as crypto from "node:crypto";
import { Value } from "@sinclair/typebox/value";
import { ADMIN_RATE_LIMIT } from "../../src/http/admin-request.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { hmacHex, newUuid, signedRequest } from "../support/signing.ts";

const ADMIN = "the-admin-token-0123456789";

let server: TestServer;
afterEach(async () => {
  await server?.close();
});

interface AdminCall {
  method?: "GET" | "POST" | "DELETE";
  path: string;
  body?: unknown;
  key?: string;
  timestamp?: number;
  headers?: Record<string, string>;
}

/** An admin request as docs/console.md describes it: the v2 signature keyed with the admin token, which is not sent. */
function adminRequest({ method = "GET", path, body, key = ADMIN, timestamp, headers = {} }: AdminCall): Request {
  const text = body === undefined ? "" : JSON.stringify(body);
  const at = String(timestamp ?? Math.floor(server.clock.now / 1000));
  return new Request(`${server.url}${path}`, {
    method,
    headers: {
      "X-Timestamp": at,
      "X-Signature-Version": "2",
      "X-Signature": hmacHex(key, `${method} ${path}\n${at}.${text}`),
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      ...headers,
    },
    body: body === undefined ? undefined : text,
  });
}

const admin = (call: AdminCall) => fetch(adminRequest(call));

/** The answer's JSON, checked against what its route documents for its status (the OpenAPI document lists these routes only while they exist). */
async function documented(method: string, path: string, response: Response): Promise<any> {
  const route = (server.app.routes as ReadonlyArray<{ method: string; path: string; hooks?: any }>).find((candidate) => candidate.method === method && candidate.path === path)!;
  const schema = route.hooks.detail.responses[response.status]?.content?.["application/json"]?.schema;
  const body = await response.json();
  expect([method, path, response.status, schema !== undefined && Value.Check(schema, body)]).toEqual([method, path, response.status, true]);
  return body;
}

async function errorCode(response: Response): Promise<[number, string]> {
  return [response.status, ((await response.json()) as { error: { code: string } }).error.code];
}

describe("without PENNANT_ADMIN_TOKEN", () => {
  test("the admin endpoints do not exist, and the console offers no Admin tab", async () => {
    server = await startTestServer();
    for (const call of [{ path: "/api/admin/tokens" }, { method: "POST" as const, path: "/api/admin/tokens", body: {} }, { method: "DELETE" as const, path: "/api/admin/tokens/1" }]) {
      expect(await errorCode(await admin(call))).toEqual([404, "not_found"]);
    }
    expect(await (await fetch(`${server.url}/console`)).text()).not.toContain("tab-admin");
    const document = (await (await fetch(`${server.url}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths).filter((path) => path.startsWith("/api/admin"))).toEqual([]);
  });
});

describe("with PENNANT_ADMIN_TOKEN", () => {
  test("tokens listed, created (shown once, usable), revoked (then refused); each change accepted once", async () => {
    server = await startTestServer({ PENNANT_ADMIN_TOKEN: ADMIN });
    expect(await (await fetch(`${server.url}/console`)).text()).toContain('id="tab-admin"');
    const first = server.token();
    const listed = await admin({ path: "/api/admin/tokens" });
    expect(listed.status).toBe(200);
    expect(await documented("GET", "/api/admin/tokens", listed)).toEqual({
      tokens: [{ id: 1, label: "test", scope: "all", origin: "operator", created_at: new Date(server.clock.now).toISOString(), last_used_at: null, revoked_at: null }],
    });
    expect(JSON.stringify(await (await admin({ path: "/api/admin/tokens" })).json())).not.toContain(first);

    const asked = () => adminRequest({ method: "POST", path: "/api/admin/tokens", body: { label: "  survival  ", scope: "server" } });
    const created = await fetch(asked());
    expect(created.status).toBe(201);
    const made = (await documented("POST", "/api/admin/tokens", created)) as { id: number; token: string; label: string; scope: string };
    expect(made).toMatchObject({ id: 2, label: "survival", scope: "server", origin: "operator", revoked_at: null });
    expect(made.token).toMatch(/^pn_[A-Za-z0-9_-]{43}$/);
    // The same request again creates nothing: the token was shown in the first answer only.
    expect((await documented("POST", "/api/admin/tokens", await fetch(asked()))).error.code).toBe("replayed_request");
    expect(((await (await admin({ path: "/api/admin/tokens" })).json()) as { tokens: unknown[] }).tokens).toHaveLength(2);

    // The new token works, with its scope.
    const serverUuid = newUuid();
    const push = (token: string) => fetch(signedRequest(server.url, { path: "/api/server/update", token, serverUuid, body: { name: "New" } }, server.clock.now));
    expect((await push(made.token)).status).toBe(200);
    expect((await fetch(signedRequest(server.url, { path: `/api/plugins/${newUuid()}/data`, token: made.token, tokenHeader: "X-Plugin-Token", body: {} }, server.clock.now))).status).toBe(403);

    // Revoked once: an exact resend is a duplicate, a new request finds no active token.
    server.clock.now += 1000;
    const revoke = () => adminRequest({ method: "DELETE", path: `/api/admin/tokens/${made.id}` });
    const revoked = await fetch(revoke());
    expect([revoked.status, await documented("DELETE", "/api/admin/tokens/:id", revoked)]).toEqual([200, { message: "Token revoked." }]);
    const again = await fetch(revoke());
    expect([again.status, again.headers.get("x-duplicate")]).toEqual([200, "true"]);
    server.clock.now += 1000;
    expect(await errorCode(await admin({ method: "DELETE", path: `/api/admin/tokens/${made.id}` }))).toEqual([404, "unknown_token_id"]);
    expect((await documented("DELETE", "/api/admin/tokens/:id", await admin({ method: "DELETE", path: "/api/admin/tokens/999" }))).error.code).toBe("unknown_token_id");
    expect(await errorCode(await admin({ method: "DELETE", path: "/api/admin/tokens/x1" }))).toEqual([404, "unknown_token_id"]);
    expect(await errorCode(await push(made.token))).toEqual([401, "unknown_token"]);
    const after = ((await (await admin({ path: "/api/admin/tokens" })).json()) as { tokens: Array<{ id: number; revoked_at: string | null }> }).tokens;
    expect(after.find((token) => token.id === made.id)!.revoked_at).toBe(new Date(server.clock.now - 1000).toISOString());
  });

  test("refused: another key, the token sent in a header without its signature, no version, an old timestamp, a bad body", async () => {
    server = await startTestServer({ PENNANT_ADMIN_TOKEN: ADMIN });
    const apiToken = server.token();
    expect((await documented("GET", "/api/admin/tokens", await admin({ path: "/api/admin/tokens", key: "not-the-admin-token-000" }))).error.code).toBe("bad_signature");
    // An API token is no admin key.
    expect(await errorCode(await admin({ path: "/api/admin/tokens", key: apiToken }))).toEqual([401, "bad_signature"]);
    // The admin token sent as a header proves nothing: only the signature does.
    const bare = await fetch(`${server.url}/api/admin/tokens`, { headers: { "X-Admin-Token": ADMIN, "X-Server-Token": ADMIN, Authorization: `Bearer ${ADMIN}` } });
    expect(await errorCode(bare)).toEqual([401, "missing_headers"]);
    expect(await errorCode(await admin({ path: "/api/admin/tokens", headers: { "X-Signature-Version": "1" } }))).toEqual([401, "bad_signature"]);
    const older = new Request(adminRequest({ path: "/api/admin/tokens" }));
    older.headers.delete("X-Signature-Version");
    expect(await errorCode(await fetch(older))).toEqual([401, "bad_signature"]);
    expect(await errorCode(await admin({ path: "/api/admin/tokens", timestamp: Math.floor(server.clock.now / 1000) - 3600 }))).toEqual([401, "stale_timestamp"]);
    // A signature over another path is no signature for this one.
    const moved = adminRequest({ path: "/api/admin/tokens?x=1" });
    expect(await errorCode(await fetch(`${server.url}/api/admin/tokens`, { headers: moved.headers }))).toEqual([401, "bad_signature"]);
    expect((await documented("POST", "/api/admin/tokens", await admin({ method: "POST", path: "/api/admin/tokens", body: { scope: "root" } }))).error.code).toBe("invalid_payload");
    expect(await errorCode(await admin({ method: "POST", path: "/api/admin/tokens", body: { label: "x".repeat(101) } }))).toEqual([400, "invalid_payload"]);
    expect(await errorCode(await admin({ method: "POST", path: "/api/admin/tokens", body: { label: "x".repeat(5000) } }))).toEqual([413, "payload_too_large"]);
    expect(((await (await admin({ path: "/api/admin/tokens" })).json()) as { tokens: unknown[] }).tokens).toHaveLength(1);
  });

  test("the signature is compared in constant time: timingSafeEqual of the expected HMAC under the admin token and the one sent", async () => {
    server = await startTestServer({ PENNANT_ADMIN_TOKEN: ADMIN });
    const spy = spyOn(crypto, "timingSafeEqual");
    try {
      const request = adminRequest({ path: "/api/admin/tokens", key: "a-wrong-key-of-another-length" });
      const sent = Buffer.from(request.headers.get("X-Signature")!, "hex");
      const expected = Buffer.from(hmacHex(ADMIN, `GET /api/admin/tokens\n${request.headers.get("X-Timestamp")}.`), "hex");
      expect((await fetch(request)).status).toBe(401);
      const compared = spy.mock.calls.some(([a, b]) => Buffer.from(a as Uint8Array).equals(expected) && Buffer.from(b as Uint8Array).equals(sent));
      expect(compared).toBe(true);
    } finally {
      spy.mockRestore();
    }
  });

  test(`limited to ${ADMIN_RATE_LIMIT.count} requests a minute per client, whatever their outcome; every request logged, never a token`, async () => {
    server = await startTestServer({ PENNANT_ADMIN_TOKEN: ADMIN });
    const created = (await (await admin({ method: "POST", path: "/api/admin/tokens", body: { label: "logged" } })).json()) as { token: string };
    for (let n = 1; n < ADMIN_RATE_LIMIT.count; n++) {
      const response = n % 2 === 0 ? await admin({ path: "/api/admin/tokens" }) : await admin({ path: "/api/admin/tokens", key: "guessing-the-admin-token" });
      expect(response.status).toBe(n % 2 === 0 ? 200 : 401);
    }
    const over = await admin({ path: "/api/admin/tokens" });
    expect((await documented("GET", "/api/admin/tokens", over)).error.code).toBe("rate_limited");
    const lines = server.logs().filter((line) => String(line.msg).startsWith("admin "));
    expect(lines).toHaveLength(ADMIN_RATE_LIMIT.count);
    expect(lines[0]).toMatchObject({ level: "info", msg: "admin POST /api/admin/tokens 201", status: 201, token_id: 1, client: "127.0.0.1" });
    expect(lines[1]).toMatchObject({ msg: "admin GET /api/admin/tokens 401", status: 401, code: "bad_signature" });
    const logged = JSON.stringify(server.logs());
    for (const secret of [ADMIN, created.token]) expect(logged.includes(secret)).toBe(false);
  });
});
