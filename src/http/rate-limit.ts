// A fixed-window request counter per key (client IP, API token), bounded in
// memory: when the table is full the oldest windows are dropped first, which at
// worst forgives a few clients early and never grows without limit.

import type { RateLimitSetting } from "../config.ts";

export interface RateDecision {
  allowed: boolean;
  /** Whole seconds until the current window ends (for Retry-After). */
  retryAfterSeconds: number;
  remaining: number;
}

interface Window {
  startedAt: number;
  count: number;
}

export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  private readonly windowMs: number;

  constructor(
    private readonly setting: RateLimitSetting,
    private readonly maxKeys = 100_000,
    private readonly now: () => number = Date.now,
  ) {
    this.windowMs = setting.windowSeconds * 1000;
  }

  take(key: string): RateDecision {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || now - window.startedAt >= this.windowMs) {
      // Re-insert so that Map order stays oldest-window-first for eviction.
      this.windows.delete(key);
      window = { startedAt: now, count: 0 };
      this.windows.set(key, window);
      this.evictOverflow();
    }
    const retryAfterSeconds = Math.max(1, Math.ceil((window.startedAt + this.windowMs - now) / 1000));
    if (window.count >= this.setting.count) {
      return { allowed: false, retryAfterSeconds, remaining: 0 };
    }
    window.count += 1;
    return { allowed: true, retryAfterSeconds, remaining: this.setting.count - window.count };
  }

  get size(): number {
    return this.windows.size;
  }

  private evictOverflow(): void {
    for (const key of this.windows.keys()) {
      if (this.windows.size <= this.maxKeys) break;
      this.windows.delete(key);
    }
  }
}
