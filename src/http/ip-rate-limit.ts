// The per-client-IP budget (PENNANT_RATE_LIMIT) shared by the public endpoints
// that cost real work: banners and live lookups draw from the same limiter.

import { clientIp } from "./client-ip.ts";
import { HttpError } from "./errors.ts";
import type { RateLimiter } from "./rate-limit.ts";

interface SocketInfo {
  requestIP(request: Request): { address: string } | null;
}

/** Spends one request of the client's budget; throws a 429 with Retry-After when it is spent. */
export function spendIpBudget(
  limiter: RateLimiter,
  request: Request,
  server: SocketInfo | null,
  trustProxy: boolean,
  headers: Record<string, string> = {},
): void {
  const ip = clientIp(request, server?.requestIP(request)?.address, trustProxy);
  const decision = limiter.take(ip);
  if (!decision.allowed) {
    throw new HttpError(429, "rate_limited", "too many requests from this address; slow down", {
      ...headers,
      "Retry-After": String(decision.retryAfterSeconds),
    });
  }
}
