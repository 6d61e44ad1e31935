// Where the rate limits and budgets are counted. Without PENNANT_REDIS_URL,
// in this process (rate-limit.ts), as always. With it, in Redis
// (store/redis/redis-windows.ts), so that N instances behind one load balancer
// give the limits of one: per-instance counters would give N times each budget.
// Each instance leases units of a client's window from Redis and spends them
// itself (window-leases.ts): a client asking slowly costs one Redis script per
// request, one asking fast far fewer.
//
// Redis down or stalled must not take the service down with it: a check that
// Redis does not answer within its deadline is counted by the instance's own
// in-process limiter instead, a warning is logged at most once a minute, and
// /healthz says so (still 200). While Redis is down every check goes straight
// to the in-process limiter, synchronously; at most once a second a check (or
// a /healthz) sends Redis a PING in the background, and the first answer puts
// the shared counts back in use.

import type { RateLimitSetting } from "../config.ts";
import type { Logger } from "../log.ts";
import type { LimitsHealth, LimitsHealthSource } from "../http/healthz.ts";
import { RedisWindows } from "../store/redis/redis-windows.ts";
import { withoutPassword } from "../store/service-url.ts";
import { RateLimiter, tableKey, type Limiter, type RateDecision } from "../http/rate-limit.ts";
import { ThrottledLog } from "../http/throttled-log.ts";
import { LEASE_SHARE, LeaseTable, leaseWanted, type Lease } from "./window-leases.ts";

/** The budgets, named as their Redis keys are: pennant:limit:<name>:<key>. */
export type LimitName = "requests" | "badge_draws" | "draw_units" | "pushes" | "token_pushes" | "registrations" | "webhook_tests" | "admin_requests";

export interface Limits extends LimitsHealthSource {
  /** The counter of one budget, `setting` per key. */
  limiter(name: LimitName, setting: RateLimitSetting): Limiter;
  close(): void;
}

/** Keys each in-process limiter holds at most (rate-limit.ts: about 23 MB when full). */
const MAX_KEYS = 100_000;
/** A Redis that stopped answering is asked again this often. */
const PROBE_INTERVAL_MS = 1_000;
/** Redis unreachable is logged at most this often. */
const WARNING_INTERVAL_MS = 60_000;

/** Today's limits: every budget counted in this process. */
export function inProcessLimits(now: () => number): Limits {
  return {
    limiter: (_name, setting) => new RateLimiter(setting, MAX_KEYS, now),
    health: () => undefined,
    close() {},
  };
}

export interface RedisLimitsDeps {
  now: () => number;
  log: Logger;
  /** Overrides WINDOW_DEADLINE_MS (tests). */
  deadlineMs?: number;
}

/**
 * Every budget counted in the Redis at `url`, each falling back to an
 * in-process limiter of its own while Redis does not answer. Resolves once
 * Redis has answered a first PING, or once it has not within its deadline
 * (the instance then starts on its in-process limiters and keeps asking).
 */
export async function redisLimits(url: string, deps: RedisLimitsDeps): Promise<Limits> {
  const link = new RedisLink(url, deps);
  await link.probe();
  if (link.shared) deps.log.info("rate limits and budgets are shared through Redis", { redis: withoutPassword(url) });
  return {
    limiter: (name, setting) => new SharedLimiter(name, setting, link, new RateLimiter(setting, MAX_KEYS, deps.now)),
    health: () => link.health(),
    close: () => link.close(),
  };
}

/** The connection's state: shared, or down since a time, asked again once a second. */
class RedisLink {
  readonly windows: RedisWindows;
  private downSince: number | null = null;
  private lastProbe = -Infinity;
  private probing = false;
  private readonly warnings: ThrottledLog;

  constructor(
    private readonly url: string,
    private readonly deps: RedisLimitsDeps,
  ) {
    this.windows = new RedisWindows(url, deps.deadlineMs);
    this.warnings = new ThrottledLog(WARNING_INTERVAL_MS, deps.now, (line) => deps.log.warn(line));
  }

