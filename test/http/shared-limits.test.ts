// PENNANT_REDIS_URL: two instances (two apps, each with its own database) on
// one real Redis (test/support/redis.ts) give the limits of one; with Redis
// stopped each still answers, counting alone, says so once in its log and in
// /healthz (200); with Redis back they share again by themselves.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { RedisClient } from "bun";
import { join } from "node:path";
import { hashToken } from "../../src/auth/token.ts";
import { sqliteCreateToken } from "../../src/store/tokens.ts";
import { tempDir, track } from "../support/cleanup.ts";
import { startServe } from "../support/process.ts";
import { startRedis, type Redis } from "../support/redis.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { json, newUuid, signedRequest } from "../support/signing.ts";

const BANNER = "/api/banner?server_name=Shared&online_players=3&max_players=10";
/** Both apps run in this process, so every request comes from 127.0.0.1: one client. */
const CLIENT = "127.0.0.1";

let redis: Redis;
beforeEach(async () => {
  redis = await startRedis();
});
afterEach(async () => {
  await redis.close();
});

async function twoInstances(env: Record<string, string>, options: Parameters<typeof startTestServer>[1] = {}): Promise<[TestServer, TestServer]> {
  const settings = { PENNANT_REDIS_URL: redis.url, ...env };
  return [await startTestServer(settings, options), await startTestServer(settings, options)];
}

/** What Redis holds under `key` and for how long, read with a client of the test's own. */
async function inRedis(key: string): Promise<{ count: string | null; msLeft: number }> {
  const client = new RedisClient(redis.url);
  track(() => client.close());
  return { count: await client.get(key), msLeft: await client.pttl(key) };
}

const banner = (server: TestServer, headers: Record<string, string> = {}) => fetch(server.url + BANNER, { headers });
const redisWarnings = (server: TestServer) => server.logs().filter((line) => line.level === "warn" && line.msg.startsWith("Redis"));
const health = async (server: TestServer) => {
  const response = await fetch(`${server.url}/healthz`);
  return { status: response.status, body: await json(response) };
};

describe("without PENNANT_REDIS_URL", () => {
  test("/healthz says nothing of limits: its body is as it always was", async () => {
    const server = await startTestServer();
    expect(await health(server)).toEqual({ status: 200, body: { ok: true } });
  });
});

describe("limits shared through Redis", () => {
  test("a client spreading banner requests over two instances gets 429 at the shared limit, not twice it", async () => {
    const instances = await twoInstances({ PENNANT_RATE_LIMIT: "5/60" });
    const answers: Array<[number, string | null]> = [];
    for (let i = 0; i < 8; i++) {
      const response = await banner(instances[i % 2]!);
      answers.push([response.status, response.headers.get("ratelimit-remaining")]);
    }
    // The first draws; the next ones are answered from each instance's cache in Bun's router: both spend alike.
    expect(answers).toEqual([[200, "4"], [200, "3"], [200, "2"], [200, "1"], [200, "0"], [429, "0"], [429, "0"], [429, "0"]]);
    const window = await inRedis(`pennant:limit:requests:${CLIENT}`);
    expect(window.count).toBe("5");
    expect(window.msLeft).toBeGreaterThan(50_000);
    expect(window.msLeft).toBeLessThanOrEqual(60_000);
    for (const instance of instances) expect((await health(instance)).body).toEqual({ ok: true, limits: { shared: true } });
  });

  test("a token pushing through two instances gets 429 at its shared budget", async () => {
    const instances = await twoInstances({}, { tokenRateLimit: { count: 3, windowSeconds: 60 } });
    const token = instances[0].token();
    sqliteCreateToken(instances[1].db, { hash: hashToken(token), scope: "all", label: "test", now: instances[1].clock.now });
    const uuid = newUuid();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const instance = instances[i % 2]!;
      const push = { path: "/api/server/heartbeat", token, serverUuid: uuid, body: { name: `push ${i}` } };
      const response = await fetch(signedRequest(instance.url, push, instance.clock.now));
      statuses.push(response.status);
      if (response.status === 429) expect((await json(response)).error.message).toBe("too many requests for this token; slow down");
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
    expect((await inRedis(`pennant:limit:token_pushes:${hashToken(token)}`)).count).toBe("3");
  });

  test("signed requests per address are shared too", async () => {
    const instances = await twoInstances({ PENNANT_PUSH_RATE_LIMIT: "3/60" });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const instance = instances[i % 2]!;
      const push = { path: "/api/server/heartbeat", token: instance.token(), serverUuid: newUuid() };
      statuses.push((await fetch(signedRequest(instance.url, push, instance.clock.now))).status);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect((await inRedis(`pennant:limit:pushes:${CLIENT}`)).count).toBe("3");
  });

  test("tokens made by open registration per address are shared too", async () => {
    const instances = await twoInstances({ PENNANT_REGISTRATION: "open", PENNANT_REGISTRATION_LIMIT: "2/3600" });
    const codes: Array<number | string> = [];
    for (let i = 0; i < 4; i++) {
      const instance = instances[i % 2]!;
      const push = { path: "/api/server/heartbeat", token: `self-chosen-token-number-${i}`, serverUuid: newUuid() };
      const response = await fetch(signedRequest(instance.url, push, instance.clock.now));
      codes.push(response.status === 200 ? 200 : (await json(response)).error.code);
    }
    expect(codes).toEqual([200, 200, "registration_limited", "registration_limited"]);
  });

  test("the draw budget is shared: a client's units spent on one instance are gone on the other", async () => {
    // The smallest budget allowed: one 1200x300 WebP at scale 2 (206 units).
    const instances = await twoInstances({ PENNANT_DRAW_BUDGET: "206/60" });
    const largest = (name: string) => `/api/banner?server_name=${name}&size=1200x300&format=webp&scale=2`;
    expect((await fetch(instances[0].url + largest("First"))).status).toBe(200);
    const refused = await fetch(instances[1].url + largest("Second"));
    expect(refused.status).toBe(429);
    expect((await json(refused)).error.message).toBe("this address has asked for too many new images lately; slow down");
    expect((await inRedis(`pennant:limit:draw_units:${CLIENT}`)).count).toBe("206");
  });
});

