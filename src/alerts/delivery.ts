// Sending one delivery. The receiver's host is resolved once, by the address
// guard the caller hands in, and the request goes to that address (the URL's
// name kept in Host and, for https, in TLS's server name), so DNS cannot
// answer differently between the check and the connection. Redirects are not
// followed, every request has a deadline, and nothing of the answer but its
// status is kept. A failed attempt is retried with exponential backoff until
// an hour after the event, then dropped.

import { sign } from "../auth/signature.ts";
import type { DueDelivery } from "../store/webhook-records.ts";

/** Where a host may be reached, or why not (lookup/target-address.ts, with this instance's rules). */
export type ResolveTarget = (host: string) => Promise<{ address: string } | { refused: string }>;

/** A receiver has this long to answer: Discord answers in well under a second. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** The first retry waits this long, each later one twice as long as the one before. */
export const FIRST_RETRY_MS = 30_000;
/** No attempt later than this after the event: an alert an hour late is no longer one. */
export const RETRY_FOR_MS = 60 * 60_000;

/** The headers that let a receiver check a delivery: the time, and the HMAC of time + "." + body under the subscription's secret. */
export function signatureHeaders(secret: string, body: string, now: number): Record<string, string> {
  const timestamp = String(Math.floor(now / 1000));
  return { "X-Pennant-Timestamp": timestamp, "X-Pennant-Signature": sign("standard", secret, timestamp, Buffer.from(body)).toString("hex") };
}

/**
 * When to try again after attempt number `attempts` (0 for the first) failed
 * at `now`, or null to give up. A wait that would end past the hour is cut
 * to end at it: the last try comes at the hour, not half an hour before.
 */
export function retryAt(delivery: Pick<DueDelivery, "createdAt" | "attempts">, now: number): number | null {
  const last = delivery.createdAt + RETRY_FOR_MS;
  return now >= last ? null : Math.min(now + FIRST_RETRY_MS * 2 ** delivery.attempts, last);
}

/** The URL to request: the same, with the host replaced by the address it was resolved to. */
function atAddress(url: URL, address: string): URL {
  const target = new URL(url);
  target.hostname = address.includes(":") ? `[${address}]` : address;
  return target;
}

/** Sends the delivery; the answer's status, 0 when there was none (refused address, no connection, timeout, `cancel` aborted). */
export async function send(delivery: DueDelivery, resolve: ResolveTarget, now: number, timeoutMs = DELIVERY_TIMEOUT_MS, cancel?: AbortSignal): Promise<number> {
  const url = new URL(delivery.url);
  const target = await resolve(url.hostname);
  if ("refused" in target) return 0;
  try {
    const response = await fetch(atAddress(url, target.address), {
      method: "POST",
      headers: { Host: url.host, "Content-Type": "application/json", "User-Agent": "Pennant-Webhook", ...signatureHeaders(delivery.secret, delivery.body, now) },
      body: delivery.body,
      redirect: "manual",
      signal: cancel ? AbortSignal.any([AbortSignal.timeout(timeoutMs), cancel]) : AbortSignal.timeout(timeoutMs),
      tls: { serverName: url.hostname },
    });
    // The body is not read: nothing of it is kept.
    await response.body?.cancel();
    return response.status;
  } catch {
    return 0;
  }
}

export const succeeded = (status: number) => status >= 200 && status < 300;
