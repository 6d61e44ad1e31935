// A fixed-window counter per key (a client's IP budget, an API token
// hash), bounded in entries and in bytes, whose eviction never forgives an
// abuser within its window.
//
// Every window is as long as every other and a key is (re)inserted when its
// window starts, so the table's insertion order is also expiry order: expired
// windows (the same as absent ones) are swept from the front whenever a window
// starts, each once. When the table is still full, the oldest window that has
// budget left is dropped; at worst that client starts over with a full budget.
// An exhausted live window is never dropped: if it were, anyone holding enough
// addresses could push their own exhausted entry out and start afresh. When
// every entry is an exhausted live window (full budgets spent from maxKeys
// clients within one window), newcomers share one overflow budget until windows
// expire: honest newcomers may be refused for at most a window, but nobody
// already refused is let back in and the table does not grow.
//
// Memory: keys longer than MAX_KEY_LENGTH are stored as a 44-character digest,
// so an entry is a short string, a Map slot, a Set slot and a two-number
// object. Measured with Bun 1.4.5 (bench/rate-limit-memory.ts), a full table of
// 100,000 keys holds 23 MB of heap with 64-character keys (token hashes) and
// 21 MB with the longest per-IP keys (an IPv6 /64, 24 characters).

import { createHash } from "node:crypto";
import type { RateLimitSetting } from "../config.ts";

export interface RateDecision {
  allowed: boolean;
  /** Whole seconds until the current window ends (for Retry-After). */
  retryAfterSeconds: number;
  remaining: number;
  /** Requests (or units) allowed per window. */
  limit: number;
}

/**
 * What every budget check asks of its counter. The in-process RateLimiter
 * decides at once; a shared one (shared-limits.ts) may need a round trip to
 * Redis. Callers go on with `whenDecided`, so that the in-process decision
 * stays synchronous: no promise, no microtask on the hottest path (a cached
 * banner answered in Bun's router).
 */
export interface Limiter {
  /** Spends `units` of `key`'s window, all or nothing. */
  take(key: string, units?: number): RateDecision | Promise<RateDecision>;
}

/** `then(value)` at once when `value` is at hand, else once it resolves. */
export function whenDecided<T, R>(value: T | Promise<T>, then: (value: T) => R): R | Promise<Awaited<R>> {
  return value instanceof Promise ? (value.then(then) as Promise<Awaited<R>>) : then(value);
}

interface Window {
  startedAt: number;
  count: number;
}

/** Longest key stored as given: a SHA-256 hex token hash, or any IP budget key. */
const MAX_KEY_LENGTH = 64;

/** The key as stored: itself up to MAX_KEY_LENGTH characters, else a "#"-marked digest (44 characters). */
export function tableKey(key: string): string {
  if (key.length <= MAX_KEY_LENGTH) return key;
  return `#${createHash("sha256").update(key, "utf8").digest("base64url")}`;
}

/** The IETF draft RateLimit fields (draft-ietf-httpapi-ratelimit-headers) for one decision. */
export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  return {
    "RateLimit-Limit": String(decision.limit),
    "RateLimit-Remaining": String(decision.remaining),
    "RateLimit-Reset": String(decision.retryAfterSeconds),
  };
}

export class RateLimiter implements Limiter {
  /** Every window in the table, oldest first (Map keeps insertion order). */
  private readonly windows = new Map<string, Window>();
  /** Keys whose window still has budget left, oldest first: the only ones eviction may drop. */
  private readonly open = new Set<string>();
  /** Shared by newcomers while the table is full of exhausted live windows. */
  private overflow: Window = { startedAt: -Infinity, count: 0 };
  private readonly windowMs: number;

  constructor(
    private readonly setting: RateLimitSetting,
    private readonly maxKeys = 100_000,
    private readonly now: () => number = Date.now,
  ) {
    this.windowMs = setting.windowSeconds * 1000;
  }

  /**
   * Spends `units` of `key`'s window (one request; a draw's cost units), all
   * or nothing: a take beyond what is left spends nothing.
   */
  take(key: string, units = 1): RateDecision {
    const now = this.now();
    const stored = tableKey(key);
    const window = this.liveWindow(stored, now) ?? this.startWindow(stored, now);
    if (window) return this.spend(window, now, units, stored);
    if (this.expired(this.overflow, now)) this.overflow = { startedAt: now, count: 0 };
    return this.spend(this.overflow, now, units);
  }

  get size(): number {
    return this.windows.size;
  }

  private liveWindow(key: string, now: number): Window | undefined {
    const window = this.windows.get(key);
    if (window && this.expired(window, now)) {
      this.forget(key);
      return undefined;
    }
    return window;
  }

  /** A new window for `key`, or undefined when every slot holds an exhausted live window. */
  private startWindow(key: string, now: number): Window | undefined {
    this.sweep(now);
    if (this.windows.size >= this.maxKeys) {
      const oldestOpen = this.open.values().next();
      if (oldestOpen.done) return undefined;
      this.forget(oldestOpen.value);
    }
    const window = { startedAt: now, count: 0 };
    this.windows.set(key, window);
    this.open.add(key);
    return window;
  }

  private spend(window: Window, now: number, units: number, key?: string): RateDecision {
    const limit = this.setting.count;
    const retryAfterSeconds = Math.max(1, Math.ceil((window.startedAt + this.windowMs - now) / 1000));
    if (window.count + units > limit) return { allowed: false, retryAfterSeconds, remaining: limit - window.count, limit };
    window.count += units;
    if (window.count === limit && key !== undefined) this.open.delete(key);
    return { allowed: true, retryAfterSeconds, remaining: limit - window.count, limit };
  }

  /** Drops expired windows from the front; stops at the first live one (insertion order is expiry order). */
  private sweep(now: number): void {
    for (const [key, window] of this.windows) {
      if (!this.expired(window, now)) return;
      this.forget(key);
    }
  }

  private expired(window: Window, now: number): boolean {
    return now - window.startedAt >= this.windowMs;
  }

  private forget(key: string): void {
    this.windows.delete(key);
    this.open.delete(key);
  }
}
