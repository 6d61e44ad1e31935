// Connecting to Redis (src/store/redis/open-redis.ts) against a real server
// from Debian's package (test/support/redis.ts), and a clear, bounded failure
// when it is down or does not answer.

import { beforeAll, describe, expect, test } from "bun:test";
import { openRedis } from "../../src/store/redis/open-redis.ts";
import { track } from "../support/cleanup.ts";
import { startRedis, type Redis } from "../support/redis.ts";
import { silentPort } from "../support/services.ts";

let redis: Redis;
beforeAll(async () => {
  redis = await startRedis();
});

describe("openRedis", () => {
  test("answers PING and keeps what it is given", async () => {
    const client = await openRedis(redis.url);
    track(() => client.close());
    expect(await client.send("PING", [])).toBe("PONG");
    expect(await client.set("pennant:test", "1", "NX", "PX", "10000")).toBe("OK");
    expect(await client.get("pennant:test")).toBe("1");
  });

  test("a stopped Redis fails within the timeout, saying so", async () => {
    const gone = await startRedis();
    await gone.close();
    const started = performance.now();
    await expect(openRedis(gone.url, 300)).rejects.toThrow(`cannot reach Redis at ${gone.url}: no answer within 300 ms`);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  test("a server that accepts the connection but never answers fails within the timeout", async () => {
    const url = `redis://127.0.0.1:${await silentPort()}`;
    const started = performance.now();
    await expect(openRedis(url, 300)).rejects.toThrow(`cannot reach Redis at ${url}: no answer within 300 ms`);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  test("the error names Redis without its password", async () => {
    const gone = await startRedis();
    await gone.close();
    const url = gone.url.replace("redis://", "redis://:s3cret@");
    const error = await openRedis(url, 100).catch((failure: Error) => failure);
    expect(String(error)).toContain(`cannot reach Redis at ${gone.url.replace("redis://", "redis://:***@")}`);
    expect(String(error)).not.toContain("s3cret");
  });
});
