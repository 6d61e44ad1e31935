// The marketplaces' projects and authors as badges and banners ask for them:
// each site read through its own SiteClient (base URL, deadline, requests in
// flight and waiting per site), answers cached in the `market_answers` share
// of the cache budget, and one fetch for however many ask at once.
//
// Two entries a reference: its answer as last fetched, kept MARKET_FRESH_MS (15
// minutes; a "not found" MARKET_NOT_FOUND_MS, a failure MARKET_RETRY_MS, so a site that is
// down is asked about one project at most once a minute), and its last value
// found, kept MARKET_KEPT_MS (a day). When a fetch fails (the site down, slow past
// its deadline, limiting us, answering what its API does not), the last value
// is answered marked stale; with none, "unavailable". While a fetch runs and
// a last value exists, a request waits at most MARKET_STALE_WAIT_MS for it before it
// is answered the last value, marked stale: a slow site slows no badge.
// PENNANT_MARKETS=off: nothing is fetched and every answer is "unavailable".

import { estimateBytes, type BoundedCache } from "../cache/bounded-cache.ts";
import type { CacheBudget } from "../cache/budget.ts";
import { CFWIDGET } from "./cfwidget.ts";
import { HANGAR } from "./hangar.ts";
import { MODRINTH } from "./modrinth.ts";
import { MARKET_SITES, type MarketAnswer, type MarketAuthor, type MarketProject, type MarketService, type MarketSite } from "./market-project.ts";
import { authorRef, projectRef, type MarketRef } from "./market-refs.ts";
import type { MarketSource } from "./market-source.ts";
import { POLYMART } from "./polymart.ts";
import { MarketUnavailable, SiteClient } from "./site-client.ts";
import { SPIGET } from "./spiget.ts";

export const MARKET_FRESH_MS = 15 * 60_000;
export const MARKET_KEPT_MS = 24 * 60 * 60_000;
export const MARKET_NOT_FOUND_MS = 5 * 60_000;
export const MARKET_RETRY_MS = 60_000;
export const MARKET_STALE_WAIT_MS = 1_000;
/** One request's deadline, waiting for its turn included. */
export const MARKET_TIMEOUT_MS = 5_000;

/** Requests in flight per site, and waiting: CFWidget asks for "a few concurrent requests per second at peak". */
const IN_FLIGHT: Record<MarketSite, number> = { modrinth: 4, spigot: 4, hangar: 4, curseforge: 2, polymart: 4 };
const MAX_WAITING = 100;

const SOURCES: Record<MarketSite, MarketSource> = { modrinth: MODRINTH, spigot: SPIGET, hangar: HANGAR, curseforge: CFWIDGET, polymart: POLYMART };

/** PENNANT_MARKETS and PENNANT_*_URL (Config.markets): whether to fetch at all, and each site's API root. */
export interface MarketSettings {
  enabled: boolean;
  urls: Readonly<Record<MarketSite, string>>;
}

export interface MarketCacheDeps {
  settings: MarketSettings;
  /** Names Pennant (and where it runs, when known), as the sites ask. */
  userAgent: string;
  budget: CacheBudget;
  now: () => number;
  /** Overrides MARKET_TIMEOUT_MS (tests). */
  timeoutMs?: number;
  /** A fault of ours (not the site's) while reading an answer: logged; the answer is then "unavailable" like a site's fault. */
  reportUnexpected?: (error: unknown) => void;
}

/**
 * The User-Agent of every request to a site: Pennant, its version, and where
 * it runs when PENNANT_PUBLIC_URL says (Modrinth's API asks for one that
 * identifies the program and, better, how to reach whoever runs it).
 */
export function marketUserAgent(version: string, publicUrl: string | null): string {
  return `Pennant/${version} (self-hosted badge server${publicUrl === null ? "" : `; +${publicUrl}`})`;
}

type Found = MarketAnswer<MarketProject | MarketAuthor>;

