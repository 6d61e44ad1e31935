// What reading servers' history from the store costs a client: one unit of its
// draw budget (PENNANT_DRAW_BUDGET, per address or IPv6 /64) per
// BUCKETS_PER_UNIT buckets read (src/store/history-ranges.ts; 720 buckets are
// about a millisecond of SQLite, under a 468x60 banner's drawing, which costs
// one unit too). Reads the cache answers cost nothing. So a client that asks
// for the uncached charts of a large network spends its budget as one that
// asks for that many new banners, and is refused (429) where it would be.

import type { ReadCharge } from "../store/history-ranges.ts";
import type { SocketInfo } from "./client-ip.ts";
import { requestBudgetKey, spendBudget } from "./ip-rate-limit.ts";
import type { Limiter } from "./rate-limit.ts";

export const BUCKETS_PER_UNIT = 720;

/** The charge of the history reads of one request. */
export type HistoryChargeFor = (request: Request, server: SocketInfo | null) => ReadCharge;

/**
 * Charges per request: the buckets of its reads add up, and each whole unit
 * is spent when reached (the first read of a request spends one at once, so
 * no request reads for free); a fraction left at the end is not charged.
 */
export function historyCharges(drawUnits: Limiter, trustProxy: boolean): HistoryChargeFor {
  return (request, server) => {
    const client = requestBudgetKey(request, server, trustProxy);
    let owed = 1 - 1 / BUCKETS_PER_UNIT;
    return (buckets) => {
      owed += buckets / BUCKETS_PER_UNIT;
      const units = Math.floor(owed);
      if (units === 0) return;
      owed -= units;
      return spendBudget(drawUnits, client, units, "this address has read too much history lately; slow down");
    };
  };
}