  now(): number {
    return this.deps.now();
  }

  get shared(): boolean {
    return this.downSince === null;
  }

  /** Redis did not answer a check or a PING: count in-process until a PING is answered. */
  failed(error: unknown): void {
    this.downSince ??= this.deps.now();
    const reason = error instanceof Error ? error.message : String(error);
    this.warnings.log(
      "unreachable",
      `Redis at ${withoutPassword(this.url)} does not answer (${reason}): rate limits are counted by this instance alone until it does`,
    );
  }

  /** Asks Redis again in the background when it is down and was not asked in the last second. */
  probeIfDue(): void {
    if (this.shared || this.probing || this.deps.now() - this.lastProbe < PROBE_INTERVAL_MS) return;
    void this.probe();
  }

  async probe(): Promise<void> {
    this.probing = true;
    this.lastProbe = this.deps.now();
    try {
      await this.windows.ping();
      if (!this.shared) this.deps.log.info("Redis answers again: rate limits are shared through it again", { redis: withoutPassword(this.url) });
      this.downSince = null;
    } catch (error) {
      this.failed(error);
    } finally {
      this.probing = false;
    }
  }

  health(): LimitsHealth {
    this.probeIfDue();
    if (this.downSince === null) return { shared: true };
    const since = new Date(this.downSince).toISOString();
    return { shared: false, problem: `Redis has not answered since ${since}: this instance counts rate limits alone` };
  }

  close(): void {
    this.windows.close();
  }
}

/**
 * One budget counted in Redis under pennant:limit:<name>:<key>, spent from
 * this instance's leases of it (window-leases.ts), or counted by `local`
 * while Redis is down.
 */
class SharedLimiter implements Limiter {
  private readonly windowMs: number;
  private readonly leases = new LeaseTable(MAX_KEYS);

  constructor(
    private readonly name: LimitName,
    private readonly setting: RateLimitSetting,
    private readonly link: RedisLink,
    private readonly local: RateLimiter,
  ) {
    this.windowMs = setting.windowSeconds * 1000;
  }

  /** At once when this instance's lease decides; else once Redis has answered a lease (or failed to). */
  take(key: string, units = 1): RateDecision | Promise<RateDecision> {
    if (!this.link.shared) {
      this.link.probeIfDue();
      return this.local.take(key, units);
    }
    const stored = tableKey(key);
    const now = this.link.now();
    const lease = this.leases.of(stored, now);
    if (lease.asking) return lease.asking.then(() => this.take(key, units));
    if (units <= lease.left) {
      lease.left -= units;
      return this.decision(true, lease, now);
    }
    if (units > lease.left + lease.sharedLeft) return this.decision(false, lease, now);
    lease.asking = this.ask(stored, lease, units, now);
    return lease.asking.then(() => this.take(key, units));
  }

  /** Leases what a take of `units` needs, or more for a client spending fast; on failure counts in-process from now on. */
  private async ask(stored: string, lease: Lease, units: number, now: number): Promise<void> {
    const limit = this.setting.count;
    try {
      const asked = { ...leaseWanted(lease, units, now), limit, windowMs: this.windowMs, share: LEASE_SHARE };
      const { leased, count, msLeft } = await this.link.windows.lease(`pennant:limit:${this.name}:${stored}`, asked);
      // Counted from before the question: the lease ends no later than the window in Redis.
      lease.endsAt = now + msLeft;
      lease.sharedLeft = limit - count;
      if (leased > 0) Object.assign(lease, { left: lease.left + leased, size: leased, askedAt: now });
    } catch (error) {
      this.link.failed(error);
      this.leases.forget(stored, lease);
    } finally {
      lease.asking = undefined;
    }
  }

  private decision(allowed: boolean, lease: Lease, now: number): RateDecision {
    const limit = this.setting.count;
    return { allowed, retryAfterSeconds: Math.max(1, Math.ceil((lease.endsAt - now) / 1000)), remaining: lease.left + lease.sharedLeft, limit };
  }
}
