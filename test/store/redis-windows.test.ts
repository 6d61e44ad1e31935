// The fixed-window script (src/store/redis/redis-windows.ts) against a real
// Redis: leases all or nothing for what they need like the in-process
// limiter, more only within 1/share of what is left, every key bounded by its
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

/** A lease of exactly `units`, as a take of the in-process limiter. */
const exactly = (units: number, limit: number, windowMs: number) => ({ need: units, want: units, limit, windowMs, share: 8 });

describe("RedisWindows.lease", () => {
  test("leases what is needed all or nothing: a lease beyond what is left leases nothing", async () => {
    const windows = await connected(redis.url);
    const key = "pennant:limit:test:units";
    expect(await windows.lease(key, exactly(3, 5, 60_000))).toMatchObject({ leased: 3, count: 3 });
    expect(await windows.lease(key, exactly(3, 5, 60_000))).toMatchObject({ leased: 0, count: 3 });
    expect(await windows.lease(key, exactly(2, 5, 60_000))).toMatchObject({ leased: 2, count: 5 });
    expect(await windows.lease(key, exactly(1, 5, 60_000))).toMatchObject({ leased: 0, count: 5 });
    expect(await windows.lease("pennant:limit:test:too-big", exactly(6, 5, 60_000))).toMatchObject({ leased: 0, count: 0 });
  });

  test("leases more than needed only up to 1/share of what the window has left", async () => {
    const windows = await connected(redis.url);
    const key = "pennant:limit:test:share";
    const asked = (need: number, want: number) => ({ need, want, limit: 100, windowMs: 60_000, share: 8 });
    expect(await windows.lease(key, asked(1, 4))).toMatchObject({ leased: 4, count: 4 });
    // 96 left: at most 12.
    expect(await windows.lease(key, asked(1, 50))).toMatchObject({ leased: 12, count: 16 });
    expect(await windows.lease(key, asked(30, 50))).toMatchObject({ leased: 30, count: 46 });
    // 54 left: 6; then 48 left: 6; ... down to one unit at a time under 16 left.
    expect(await windows.lease(key, asked(1, 50))).toMatchObject({ leased: 6, count: 52 });
    expect(await windows.lease(key, asked(33, 33))).toMatchObject({ leased: 33, count: 85 });
    expect(await windows.lease(key, asked(1, 50))).toMatchObject({ leased: 1, count: 86 });
  });

  test("a window's key expires with it, and says how long it has left", async () => {
    const windows = await connected(redis.url);
    const key = "pennant:limit:test:expiry";
    const first = await windows.lease(key, exactly(1, 2, 300));
    expect(first.msLeft).toBeGreaterThan(0);
    expect(first.msLeft).toBeLessThanOrEqual(300);
    const client = new RedisClient(redis.url);
    track(() => client.close());
    expect(await client.pttl(key)).toBeGreaterThan(0);
    await windows.lease(key, exactly(1, 2, 300));
    expect((await windows.lease(key, exactly(1, 2, 300))).leased).toBe(0);
    await Bun.sleep(350);
    expect(await client.exists(key)).toBe(false);
    expect(await windows.lease(key, exactly(1, 2, 300))).toMatchObject({ leased: 1, count: 1 });
  });

  test("a lease that Redis holds up fails at its deadline", async () => {
    const windows = await connected(redis.url, 100);
    const client = new RedisClient(redis.url);
    track(() => client.close());
    await client.send("CLIENT", ["PAUSE", "600", "ALL"]);
    const started = performance.now();
    await expect(windows.lease("pennant:limit:test:paused", exactly(1, 1, 1_000))).rejects.toThrow("no answer within 100 ms");
    expect(performance.now() - started).toBeLessThan(400);
  });
});