export class MarketCache implements MarketService {
  private readonly clients: Record<MarketSite, SiteClient>;
  /** Answers by "fresh|..." and last values found by "kept|...", projects and authors ("p:", "a:") of every site. */
  private readonly answers: BoundedCache<Found>;

  constructor(private readonly deps: MarketCacheDeps) {
    const client = (site: MarketSite) => new SiteClient({
      baseUrl: deps.settings.urls[site], userAgent: deps.userAgent, timeoutMs: deps.timeoutMs ?? MARKET_TIMEOUT_MS,
      maxInFlight: IN_FLIGHT[site], maxWaiting: MAX_WAITING, now: deps.now,
    });
    this.clients = Object.fromEntries(MARKET_SITES.map((site) => [site, client(site)])) as Record<MarketSite, SiteClient>;
    this.answers = deps.budget.cache<Found>("market_answers", { sizeOf: estimateBytes, now: deps.now });
  }

  project(site: MarketSite, project: string): Promise<MarketAnswer<MarketProject>> {
    const ref = projectRef(site, project);
    // The "p:" entries hold only projects' answers.
    return this.answer(site, "p", ref, (client, checked) => SOURCES[site].project(client, checked)) as Promise<MarketAnswer<MarketProject>>;
  }

  author(site: MarketSite, author: string): Promise<MarketAnswer<MarketAuthor>> {
    const ref = authorRef(site, author);
    return this.answer(site, "a", ref, (client, checked) => SOURCES[site].author(client, checked)) as Promise<MarketAnswer<MarketAuthor>>;
  }

  /** Requests sent to `site` so far. */
  requestsSent(site: MarketSite): number {
    return this.clients[site].sent;
  }

  private answer(
    site: MarketSite, kind: "p" | "a", ref: MarketRef | string, fetch: (client: SiteClient, ref: MarketRef) => Promise<MarketProject | MarketAuthor | null>,
  ): Promise<Found> {
    if (!this.deps.settings.enabled) return Promise.resolve({ status: "unavailable", reason: "off" });
    if (typeof ref === "string") return Promise.resolve({ status: "invalid", message: ref });
    const subject = `${kind}:${site}:${ref.key}`;
    const fresh = `fresh|${subject}`, kept = `kept|${subject}`;
    const answer = this.answers.getOrComputeAsync(fresh, () => this.fetched(kept, () => fetch(this.clients[site], ref)), keepFor);
    if (!this.answers.computing(fresh)) return answer;
    const last = this.answers.peek(kept);
    if (last?.status !== "found") return answer;
    return Promise.race([answer, Bun.sleep(MARKET_STALE_WAIT_MS).then((): Found => ({ ...last, stale: true }))]);
  }

  /** One fetch's answer: what the site says, or the last value found, marked stale, when it says nothing usable. */
  private async fetched(kept: string, fetch: () => Promise<MarketProject | MarketAuthor | null>): Promise<Found> {
    try {
      const value = await fetch();
      if (value === null) return { status: "not_found" };
      const found: Found = { status: "found", value, fetchedAt: this.deps.now(), stale: false };
      this.answers.set(kept, found, MARKET_KEPT_MS);
      return found;
    } catch (error) {
      if (!(error instanceof MarketUnavailable)) this.deps.reportUnexpected?.(error);
      const last = this.answers.get(kept);
      return last?.status === "found" ? { ...last, stale: true } : { status: "unavailable", reason: "down" };
    }
  }
}

/** How long an answer is kept: a fresh value MARKET_FRESH_MS, "not found" MARKET_NOT_FOUND_MS, anything after a failure MARKET_RETRY_MS. */
function keepFor(answer: Found): number {
  if (answer.status === "found" && !answer.stale) return MARKET_FRESH_MS;
  return answer.status === "not_found" ? MARKET_NOT_FOUND_MS : MARKET_RETRY_MS;
}
