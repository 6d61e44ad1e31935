// The fixed-window script (src/store/redis/redis-windows.ts) against a real
// Redis: all or nothing like the in-process limiter, every key bounded by its
// window's expiry, and a deadline on every call.

import { beforeAll, describe, expect, test } from "bun:test";
import { RedisClient } from "bun";
import { RedisWindows } from "../../src/store/redis/redis-windows.ts";
import { track } from "../support/cleanup.ts";
import { startRedis, type Redis } from "../support/redis.ts";

let redis: Redis;
beforeAll(async () => {
  redis = await startRedis();
});

async function connected(url: string, deadlineMs?: number): Promise<RedisWindows> {
  const windows = new RedisWindows(url, deadlineMs);
  track(() => windows.close());
  await windows.ping();
  return windows;
}

describe("RedisWindows.take", () => {
  test("spends units all or nothing: a take beyond what is left spends nothing", async () => {
    const windows = await connected(redis.url);
    const key = "pennant:limit:test:units";
    expect(await windows.take(key, 3, 5, 60_000)).toMatchObject({ allowed: true, count: 3 });
    expect(await windows.take(key, 3, 5, 60_000)).toMatchObject({ allowed: false, count: 3 });
    expect(await windows.take(key, 2, 5, 60_000)).toMatchObject({ allowed: true, count: 5 });
    expect(await windows.take(key, 1, 5, 60_000)).toMatchObject({ allowed: false, count: 5 });
    expect(await windows.take("pennant:limit:test:too-big", 6, 5, 60_000)).toMatchObject({ allowed: false, count: 0 });
  });

  test("a window's key expires with it, and says how long it has left", async () => {
    const windows = await connected(redis.url);
    const key = "pennant:limit:test:expiry";
    const first = await windows.take(key, 1, 2, 300);
    expect(first.msLeft).toBeGreaterThan(0);
    expect(first.msLeft).toBeLessThanOrEqual(300);
    const client = new RedisClient(redis.url);
    track(() => client.close());
    expect(await client.pttl(key)).toBeGreaterThan(0);
    await windows.take(key, 1, 2, 300);
    expect((await windows.take(key, 1, 2, 300)).allowed).toBe(false);
    await Bun.sleep(350);
    expect(await client.exists(key)).toBe(false);
    expect(await windows.take(key, 1, 2, 300)).toMatchObject({ allowed: true, count: 1 });
  });

  test("a take that Redis holds up fails at its deadline", async () => {
    const windows = await connected(redis.url, 100);
    const client = new RedisClient(redis.url);
    track(() => client.close());
    await client.send("CLIENT", ["PAUSE", "600", "ALL"]);
    const started = performance.now();
    await expect(windows.take("pennant:limit:test:paused", 1, 1, 1_000)).rejects.toThrow("no answer within 100 ms");
    expect(performance.now() - started).toBeLessThan(400);
  });
});
