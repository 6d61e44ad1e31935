import { afterEach, describe, expect, test } from "bun:test";
import { hashToken } from "../../src/auth/token.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { json, newUuid, signedRequest, type SignedCall } from "../support/signing.ts";

function count(table: "tokens" | "servers" | "plugins" | "used_signatures"): number {
  return (server.db.$client.query(`select count(*) as n from ${table}`).get() as { n: number }).n;
}

/** A push from a client whose address a trusted proxy reports (PENNANT_TRUST_PROXY=on). */
function sendFrom(address: string, call: SignedCall): Promise<Response> {
  return send({ ...call, headers: { ...call.headers, "X-Forwarded-For": address } });
}

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
    expect(await server.store.tokens.list()).toHaveLength(0);
  });

  test("open: an unknown token claims what it pushes first; others are then refused", async () => {
    server = await startTestServer({ PENNANT_REGISTRATION: "open" });
    const uuid = newUuid();
    expect((await send({ path: "/api/server/heartbeat", token: SELF_CHOSEN, serverUuid: uuid, body: { name: "Mine" } })).status).toBe(200);
    expect((await server.store.tokens.findByHash(hashToken(SELF_CHOSEN)))?.origin).toBe("registration");

    const other = await send({ path: "/api/server/heartbeat", token: OTHER_SELF_CHOSEN, serverUuid: uuid, body: { name: "Theirs" } });
    expect(other.status).toBe(403);
    expect((await json(other)).error.code).toBe("not_owner");
    // The refused push registered nothing.
    expect(await server.store.tokens.findByHash(hashToken(OTHER_SELF_CHOSEN))).toBeUndefined();

    server.clock.now += 1000;
    const read = await send({ method: "GET", path: "/api/server/status", token: SELF_CHOSEN, serverUuid: uuid });
    expect((await json(read)).name).toBe("Mine");
  });

  test("open: a rejected payload registers nothing", async () => {
    server = await startTestServer({ PENNANT_REGISTRATION: "open" });
    const response = await send({ path: "/api/server/update", token: SELF_CHOSEN, serverUuid: newUuid(), body: { stats: { tps: "fast" } } });
    expect(response.status).toBe(400);
    expect(await server.store.tokens.list()).toHaveLength(0);
  });

  test("open: a short self-chosen token is refused, saying how long it must be", async () => {
    server = await startTestServer({ PENNANT_REGISTRATION: "open" });
    const response = await send({ path: "/api/server/heartbeat", token: "short", serverUuid: newUuid() });
    expect(response.status).toBe(401);
    expect((await json(response)).error).toEqual({
      code: "unknown_token",
      message: "unknown token; self-registered tokens must be 16 to 256 printable characters without spaces",
    });
    expect(await server.store.tokens.list()).toHaveLength(0);
  });

  test("open: a self-chosen token is 16 to 256 printable characters, no spaces; nothing else is registered", async () => {
    server = await startTestServer({ PENNANT_REGISTRATION: "open" });
    for (const token of ["a".repeat(16), "b".repeat(256)]) {
      expect((await send({ path: "/api/server/heartbeat", token, serverUuid: newUuid() })).status).toBe(200);
    }
    for (const token of ["c".repeat(15), "d".repeat(257), "with a space in the middle", "a-tab\tinside-the-token"]) {
      const response = await send({ path: "/api/server/heartbeat", token, serverUuid: newUuid() });
      expect(response.status).toBe(401);
      expect((await json(response)).error.code).toBe("unknown_token");
    }
    expect(await server.store.tokens.list()).toHaveLength(2);
  });

  test("open: a status read never registers a token", async () => {
    server = await startTestServer({ PENNANT_REGISTRATION: "open" });
    const response = await send({ method: "GET", path: "/api/server/status", token: SELF_CHOSEN, serverUuid: newUuid() });
    expect(response.status).toBe(401);
    expect((await json(response)).error.code).toBe("unknown_token");
    expect(await server.store.tokens.list()).toHaveLength(0);
  });

  test("open: a revoked token cannot be claimed again", async () => {
    server = await startTestServer({ PENNANT_REGISTRATION: "open" });
    expect((await send({ path: "/api/server/heartbeat", token: SELF_CHOSEN, serverUuid: newUuid() })).status).toBe(200);
    const id = (await server.store.tokens.findByHash(hashToken(SELF_CHOSEN)))!.id;
    await server.store.tokens.revoke(id, server.clock.now);
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
    const id = (await server.store.tokens.findByHash(hashToken(token)))!.id;
    await server.store.tokens.revoke(id, server.clock.now);
    const response = await send({ path: "/api/server/heartbeat", token, serverUuid: newUuid() });
    expect(response.status).toBe(401);
    expect((await json(response)).error).toEqual({ code: "unknown_token", message: "unknown or revoked token" });
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

  test("resends of an accepted push, duplicates or replays elsewhere, do not spend the token's budget", async () => {
    server = await startTestServer({}, { tokenRateLimit: { count: 2, windowSeconds: 60 } });
    const token = server.token();
    const captured = signedRequest(server.url, { path: "/api/server/heartbeat", token, serverUuid: newUuid() }, server.clock.now);
    const headers = Object.fromEntries(captured.headers.entries());
    const body = await captured.clone().text();
    expect((await fetch(captured)).status).toBe(200);
    // Whoever captured it resends it, up to the last millisecond its timestamp
    // is inside the window: as it was (a duplicate, answered 200) or for
    // another server (a replay); none costs the owner a request.
    const lastMoment = Number(headers["x-timestamp"]) * 1000 + server.config.clockSkewSeconds * 1000;
    for (const at of [server.clock.now, server.clock.now + 1000, lastMoment, lastMoment]) {
      server.clock.now = at;
      const duplicate = await fetch(captured.url, { method: "POST", headers, body });
      expect([duplicate.status, duplicate.headers.get("x-duplicate")]).toEqual([200, "true"]);
      const elsewhere = await fetch(captured.url, { method: "POST", headers: { ...headers, "x-server-uuid": newUuid() }, body });
      expect((await json(elsewhere)).error.code).toBe("replayed_request");
    }
    expect((await send({ path: "/api/server/heartbeat", token, serverUuid: newUuid() })).status).toBe(200);
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

describe("PENNANT_REGISTRATION_LIMIT: new tokens per client address", () => {
  test("a flood of pushes, each with a new token and UUID, registers 10 per hour (default) and stores nothing more", async () => {
    server = await startTestServer({ PENNANT_REGISTRATION: "open" });
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const response = await send({ path: "/api/server/heartbeat", token: `flood-token-${i}-0123456789`, serverUuid: newUuid() });
      statuses.push(response.status);
      if (response.status === 429) {
        const error = (await json(response)).error;
        expect(error.code).toBe("registration_limited");
        expect(error.message).toContain("PENNANT_REGISTRATION_LIMIT=10/3600");
        expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
      }
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
    expect([count("tokens"), count("servers"), count("used_signatures")]).toEqual([10, 10, 10]);
  });

  test("counts only new tokens: registered and `token create` tokens keep pushing; the budget returns after its window", async () => {
    server = await startTestServer({ PENNANT_REGISTRATION: "open", PENNANT_REGISTRATION_LIMIT: "1/600" });
    expect((await send({ path: "/api/server/heartbeat", token: SELF_CHOSEN, serverUuid: newUuid() })).status).toBe(200);
    const refused = await send({ path: `/api/plugins/${newUuid()}/data`, token: OTHER_SELF_CHOSEN, tokenHeader: "X-Plugin-Token", body: { stats: { a: 1 } } });
    expect(refused.status).toBe(429);
    expect([count("tokens"), count("plugins"), count("used_signatures")]).toEqual([1, 0, 1]);

    for (let i = 0; i < 3; i++) {
      server.clock.now += 1000;
      expect((await send({ path: "/api/server/heartbeat", token: SELF_CHOSEN, serverUuid: newUuid() })).status).toBe(200);
      expect((await send({ path: "/api/server/heartbeat", token: server.token(), serverUuid: newUuid() })).status).toBe(200);
    }
    server.clock.now += 600_000;
    expect((await send({ path: "/api/server/heartbeat", token: OTHER_SELF_CHOSEN, serverUuid: newUuid() })).status).toBe(200);
  });

  test("each client address has its own budget", async () => {
    server = await startTestServer({ PENNANT_REGISTRATION: "open", PENNANT_REGISTRATION_LIMIT: "1/600", PENNANT_TRUST_PROXY: "on" });
    expect((await sendFrom("203.0.113.7", { path: "/api/server/heartbeat", token: SELF_CHOSEN, serverUuid: newUuid() })).status).toBe(200);
    expect((await sendFrom("203.0.113.7", { path: "/api/server/heartbeat", token: OTHER_SELF_CHOSEN, serverUuid: newUuid() })).status).toBe(429);
    expect((await sendFrom("198.51.100.9", { path: "/api/server/heartbeat", token: OTHER_SELF_CHOSEN, serverUuid: newUuid() })).status).toBe(200);
  });

  test("a push refused for its payload does not spend the registration budget", async () => {
    server = await startTestServer({ PENNANT_REGISTRATION: "open", PENNANT_REGISTRATION_LIMIT: "1/600" });
    expect((await send({ path: "/api/server/update", token: SELF_CHOSEN, serverUuid: newUuid(), body: { stats: { tps: "fast" } } })).status).toBe(400);
    expect((await send({ path: "/api/server/update", token: SELF_CHOSEN, serverUuid: newUuid(), body: { stats: { tps: 20 } } })).status).toBe(200);
  });
});

describe("PENNANT_PUSH_RATE_LIMIT: signed requests per client address", () => {
  test("every signed request spends it, refused ones and reads included; other addresses are not affected", async () => {
    server = await startTestServer({ PENNANT_PUSH_RATE_LIMIT: "3/60", PENNANT_TRUST_PROXY: "on" });
    const token = server.token();
    const uuid = newUuid();
    expect((await sendFrom("203.0.113.7", { path: "/api/server/heartbeat", token, serverUuid: uuid })).status).toBe(200);
    expect((await sendFrom("203.0.113.7", { path: "/api/server/heartbeat", token: "pn_garbage-token-0123456789", serverUuid: newUuid() })).status).toBe(401);
    expect((await sendFrom("203.0.113.7", { method: "GET", path: "/api/server/status", token, serverUuid: uuid })).status).toBe(200);
    const limited = await sendFrom("203.0.113.7", { path: `/api/plugins/${newUuid()}/data`, token, tokenHeader: "X-Plugin-Token", body: { stats: { a: 1 } } });
    expect(limited.status).toBe(429);
    expect((await json(limited)).error.code).toBe("rate_limited");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(count("plugins")).toBe(0);

    expect((await sendFrom("198.51.100.9", { path: `/api/plugins/${newUuid()}/data`, token, tokenHeader: "X-Plugin-Token", body: { stats: { a: 1 } } })).status).toBe(200);
    server.clock.now += 60_000;
    expect((await sendFrom("203.0.113.7", { path: "/api/server/heartbeat", token, serverUuid: uuid })).status).toBe(200);
  });

  test("default: a network of 100 servers behind one address, each pushing every 5 s, is never refused", async () => {
    server = await startTestServer();
    const network = Array.from({ length: 100 }, () => ({ token: server.token("server"), uuid: newUuid() }));
    const refused: number[] = [];
    for (let round = 0; round < 12; round++) {
      const responses = await Promise.all(
        network.map(({ token, uuid }) => send({ path: "/api/server/update", token, serverUuid: uuid, body: { stats: { players: { online: round, max: 20 } } } })),
      );
      refused.push(...responses.map((response) => response.status).filter((status) => status !== 200));
      server.clock.now += 5000;
    }
    expect(refused).toEqual([]);
  }, 30_000);
});

describe("PENNANT_MAX_SERVERS_PER_TOKEN and PENNANT_MAX_PLUGINS_PER_TOKEN", () => {
  test("a token at its server limit gets 403 record_limit for a new server, stores nothing, and keeps updating its own", async () => {
    server = await startTestServer({ PENNANT_MAX_SERVERS_PER_TOKEN: "2" });
    const token = server.token();
    const owned = [newUuid(), newUuid()];
    // Each names its server: one token's pushes with the same body in the same second would carry the same signature.
    for (const uuid of owned) expect((await send({ path: "/api/server/heartbeat", token, serverUuid: uuid, body: { name: uuid } })).status).toBe(200);
    const lastUsed = (await server.store.tokens.findByHash(hashToken(token)))!.lastUsedAt;
    server.clock.now += 1000;

    const third = await send({ path: "/api/server/update", token, serverUuid: newUuid(), body: { stats: { players: { online: 1, max: 2 } } } });
    expect(third.status).toBe(403);
    expect((await json(third)).error).toEqual({
      code: "record_limit",
      message: "this token already owns 2 servers, the most PENNANT_MAX_SERVERS_PER_TOKEN allows; nothing was changed",
    });
    expect([count("servers"), count("used_signatures")]).toEqual([2, 2]);
    expect((await server.store.tokens.findByHash(hashToken(token)))!.lastUsedAt).toBe(lastUsed);

    expect((await send({ path: "/api/server/heartbeat", token, serverUuid: owned[0] })).status).toBe(200);
    // Another token has its own limit.
    expect((await send({ path: "/api/server/heartbeat", token: server.token(), serverUuid: newUuid() })).status).toBe(200);
  });

  test("a token at its plugin limit gets 403 record_limit for a new plugin and stores nothing", async () => {
    server = await startTestServer({ PENNANT_MAX_PLUGINS_PER_TOKEN: "1" });
    const token = server.token("plugin");
    expect((await send({ path: `/api/plugins/${newUuid()}/data`, token, tokenHeader: "X-Plugin-Token", body: { stats: { a: 1 } } })).status).toBe(200);
    const second = await send({ path: `/api/plugins/${newUuid()}/data`, token, tokenHeader: "X-Plugin-Token", body: { stats: { a: 2 } } });
    expect(second.status).toBe(403);
    const error = (await json(second)).error;
    expect(error.code).toBe("record_limit");
    expect(error.message).toContain("PENNANT_MAX_PLUGINS_PER_TOKEN");
    expect([count("plugins"), count("used_signatures")]).toEqual([1, 1]);
  });

  test("defaults: 100 servers and 50 plugins per token", async () => {
    server = await startTestServer();
    const token = server.token();
    const heartbeat = (i: number) => send({ path: "/api/server/heartbeat", token, serverUuid: newUuid(), body: { name: `S${i}` } });
    for (let i = 0; i < 100; i++) expect((await heartbeat(i)).status).toBe(200);
    expect((await heartbeat(100)).status).toBe(403);
    const data = (i: number) => send({ path: `/api/plugins/${newUuid()}/data`, token, tokenHeader: "X-Plugin-Token", body: { plugin: { name: `P${i}` } } });
    for (let i = 0; i < 50; i++) expect((await data(i)).status).toBe(200);
    expect((await data(50)).status).toBe(403);
  }, 30_000);

  test("open registration: a self-registered token is capped the same way", async () => {
    server = await startTestServer({ PENNANT_REGISTRATION: "open", PENNANT_MAX_SERVERS_PER_TOKEN: "1" });
    expect((await send({ path: "/api/server/heartbeat", token: SELF_CHOSEN, serverUuid: newUuid(), body: { name: "A" } })).status).toBe(200);
    expect((await send({ path: "/api/server/heartbeat", token: SELF_CHOSEN, serverUuid: newUuid(), body: { name: "B" } })).status).toBe(403);
    expect([count("tokens"), count("servers")]).toEqual([1, 1]);
  });
});
