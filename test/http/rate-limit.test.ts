import { describe, expect, test } from "bun:test";
import { RateLimiter, rateLimitHeaders, tableKey } from "../../src/http/rate-limit.ts";

/** A limiter of `count` per 60 s over a table of `maxKeys`, with a clock the test moves. */
function limiter(count: number, maxKeys: number) {
  const clock = { now: 1_000_000 };
  return { clock, limiter: new RateLimiter({ count, windowSeconds: 60 }, maxKeys, () => clock.now) };
}

function spend(rl: RateLimiter, key: string, times: number): void {
  for (let i = 0; i < times; i++) rl.take(key);
}

describe("RateLimiter", () => {
  test("counts per key in a fixed window and says how long until it ends", () => {
    const { clock, limiter: rl } = limiter(2, 10);
    expect(rl.take("a")).toEqual({ allowed: true, retryAfterSeconds: 60, remaining: 1, limit: 2 });
    clock.now += 15_500;
    expect(rl.take("a")).toEqual({ allowed: true, retryAfterSeconds: 45, remaining: 0, limit: 2 });
    expect(rl.take("a")).toEqual({ allowed: false, retryAfterSeconds: 45, remaining: 0, limit: 2 });
    expect(rl.take("b").allowed).toBe(true);
    clock.now += 44_500;
    expect(rl.take("a")).toEqual({ allowed: true, retryAfterSeconds: 60, remaining: 1, limit: 2 });
  });

  test("takes several units at once, all or nothing: a take beyond what is left spends nothing", () => {
    const { clock, limiter: rl } = limiter(10, 10);
    expect(rl.take("a", 6)).toEqual({ allowed: true, retryAfterSeconds: 60, remaining: 4, limit: 10 });
    expect(rl.take("a", 5)).toEqual({ allowed: false, retryAfterSeconds: 60, remaining: 4, limit: 10 });
    expect(rl.take("a", 4)).toEqual({ allowed: true, retryAfterSeconds: 60, remaining: 0, limit: 10 });
    expect(rl.take("a").allowed).toBe(false);
    clock.now += 60_000;
    expect(rl.take("a", 10).allowed).toBe(true);
  });

  test("an exhausted key is not forgiven when many other keys push through a small table", () => {
    const { clock, limiter: rl } = limiter(2, 100);
    spend(rl, "abuser", 3);
    for (let i = 0; i < 1_000; i++) rl.take(`other-${i}`);
    expect(rl.take("abuser").allowed).toBe(false);
    clock.now += 59_000;
    for (let i = 0; i < 1_000; i++) rl.take(`later-${i}`);
    expect(rl.take("abuser").allowed).toBe(false);
    clock.now += 1_000; // its window ends
    expect(rl.take("abuser").allowed).toBe(true);
  });

  test("at the default size, 100,001 other keys do not forgive an exhausted key", () => {
    const { clock, limiter: rl } = limiter(1, 100_000);
    spend(rl, "abuser", 2);
    for (let i = 0; i <= 100_000; i++) rl.take(`other-${i}`);
    expect(rl.size).toBeLessThanOrEqual(100_000);
    expect(rl.take("abuser").allowed).toBe(false);
    clock.now += 60_000;
    expect(rl.take("abuser").allowed).toBe(true);
  });

  test("when full, a client that still has budget left is dropped before an exhausted one", () => {
    const { clock, limiter: rl } = limiter(2, 2);
    spend(rl, "exhausted", 2); // the oldest window
    clock.now += 1_000;
    rl.take("half-spent");
    clock.now += 1_000;
    expect(rl.take("newcomer").allowed).toBe(true);
    expect(rl.take("exhausted").allowed).toBe(false);
    // The dropped client starts over: at worst it gets a fresh budget.
    expect(rl.take("half-spent")).toMatchObject({ allowed: true, remaining: 1 });
  });

  test("expired windows are swept before any live client is dropped", () => {
    const { clock, limiter: rl } = limiter(3, 3);
    spend(rl, "old", 3); // exhausted, so only a sweep can free its slot
    clock.now += 30_000;
    rl.take("live-1");
    rl.take("live-2");
    clock.now += 31_000; // "old" has expired, the others have not
    rl.take("newcomer");
    expect(rl.size).toBe(3);
    expect(rl.take("live-1")).toMatchObject({ allowed: true, remaining: 1 });
    expect(rl.take("live-2")).toMatchObject({ allowed: true, remaining: 1 });
  });

  test("when every entry is an exhausted live window, newcomers share one overflow budget", () => {
    const { clock, limiter: rl } = limiter(2, 2);
    spend(rl, "a", 3);
    spend(rl, "b", 3);
    expect(rl.take("c")).toMatchObject({ allowed: true, remaining: 1 });
    expect(rl.take("d")).toMatchObject({ allowed: true, remaining: 0 });
    expect(rl.take("e").allowed).toBe(false);
    expect(rl.take("c").allowed).toBe(false);
    expect(rl.take("a").allowed).toBe(false);
    expect(rl.take("b").allowed).toBe(false);
    expect(rl.size).toBe(2);
    clock.now += 60_000;
    for (const key of ["a", "b", "c"]) expect(rl.take(key).allowed).toBe(true);
  });

  test("the overflow budget is a window like any other: it says when it ends and starts afresh after it", () => {
    const { clock, limiter: rl } = limiter(1, 2);
    spend(rl, "a", 1);
    spend(rl, "b", 1);
    expect(rl.take("c")).toEqual({ allowed: true, retryAfterSeconds: 60, remaining: 0, limit: 1 });
    clock.now += 20_000;
    expect(rl.take("d")).toEqual({ allowed: false, retryAfterSeconds: 40, remaining: 0, limit: 1 });
    // A minute on, the table fills with exhausted windows again: newcomers get a new overflow budget.
    clock.now += 40_000;
    spend(rl, "e", 1);
    spend(rl, "f", 1);
    expect(rl.take("g")).toMatchObject({ allowed: true, retryAfterSeconds: 60 });
  });

  test("the table never holds more than maxKeys entries, whatever the mix of keys", () => {
    const { clock, limiter: rl } = limiter(3, 50);
    let largest = 0;
    for (let i = 0; i < 5_000; i++) {
      // Some keys come back and exhaust themselves, most are one-offs; time moves on.
      const key = i % 7 === 0 ? `regular-${i % 91}` : `once-${i}`;
      rl.take(key);
      largest = Math.max(largest, rl.size);
      clock.now += 17;
    }
    expect(largest).toBe(50);
  });

  test("long keys are stored as fixed-length digests and still counted apart", () => {
    const { limiter: rl } = limiter(1, 10);
    const long = "k".repeat(10_000);
    expect(rl.take(long).allowed).toBe(true);
    expect(rl.take(long).allowed).toBe(false);
    expect(rl.take(`${long}2`).allowed).toBe(true);
  });
});

describe("tableKey", () => {
  test("keeps keys of up to 64 characters and digests longer ones to at most 64", () => {
    const hash = "f".repeat(64);
    expect(tableKey(hash)).toBe(hash);
    expect(tableKey("198.51.100.7")).toBe("198.51.100.7");
    const long = tableKey("x".repeat(65));
    expect(long).toMatch(/^#[A-Za-z0-9_-]{43}$/); // "#" and a SHA-256 in base64url: 44 characters
    expect(long).not.toBe(tableKey(`${"x".repeat(64)}y`));
    expect(long).not.toBe("x".repeat(64));
  });
});

describe("rateLimitHeaders", () => {
  test("gives the IETF draft RateLimit-Limit, -Remaining and -Reset fields", () => {
    expect(rateLimitHeaders({ allowed: true, retryAfterSeconds: 42, remaining: 7, limit: 120 })).toEqual({
      "RateLimit-Limit": "120",
      "RateLimit-Remaining": "7",
      "RateLimit-Reset": "42",
    });
  });
});