describe("leases: an instance spends units of a window it leased from Redis", () => {
  const statusesOf = async (requests: Array<Promise<Response>>) => (await Promise.all(requests)).map((response) => response.status);
  const served = (statuses: number[]) => statuses.filter((status) => status === 200).length;

  test("a client asking slowly is counted one request at a time: Redis holds exactly what it spent", async () => {
    const [instance] = await twoInstances({ PENNANT_RATE_LIMIT: "1000/60" });
    for (let i = 0; i < 10; i++) {
      instance.clock.now += 1_000;
      expect((await banner(instance)).status).toBe(200);
    }
    expect((await inRedis(`pennant:limit:requests:${CLIENT}`)).count).toBe("10");
  });

  test("a client asking fast gets leases growing by doubling, each taken in one script call", async () => {
    const [instance] = await twoInstances({ PENNANT_RATE_LIMIT: "1000/60" });
    const remaining: Array<string | null> = [];
    for (let i = 0; i < 10; i++) remaining.push((await banner(instance)).headers.get("ratelimit-remaining"));
    // Leases of 1, 2, 4 and 8 units: the 10 requests took 15 of the window.
    expect((await inRedis(`pennant:limit:requests:${CLIENT}`)).count).toBe("15");
    // What this instance still holds, plus what the window has left for every instance.
    expect(remaining).toEqual(["999", "998", "997", "996", "995", "994", "993", "992", "991", "990"]);
  });

  test("under a concurrent burst over two instances the client never gets more than its limit in total", async () => {
    const instances = await twoInstances({ PENNANT_RATE_LIMIT: "200/60" });
    await banner(instances[0]); // drawn once: every request below is a cached banner
    const statuses: number[] = [];
    for (let wave = 0; wave < 8; wave++) statuses.push(...(await statusesOf(Array.from({ length: 100 }, (_, i) => banner(instances[i % 2]!)))));
    // Redis answered every lease within its deadline (else an instance counted alone, as it should then).
    for (const instance of instances) expect(redisWarnings(instance)).toEqual([]);
    expect(served(statuses) + 1).toBeLessThanOrEqual(200);
    // Units leased to one instance and not spent there are refused at the other: at most 1/8 of the window.
    expect(served(statuses) + 1).toBeGreaterThanOrEqual(200 - 200 / 8);
    expect(Number((await inRedis(`pennant:limit:requests:${CLIENT}`)).count)).toBeLessThanOrEqual(200);
  });

  test("an honest client spreading exactly its limit over two instances is served every time, then refused", async () => {
    const instances = await twoInstances({ PENNANT_RATE_LIMIT: "200/60" });
    const statuses: number[] = [];
    for (let i = 0; i < 202; i++) statuses.push((await banner(instances[i % 2]!)).status);
    expect(statuses.slice(0, 200)).toEqual(Array(200).fill(200));
    expect(statuses.slice(200)).toEqual([429, 429]);
    expect((await inRedis(`pennant:limit:requests:${CLIENT}`)).count).toBe("200");
  });

  test("Redis stopped while an instance holds a lease: the lease is spent, then the instance counts alone", async () => {
    const [instance] = await twoInstances({ PENNANT_RATE_LIMIT: "1000/60" });
    for (let i = 0; i < 10; i++) await banner(instance);
    await redis.close();
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await banner(instance)).status);
    expect(statuses).toEqual(Array(20).fill(200));
    expect(redisWarnings(instance)).toHaveLength(1);
    expect((await health(instance)).body.limits.shared).toBe(false);
  });

  test("a lease ends with its window: the units left unspent are not carried into the next one", async () => {
    const [instance] = await twoInstances({ PENNANT_RATE_LIMIT: "1000/60" });
    for (let i = 0; i < 10; i++) await banner(instance);
    const client = new RedisClient(redis.url);
    track(() => client.close());
    // The window ends early in Redis, and by the instance's clock.
    await client.send("DEL", [`pennant:limit:requests:${CLIENT}`]);
    instance.clock.now += 60_000;
    expect((await banner(instance)).headers.get("ratelimit-remaining")).toBe("999");
    expect((await inRedis(`pennant:limit:requests:${CLIENT}`)).count).toBe("1");
  });
});

