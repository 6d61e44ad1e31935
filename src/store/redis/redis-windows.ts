// Fixed-window counters in Redis, shared by every instance that counts in the
// same Redis, which lease units of a window and spend them themselves
// (src/serve/window-leases.ts): one script per lease, so that reading the
// count, leasing and starting the window's expiry happen as one step no
// other instance can interleave with (one connection carries every request's commands, so a
// MULTI would mix requests; a script runs alone on the server).

import { RedisClient } from "bun";
import { withinMs } from "./deadline.ts";

/**
 * How long connecting and each script may take. Redis answers a command in
 * well under a millisecond on loopback or a network near by (bench/backends.ts):
 * one that has not answered in a second is down or cut off, and the caller
 * counts in-process instead of holding the request.
 */
const REDIS_TIMEOUT_MS = 1_000;

/**
 * KEYS[1] the window; ARGV need, want, limit, window length in ms, share.
 * Leases units of the window: all or nothing for `need` (as the in-process
 * limiter, src/http/rate-limit.ts: a take beyond what is left spends
 * nothing), and up to `want` when what is left allows, but never more than
 * 1/share of what is left (so that the last units of a window go out one by
 * one, to whichever instance asks). The window's expiry is set when its first
 * lease creates it (a key without one, which no lease of ours leaves, gets one
 * too), so every key goes away with its window. Returns {units leased (0:
 * refused), count after, ms left}.
 */
export const WINDOW_SCRIPT = `
local need = tonumber(ARGV[1])
local want = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
local leased = 0
if count + need <= limit then
  leased = math.max(need, math.min(want, math.floor((limit - count) / tonumber(ARGV[5]))))
  count = redis.call('INCRBY', KEYS[1], leased)
end
local ttl = redis.call('PTTL', KEYS[1])
if ttl == -1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
  ttl = tonumber(ARGV[4])
elseif ttl == -2 then
  ttl = tonumber(ARGV[4])
end
return {leased, count, ttl}
`;

const SCRIPT_SHA1 = new Bun.CryptoHasher("sha1").update(WINDOW_SCRIPT).digest("hex");

/**
 * A lease answers in about 0.04 ms on loopback (notes: scale-out
 * facts) and well under a millisecond on a network near by. One that has
 * not answered in 100 ms is down, cut off or stalled: the request is not held
 * longer, its take is counted in-process instead.
 */
export const WINDOW_DEADLINE_MS = 100;

/** One lease of a window's units as Redis counted it. */
export interface WindowLease {
  /** Units leased: at least the units needed, or 0 when the window had fewer left. */
  leased: number;
  /** Units leased out of the window after this lease, to every instance. */
  count: number;
  /** Milliseconds until the window ends. */
  msLeft: number;
}

/** What one lease asks of a window (see WINDOW_SCRIPT). */
export interface LeaseAsked {
  need: number;
  want: number;
  limit: number;
  windowMs: number;
  share: number;
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
   * Leases at least `need` and at most `want` units of the window under `key`
   * (at most `limit` per `windowMs`), never more than 1/`share` of what it has
   * left beyond `need`. EVALSHA sends the script's digest only; a Redis that
   * does not know the script (first use, or restarted since) gets it once
   * with EVAL.
   */
  async lease(key: string, { need, want, limit, windowMs, share }: LeaseAsked): Promise<WindowLease> {
    const args = ["1", key, String(need), String(want), String(limit), String(windowMs), String(share)];
    const answer = await withinMs(
      this.deadlineMs,
      this.client.send("EVALSHA", [SCRIPT_SHA1, ...args]).catch((error: Error) => {
        if (!error.message.startsWith("NOSCRIPT")) throw error;
        return this.client.send("EVAL", [WINDOW_SCRIPT, ...args]);
      }),
    );
    const [leased, count, msLeft] = answer as [number, number, number];
    return { leased, count, msLeft };
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
