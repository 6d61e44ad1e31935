// The per-client-IP budgets: PENNANT_RATE_LIMIT, requests shared by the
// public endpoints that cost real work (banners and live lookups draw from the
// same limiter), and PENNANT_DRAW_BUDGET, the cost units of new images
// (src/http/drawing/charged-draws.ts).

import { isIPv4 } from "node:net";
import { ipv6Groups } from "../lookup/address-policy.ts";
import { requestClientIp, type SocketInfo } from "./client-ip.ts";
import { HttpError } from "./errors.ts";
import { rateLimitHeaders, whenDecided, type Limiter, type RateDecision } from "./rate-limit.ts";

/** The one budget of every client whose address is not an IP (no socket address). */
const NOT_AN_IP = "unknown";

/**
 * Which budget an address draws from. An IPv4 address is one client. An IPv6
 * client is its /64: one customer or LAN is routinely given a whole /64 (2^64
 * addresses), so per address it would have a budget without end. IPv4-mapped
 * IPv6 (::ffff:a.b.c.d, how a dual-stack socket reports IPv4 peers) is the IPv4
 * address. Keys are canonical whatever the spelling (case, `::`, zone id).
 */
export function budgetKey(ip: string): string {
  if (isIPv4(ip)) return ip;
  const groups = ipv6Groups(ip);
  if (!groups) return NOT_AN_IP;
  const [high, low] = [groups[6]!, groups[7]!];
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");
  }
  return `${groups.slice(0, 4).map((group) => group.toString(16)).join(":")}::/64`;
}

/** The budget key of the client that sent `request`. */
export function requestBudgetKey(request: Request, server: SocketInfo | null, trustProxy: boolean): string {
  return budgetKey(requestClientIp(request, server, trustProxy));
}

/**
 * Spends one request of the client's budget. Returns the RateLimit-* headers
 * of the decision, for routes that want to show the budget on allowed answers;
 * throws a 429 with Retry-After and the same headers when it is spent. At once
 * from an in-process limiter; a promise of the same from a shared one.
 */
export function spendIpBudget(
  limiter: Limiter,
  request: Request,
  server: SocketInfo | null,
  trustProxy: boolean,
): Record<string, string> | Promise<Record<string, string>> {
  return spendBudget(limiter, requestBudgetKey(request, server, trustProxy), 1, "too many requests from this address; slow down");
}

/** Spends `units` of the budget under `key` as spendIpBudget does; `refusal` is the 429's message. */
export function spendBudget(
  limiter: Limiter,
  key: string,
  units: number,
  refusal: string,
): Record<string, string> | Promise<Record<string, string>> {
  return whenDecided(limiter.take(key, units), (decision) => allowedOrRefused(decision, refusal));
}

function allowedOrRefused(decision: RateDecision, refusal: string): Record<string, string> {
  const limitHeaders = rateLimitHeaders(decision);
  if (!decision.allowed) {
    throw new HttpError(429, "rate_limited", refusal, { ...limitHeaders, "Retry-After": String(decision.retryAfterSeconds) });
  }
  return limitHeaders;
}
