// The hot path of GET /api/banner: a banner its query alone decides, whose
// query string is known and whose image is drawn and held, answered straight
// from Bun's router. Elysia's work for such a request (its context, hooks,
// query parsing, and a Response copied to add a header) costs more than the
// answer itself (docs/performance-notes.md). The answer is the route's own
// (bannerAnswer: ETag and 304, Cache-Control, Content-Type), with the same
// per-IP budget and RateLimit-* headers, X-Request-Id, metrics and log line.
// Whatever it cannot answer alone (a new query, an evicted image, a spent
// budget, a banner that depends on a lookup or a push) goes to Elysia
// unchanged.
//
// A 200 is a clone of a ready answer kept per image: a clone shares the
// body and copies the headers natively, where a new Response copies the
// image and converts a headers record key by key (several times the cost of
// everything else here). Ready answers hold a copy of their image, so they
// are a cache of their own, bounded in bytes.

import type { Config } from "../config.ts";
import { TtlCache, CACHE_ENTRY_OVERHEAD } from "../ttl-cache.ts";
import { bannerAnswer, queryString, type KnownBanner, type KnownBanners } from "./banner-routes.ts";
import { socketClientIp, type SocketInfo } from "./client-ip.ts";
import { matchesEtag, NO_BYTES } from "./image-response.ts";
import { budgetKey } from "./ip-rate-limit.ts";
import { REQUEST_ID_HEADER, type RequestObserver } from "./observe.ts";
import { rateLimitHeaders, type RateLimiter } from "./rate-limit.ts";

export const BANNER_PATH = "/api/banner";

/** Images held in ready answers at most: the popular banners (a 468x60 PNG is 3-15 KB). */
export const READY_ANSWER_BYTES = 16 * 1024 * 1024;
/** A ready answer not used for this long is dropped (the render cache's own lifetime). */
const READY_ANSWER_TTL_MS = 3_600_000;

interface ReadyAnswer {
  response: Response;
  bytes: number;
}

export interface BannerHotPathDeps {
  config: Pick<Config, "trustProxy">;
  known: KnownBanners;
  ipLimiter: RateLimiter;
  observer: RequestObserver;
  now: () => number;
}

/** Answers the request, or returns undefined for Elysia to answer it. */
export function bannerHotPath(deps: BannerHotPathDeps): (request: Request, server: SocketInfo) => Response | undefined {
  const { begin, end } = deps.observer.outsideElysia;
  const ready = new TtlCache<ReadyAnswer>({
    maxBytes: READY_ANSWER_BYTES,
    sizeOf: (answer) => CACHE_ENTRY_OVERHEAD + answer.bytes,
    sweepEveryMs: 60_000,
    now: deps.now,
  });

  /** The kept 200 of a drawn image, made on first use; undefined when the image is not held (any more). */
  function readyAnswer(request: Request, known: KnownBanner): Response | undefined {
    // Asked of the render cache each time: a hit there keeps the image (and counts as one).
    const bytes = known.banner.drawnImage(known.etag);
    if (!bytes) return undefined;
    let answer = ready.get(known.etag);
    if (!answer) {
      answer = { response: bannerAnswer(request, known, bytes, {}), bytes: bytes.length };
      ready.set(known.etag, answer, READY_ANSWER_TTL_MS);
    }
    return answer.response;
  }

  return (request, server) => {
    const known = deps.known.get(queryString(request));
    if (!known) return undefined;
    const notModified = matchesEtag(request, known.etag);
    const kept = notModified ? undefined : readyAnswer(request, known);
    if (!notModified && !kept) return undefined;
    const client = socketClientIp(request, server, deps.config.trustProxy);
    // A refused take spends nothing, so Elysia's route takes again and answers the 429 itself.
    const decision = deps.ipLimiter.take(budgetKey(client));
    if (!decision.allowed) return undefined;
    const started = begin(request, client);
    const headers = rateLimitHeaders(decision);
    headers[REQUEST_ID_HEADER] = started.id;
    let answer: Response;
    if (kept) {
      answer = kept.clone() as Response; // typed by undici-types, the same object at run time
      for (const name in headers) answer.headers.set(name, headers[name]!);
    } else {
      answer = bannerAnswer(request, known, NO_BYTES, headers);
    }
    end(started, request, BANNER_PATH, answer.status);
    return answer;
  };
}
