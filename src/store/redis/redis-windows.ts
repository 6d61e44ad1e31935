// Fixed-window counters in Redis, shared by every instance that counts in the
// same Redis: one script per check, so that reading the count, spending and
// starting the window's expiry happen as one step no other instance can
// interleave with (one connection carries every request's commands, so a
// MULTI would mix requests; a script runs alone on the server).

import { RedisClient } from "bun";
import { withinMs } from "./deadline.ts";
import { REDIS_TIMEOUT_MS } from "./open-redis.ts";

/**
 * KEYS[1] the window; ARGV units, limit, window length in ms. All or nothing,
 * as the in-process limiter (src/http/rate-limit.ts): a take beyond what is
 * left spends nothing. The window's expiry is set when its first take creates
 * it (a key without one, which no take of ours leaves, gets one too), so every
 * key goes away with its window. Returns {allowed 1/0, count after, ms left}.
 */
export const WINDOW_SCRIPT = `
local units = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
local allowed = 0
if count + units <= limit then
  count = redis.call('INCRBY', KEYS[1], units)
  allowed = 1
end
local ttl = redis.call('PTTL', KEYS[1])
if ttl == -1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  ttl = tonumber(ARGV[3])
elseif ttl == -2 then
  ttl = tonumber(ARGV[3])
end
return {allowed, count, ttl}
`;

const SCRIPT_SHA1 = new Bun.CryptoHasher("sha1").update(WINDOW_SCRIPT).digest("hex");

/**
 * A window's check answers in about 0.04 ms on loopback (notes: scale-out
 * facts) and well under a millisecond on a network near by. One that has
 * not answered in 100 ms is down, cut off or stalled: the request is not held
 * longer, its check is counted in-process instead.
 */
export const WINDOW_DEADLINE_MS = 100;

/** One take of a window as Redis counted it. */
export interface WindowTake {
  allowed: boolean;
  /** Units spent in the window after this take. */
  count: number;
  /** Milliseconds until the window ends. */
  msLeft: number;
}

/** The windows kept in one Redis, over one connection; every call has a deadline. */
export class RedisWindows {
  private readonly client: RedisClient;

  /**
   * Connects at the first ping(), not here. Commands sent while disconnected
   * fail at once instead of waiting in a queue: the caller counts in-process
   * now. The caller reconnects (ping) rather than Bun's client by itself:
   * measured with Bun 1.4.5, its connect() to a closed port keeps retrying
   * for 31 s before it fails, and then never connects again on its own.
   */
  constructor(
    url: string,
    private readonly deadlineMs: number = WINDOW_DEADLINE_MS,
  ) {
    this.client = new RedisClient(url, { connectionTimeout: REDIS_TIMEOUT_MS, enableOfflineQueue: false, autoReconnect: false });
  }

  /**
   * Spends `units` of the window under `key` (at most `limit` per `windowMs`).
   * EVALSHA sends the script's digest only; a Redis that does not know the
   * script (first use, or restarted since) gets it once with EVAL.
   */
  async take(key: string, units: number, limit: number, windowMs: number): Promise<WindowTake> {
    const args = ["1", key, String(units), String(limit), String(windowMs)];
    const answer = await withinMs(
      this.deadlineMs,
      this.client.send("EVALSHA", [SCRIPT_SHA1, ...args]).catch((error: Error) => {
        if (!error.message.startsWith("NOSCRIPT")) throw error;
        return this.client.send("EVAL", [WINDOW_SCRIPT, ...args]);
      }),
    );
    const [allowed, count, msLeft] = answer as [number, number, number];
    return { allowed: allowed === 1, count, msLeft };
  }

  /** Resolves once Redis answers PING, connecting first if the connection is down. */
  async ping(): Promise<void> {
    if (!this.client.connected) await withinMs(REDIS_TIMEOUT_MS, this.client.connect());
    const answer = await withinMs(this.deadlineMs, this.client.send("PING", []));
    if (answer !== "PONG") throw new Error(`it answered PING with ${JSON.stringify(answer)}`);
  }

  close(): void {
    this.client.close();
  }
}
