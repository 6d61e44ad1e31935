import { afterEach, describe, expect, test } from "bun:test";
import { hashToken } from "../../src/auth/token.ts";
import { revokeToken, findTokenByHash, listTokens } from "../../src/store/tokens.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { json, newUuid, signedRequest, type SignedCall } from "../support/signing.ts";

let server: TestServer;
afterEach(async () => {
  await server.close();
});

function send(call: SignedCall): Promise<Response> {
  return fetch(signedRequest(server.url, call, server.clock.now));
}

const SELF_CHOSEN = "my-own-secret-token-0123456789";
const OTHER_SELF_CHOSEN = "another-secret-token-9876543210";

describe("PENNANT_REGISTRATION", () => {
  test("closed (default): a token not made by `token create` is refused", async () => {
    server = await startTestServer();
    const response = await send({ path: "/api/server/heartbeat", token: SELF_CHOSEN, serverUuid: newUuid() });
    expect(response.status).toBe(401);
    expect((await json(response)).error.code).toBe("unknown_token");
    expect(listTokens(server.db)).toHaveLength(0);
  });

  test("open: an unknown token claims what it pushes first; others are then refused", async () => {
    server = await startTestServer({ PENNANT_REGISTRATION: "open" });
    const uuid = newUuid();
    expect((await send({ path: "/api/server/heartbeat", token: SELF_CHOSEN, serverUuid: uuid, body: { name: "Mine" } })).status).toBe(200);
    expect(findTokenByHash(server.db, hashToken(SELF_CHOSEN))?.origin).toBe("registration");

    const other = await send({ path: "/api/server/heartbeat", token: OTHER_SELF_CHOSEN, serverUuid: uuid, body: { name: "Theirs" } });
    expect(other.status).toBe(403);
    expect((await json(other)).error.code).toBe("not_owner");
    // The refused push registered nothing.
    expect(findTokenByHash(server.db, hashToken(OTHER_SELF_CHOSEN))).toBeUndefined();

    server.clock.now += 1000;
    const read = await send({ method: "GET", path: "/api/server/status", token: SELF_CHOSEN, serverUuid: uuid });
    expect((await json(read)).name).toBe("Mine");
  });

  test("open: a rejected payload registers nothing", async () => {
    server = await startTestServer({ PENNANT_REGISTRATION: "open" });
    const response = await send({ path: "/api/server/update", token: SELF_CHOSEN, serverUuid: newUuid(), body: { stats: { tps: "fast" } } });
    expect(response.status).toBe(400);
    expect(listTokens(server.db)).toHaveLength(0);
  });

  test("open: a short self-chosen token is refused", async () => {
    server = await startTestServer({ PENNANT_REGISTRATION: "open" });
    const response = await send({ path: "/api/server/heartbeat", token: "short", serverUuid: newUuid() });
    expect(response.status).toBe(401);
    expect(listTokens(server.db)).toHaveLength(0);
  });

  test("open: a revoked token cannot be claimed again", async () => {
    server = await startTestServer({ PENNANT_REGISTRATION: "open" });
    expect((await send({ path: "/api/server/heartbeat", token: SELF_CHOSEN, serverUuid: newUuid() })).status).toBe(200);
    const id = findTokenByHash(server.db, hashToken(SELF_CHOSEN))!.id;
    revokeToken(server.db, id, server.clock.now);
    server.clock.now += 1000;
    const response = await send({ path: "/api/server/heartbeat", token: SELF_CHOSEN, serverUuid: newUuid() });
    expect(response.status).toBe(401);
    expect((await json(response)).error.code).toBe("unknown_token");
  });
});

describe("revoked tokens", () => {
  test("are refused", async () => {
    server = await startTestServer();
    const token = server.token();
    const id = findTokenByHash(server.db, hashToken(token))!.id;
    revokeToken(server.db, id, server.clock.now);
    const response = await send({ path: "/api/server/heartbeat", token, serverUuid: newUuid() });
    expect(response.status).toBe(401);
  });
});

describe("PENNANT_CLOCK_SKEW", () => {
  test("narrows the window", async () => {
    server = await startTestServer({ PENNANT_CLOCK_SKEW: "10" });
    const token = server.token();
    const timestamp = Math.floor(server.clock.now / 1000) - 11;
    const response = await send({ path: "/api/server/heartbeat", token, serverUuid: newUuid(), timestamp });
    expect((await json(response)).error.code).toBe("stale_timestamp");
    const fresh = await send({ path: "/api/server/heartbeat", token, serverUuid: newUuid(), timestamp: timestamp + 3 });
    expect(fresh.status).toBe(200);
  });
});

describe("per-token rate limit", () => {
  test("answers 429 with Retry-After once the token's budget is spent, per token", async () => {
    server = await startTestServer({}, { tokenRateLimit: { count: 3, windowSeconds: 60 } });
    const token = server.token();
    const uuid = newUuid();
    for (let i = 0; i < 3; i++) {
      expect((await send({ path: "/api/server/heartbeat", token, serverUuid: uuid, timestamp: Math.floor(server.clock.now / 1000) - i })).status).toBe(200);
    }
    const limited = await send({ path: "/api/server/heartbeat", token, serverUuid: uuid, timestamp: Math.floor(server.clock.now / 1000) - 5 });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await json(limited)).error.code).toBe("rate_limited");

    // Another token has its own budget.
    expect((await send({ path: "/api/server/heartbeat", token: server.token(), serverUuid: newUuid() })).status).toBe(200);
    // The window passes.
    server.clock.now += 61_000;
    expect((await send({ path: "/api/server/heartbeat", token, serverUuid: uuid })).status).toBe(200);
  });

  test("requests that fail authentication do not spend a token's budget", async () => {
    server = await startTestServer({}, { tokenRateLimit: { count: 1, windowSeconds: 60 } });
    const token = server.token();
    for (let i = 0; i < 5; i++) {
      await send({ path: "/api/server/heartbeat", token, serverUuid: newUuid(), signature: "0".repeat(64) });
    }
    expect((await send({ path: "/api/server/heartbeat", token, serverUuid: newUuid() })).status).toBe(200);
  });
});