describe("serve", () => {
  test("logs that the limits are shared through Redis, naming it without its password", async () => {
    const guarded = await startRedis({ password: "s3cret-redis-password" });
    const server = await startServe({ PENNANT_DB: join(tempDir("serve-redis"), "pennant.db"), PENNANT_REDIS_URL: guarded.url });
    const shown = guarded.url.replace("s3cret-redis-password", "***");
    await waitFor(async () => server.stderr().includes("rate limits and budgets are shared through Redis"));
    expect(server.stderr()).toContain(`"redis":"${shown}"`);
    expect(server.stderr()).not.toContain("s3cret");
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  test("a wrong password is a Redis that does not answer, and the warning does not show it either", async () => {
    const guarded = await startRedis({ password: "s3cret-redis-password" });
    const wrong = guarded.url.replace("s3cret-redis-password", "wr0ng-password");
    const server = await startServe({ PENNANT_DB: join(tempDir("serve-redis"), "pennant.db"), PENNANT_REDIS_URL: wrong });
    await waitFor(async () => server.stderr().includes("rate limits are counted by this instance alone"));
    expect(server.stderr()).not.toContain("wr0ng");
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});

describe("Redis stopped and started again", () => {
  test("requests are still answered, counted per instance; one warning, /healthz 200 says so; shared again once Redis is back", async () => {
    const [first, second] = await twoInstances({ PENNANT_RATE_LIMIT: "4/60" });
    expect((await banner(first)).status).toBe(200);
    await redis.close();

    // Each instance now counts alone: its own 4, whatever the other did.
    for (const instance of [first, second]) {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await banner(instance)).status);
      expect(statuses).toEqual([200, 200, 200, 200, 429]);
    }
    for (const instance of [first, second]) {
      // Asked again a second later, Redis is still down: said once a minute, not at each attempt.
      instance.clock.now += 1_000;
      await health(instance);
      await Bun.sleep(100);
      const lines = redisWarnings(instance);
      expect(lines).toHaveLength(1);
      expect(lines[0]!.msg).toStartWith(`Redis at ${redis.url}`);
      expect(lines[0]!.msg).toContain("rate limits are counted by this instance alone until it does");
      const { status, body } = await health(instance);
      expect(status).toBe(200);
      expect(body.ok).toBe(true);
      expect(body.limits.shared).toBe(false);
      expect(body.limits.problem).toContain("this instance counts rate limits alone");
    }

    // Back, empty, on the same port. Each instance asks again once a second, on a request or a /healthz.
    redis = await startRedis({ port: Number(new URL(redis.url).port) });
    for (const instance of [first, second]) {
      instance.clock.now += 1_000;
      await health(instance);
      await waitFor(async () => (await health(instance)).body.limits.shared === true);
    }
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await banner([first, second][i % 2]!)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    expect((await inRedis(`pennant:limit:requests:${CLIENT}`)).count).toBe("4");
    expect(redisWarnings(first)).toHaveLength(1);
    expect(first.logs().some((line) => line.msg === "Redis answers again: rate limits are shared through it again")).toBe(true);
  });

  test("an instance started while Redis is down starts counting alone and shares once Redis answers", async () => {
    const port = Number(new URL(redis.url).port);
    await redis.close();
    const [alone] = await twoInstances({ PENNANT_RATE_LIMIT: "2/60" });
    expect((await banner(alone)).status).toBe(200);
    expect((await health(alone)).body.limits.shared).toBe(false);
    redis = await startRedis({ port });
    alone.clock.now += 1_000;
    await health(alone);
    await waitFor(async () => (await health(alone)).body.limits.shared === true);
    expect((await banner(alone)).status).toBe(200);
    expect((await inRedis(`pennant:limit:requests:${CLIENT}`)).count).toBe("1");
  });
});

describe("Redis stalled", () => {
  test("a check waits at most its deadline, then counts in-process until Redis answers again", async () => {
    const [instance] = await twoInstances({ PENNANT_RATE_LIMIT: "5/60" });
    expect((await banner(instance)).status).toBe(200);
    const client = new RedisClient(redis.url);
    track(() => client.close());
    // Redis holds every command of every client for 800 ms, as a stalled server would.
    await client.send("CLIENT", ["PAUSE", "800", "ALL"]);
    const started = performance.now();
    const stalled = await banner(instance);
    expect(stalled.status).toBe(200);
    expect(performance.now() - started).toBeLessThan(400);
    expect((await health(instance)).body.limits.shared).toBe(false);
    await Bun.sleep(800);
    instance.clock.now += 1_000;
    await health(instance);
    await waitFor(async () => (await health(instance)).body.limits.shared === true);
  });
});

/** Resolves once `check` holds; asks every 20 ms for at most 2 s. */
async function waitFor(check: () => Promise<boolean>): Promise<void> {
  for (let waited = 0; waited < 2_000; waited += 20) {
    if (await check()) return;
    await Bun.sleep(20);
  }
  throw new Error("still not so after 2 s");
}
