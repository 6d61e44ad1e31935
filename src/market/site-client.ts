// Requests to one marketplace's public API: GET only, under the API's base
// URL (PENNANT_*_URL), with a User-Agent naming Pennant (Modrinth's API asks
// for one that identifies the program, Spiget and CFWidget ask to be used
// considerately), a deadline covering the headers and the whole body, a
// bounded body, no redirect followed, at most a few requests in flight per
// site and a bounded number waiting for them. A 429 pauses the site for its
// Retry-After (at most PAUSE_MAX_MS): no request goes to it meanwhile.
// Anything but a JSON answer (or a 404, which says "no such thing") is a
// MarketUnavailable: the caller serves the last value it has.

import { boundedText } from "../bounded-body.ts";

/** Why a site gave no usable answer: down, slow, limiting us, or answering what its API does not. */
export class MarketUnavailable extends Error {
  /** `retrySoon`: the site said to ask again in a few seconds (CFWidget's 202 while it fetches a project it did not know). */
  constructor(message: string, readonly retrySoon = false) {
    super(message);
    this.name = "MarketUnavailable";
  }
}

export interface SiteClientOptions {
  /** The API's root, no trailing slash ("https://api.modrinth.com/v2"). */
  baseUrl: string;
  userAgent: string;
  /** One request's deadline, headers and body. */
  timeoutMs: number;
  /** Requests in flight to this site at once. */
  maxInFlight: number;
  /** Requests waiting for a turn; one more is refused at once. */
  maxWaiting: number;
  now: () => number;
}

/** The longest pause a 429 imposes, and the pause when it names none. */
const PAUSE_MAX_MS = 10 * 60_000;
const PAUSE_DEFAULT_MS = 60_000;

/** Seconds (or an HTTP date) of a Retry-After header, as a pause within [1 s, PAUSE_MAX_MS]. */
function retryAfterMs(header: string | null, now: number): number {
  if (header === null) return PAUSE_DEFAULT_MS;
  const seconds = /^\d{1,9}$/.test(header.trim()) ? Number(header) * 1000 : Date.parse(header) - now;
  return Number.isFinite(seconds) ? Math.min(Math.max(seconds, 1000), PAUSE_MAX_MS) : PAUSE_DEFAULT_MS;
}

export class SiteClient {
  private inFlight = 0;
  private readonly waiting: Array<() => void> = [];
  private pausedUntil = 0;
  /** Requests sent, for /metrics and tests. */
  sent = 0;

  constructor(private readonly options: SiteClientOptions) {}

  /**
   * GET `path` (with its query) under the base URL: the JSON document, or
   * null when the site answers 404 (or one of `notFound`). Throws
   * MarketUnavailable for anything else.
   */
  async json(path: string, maxBytes: number, notFound: readonly number[] = [404]): Promise<unknown> {
    if (this.options.now() < this.pausedUntil) throw new MarketUnavailable("rate limited: waiting for the site's Retry-After");
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    await this.turn(signal);
    try {
      return await this.request(path, maxBytes, notFound, signal);
    } finally {
      // The slot goes to the next waiting request, if any, still counted in flight.
      const next = this.waiting.shift();
      if (next) next();
      else this.inFlight--;
    }
  }

  /** A slot in flight, now or once one is given back; refused when too many wait, or when `signal`'s deadline passes first. */
  private turn(signal: AbortSignal): Promise<void> {
    if (this.inFlight < this.options.maxInFlight) {
      this.inFlight++;
      return Promise.resolve();
    }
    if (this.waiting.length >= this.options.maxWaiting) return Promise.reject(new MarketUnavailable("too many requests to this site waiting"));
    return new Promise((resolve, reject) => {
      const given = () => {
        signal.removeEventListener("abort", expired);
        resolve();
      };
      const expired = () => {
        this.waiting.splice(this.waiting.indexOf(given), 1);
        reject(new MarketUnavailable("no turn within the deadline"));
      };
      signal.addEventListener("abort", expired, { once: true });
      this.waiting.push(given);
    });
  }

  private async request(path: string, maxBytes: number, notFound: readonly number[], signal: AbortSignal): Promise<unknown> {
    let text: string | null;
    let status: number;
    try {
      this.sent++;
      const response = await fetch(`${this.options.baseUrl}${path}`, {
        headers: { "User-Agent": this.options.userAgent, Accept: "application/json" },
        redirect: "manual",
        signal,
      });
      status = response.status;
      if (status === 429) this.pausedUntil = this.options.now() + retryAfterMs(response.headers.get("retry-after"), this.options.now());
      if (status !== 200 && status !== 202) {
        await response.body?.cancel().catch(() => {});
        if (notFound.includes(status)) return null;
        throw new MarketUnavailable(`the site answered HTTP ${status}`);
      }
      text = await boundedText(response, maxBytes);
    } catch (error) {
      if (error instanceof MarketUnavailable) throw error;
      throw new MarketUnavailable(signal.aborted ? "no answer within the deadline" : `no answer: ${(error as Error).message}`);
    }
    if (text === null) throw new MarketUnavailable(`the answer is longer than ${maxBytes} bytes`);
    if (status === 202) throw new MarketUnavailable("the site is still fetching it (202)", true);
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new MarketUnavailable("the answer is not JSON");
    }
  }
}
