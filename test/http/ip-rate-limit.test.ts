import { afterEach, describe, expect, test } from "bun:test";
import { budgetKey, spendIpBudget } from "../../src/http/ip-rate-limit.ts";
import { RateLimiter } from "../../src/http/rate-limit.ts";
import type { Resolver } from "../../src/lookup/dns.ts";
import { LookupService } from "../../src/lookup/lookup-service.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { json } from "../support/signing.ts";

describe("budgetKey", () => {
  test("an IPv4 address is its own budget", () => {
    expect(budgetKey("198.51.100.7")).toBe("198.51.100.7");
    expect(budgetKey("198.51.100.8")).not.toBe(budgetKey("198.51.100.7"));
  });

  test("IPv6 addresses share a budget per /64, however they are spelled", () => {
    const key = budgetKey("2001:db8:1:2::1");
    for (const spelling of [
      "2001:db8:1:2::",
      "2001:DB8:1:2:FFFF:FFFF:FFFF:FFFF",
      "2001:0db8:0001:0002:0000:0000:0000:0009",
      "2001:db8:1:2:a::b",
      "2001:db8:1:2::1%eth0",
      "2001:db8:1:2::192.0.2.1",
    ]) {
      expect(budgetKey(spelling)).toBe(key);
    }
    expect(budgetKey("2001:db8:1:3::1")).not.toBe(key);
    expect(budgetKey("2001:db8:0:1:2::")).not.toBe(key);
    expect(budgetKey("::1")).toBe(budgetKey("::"));
    expect(budgetKey("fe80::1%eth0")).toBe(budgetKey("fe80::2%wlan0"));
  });

  test("an IPv4-mapped IPv6 address counts as the IPv4 address", () => {
    for (const spelling of ["::ffff:198.51.100.7", "::FFFF:198.51.100.7", "::ffff:c633:6407", "0:0:0:0:0:ffff:c633:6407"]) {
      expect(budgetKey(spelling)).toBe("198.51.100.7");
    }
    expect(budgetKey("::ffff:198.51.100.8")).not.toBe("198.51.100.7");
  });

  test("a /64 whose host part reads like ::ffff:a.b.c.d is still one budget, not 2^32 IPv4 ones", () => {
    const key = budgetKey("2001:db8:1:2::1");
    for (const host of ["0:ffff:c633:6407", "0:ffff:c633:6408", "0:ffff:0:1"]) {
      expect(budgetKey(`2001:db8:1:2:${host}`)).toBe(key);
    }
  });

  test("groups are kept apart: 1:23:4:5::/64 and 12:3:4:5::/64 are two budgets", () => {
    expect(budgetKey("1:23:4:5::1")).not.toBe(budgetKey("12:3:4:5::1"));
  });

  test("anything that is not an IP address falls into one shared budget, never a key of its own", () => {
    expect(budgetKey("unknown")).toBe(budgetKey("x".repeat(5000)));
    expect(budgetKey("x".repeat(5000)).length).toBeLessThanOrEqual(64);
  });
});

describe("spendIpBudget", () => {
  test("a request without a socket address spends the one shared budget of clients that are not an IP", () => {
    const limiter = new RateLimiter({ count: 1, windowSeconds: 60 });
    const request = new Request("http://pennant.test/api/lookup");
    const noAddress = { requestIP: () => null };
    expect(spendIpBudget(limiter, request, noAddress, false)).toMatchObject({ "RateLimit-Remaining": "0" });
    expect(() => spendIpBudget(limiter, request, null, false)).toThrow("too many requests from this address");
  });
});

/** Lookups of blocked literal addresses: no DNS, no socket, just the budget. */
const noDns: Resolver = {
  addresses: async () => [],
  srv: async () => [],
};

let server: TestServer;

function lookup(forwardedFor?: string): Promise<Response> {
  return fetch(`${server.url}/api/lookup?address=10.0.0.1`, {
    headers: forwardedFor === undefined ? {} : { "X-Forwarded-For": forwardedFor },
  });
}

async function start(env: Record<string, string>): Promise<void> {
  server = await startTestServer(env, { lookup: new LookupService({ resolver: noDns }) });
}

describe("the per-IP budget over HTTP (GET /api/lookup)", () => {
  afterEach(async () => {
    await server.close();
  });

  test("a 429 carries Retry-After and the RateLimit-Limit, -Remaining and -Reset headers", async () => {
    await start({ PENNANT_RATE_LIMIT: "2/60" });
    expect((await lookup()).status).toBe(200);
    server.clock.now += 20_000;
    expect((await lookup()).status).toBe(200);
    const limited = await lookup();
    expect(limited.status).toBe(429);
    expect((await json(limited)).error).toEqual({ code: "rate_limited", message: "too many requests from this address; slow down" });
    expect(limited.headers.get("retry-after")).toBe("40");
    expect(limited.headers.get("ratelimit-limit")).toBe("2");
    expect(limited.headers.get("ratelimit-remaining")).toBe("0");
    expect(limited.headers.get("ratelimit-reset")).toBe("40");
    expect(limited.headers.get("access-control-allow-origin")).toBe("*");
  });

  test("a request handed to the app without a socket (app.handle) is answered and spends a budget", async () => {
    await start({ PENNANT_RATE_LIMIT: "1/60" });
    const request = () => server.app.handle(new Request("http://pennant.test/api/lookup?address=10.0.0.1"));
    expect((await request()).status).toBe(200);
    expect((await request()).status).toBe(429);
  });

  test("behind a proxy, IPv6 clients in one /64 share a budget; another /64 has its own", async () => {
    await start({ PENNANT_RATE_LIMIT: "1/60", PENNANT_TRUST_PROXY: "on" });
    expect((await lookup("2001:db8:1:2::1")).status).toBe(200);
    expect((await lookup("2001:db8:1:2::2")).status).toBe(429);
    expect((await lookup("2001:DB8:1:2:ffff:ffff:ffff:ffff")).status).toBe(429);
    expect((await lookup("2001:db8:1:3::1")).status).toBe(200);
  });

  test("behind a proxy, an IPv4-mapped address spends the IPv4 address's budget", async () => {
    await start({ PENNANT_RATE_LIMIT: "1/60", PENNANT_TRUST_PROXY: "on" });
    expect((await lookup("::ffff:198.51.100.7")).status).toBe(200);
    expect((await lookup("198.51.100.7")).status).toBe(429);
  });

  test("behind a proxy, an absurd last X-Forwarded-For entry spends the socket address's budget", async () => {
    await start({ PENNANT_RATE_LIMIT: "1/60", PENNANT_TRUST_PROXY: "on" });
    expect((await lookup(`198.51.100.1, ${"a".repeat(200)}`)).status).toBe(200);
    // Any other junk is the same client (the socket peer, here the test itself), not a new budget.
    expect((await lookup("b".repeat(200))).status).toBe(429);
    expect((await lookup("not-an-ip")).status).toBe(429);
    expect((await lookup()).status).toBe(429);
    expect((await lookup("198.51.100.1")).status).toBe(200);
  });
});
