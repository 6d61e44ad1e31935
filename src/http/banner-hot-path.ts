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

import type { Config } from "../config.ts";
import { bannerAnswer, queryString, type KnownBanners } from "./banner-routes.ts";
import { socketClientIp, type SocketInfo } from "./client-ip.ts";
import { matchesEtag, NO_BYTES } from "./image-response.ts";
import { budgetKey } from "./ip-rate-limit.ts";
import { REQUEST_ID_HEADER, type RequestObserver } from "./observe.ts";
import { rateLimitHeaders, type RateLimiter } from "./rate-limit.ts";

export const BANNER_PATH = "/api/banner";

export interface BannerHotPathDeps {
  config: Pick<Config, "trustProxy">;
  known: KnownBanners;
  ipLimiter: RateLimiter;
  observer: RequestObserver;
}

/** Answers the request, or returns undefined for Elysia to answer it. */
export function bannerHotPath(deps: BannerHotPathDeps): (request: Request, server: SocketInfo) => Response | undefined {
  const { begin, end } = deps.observer.outsideElysia;
  return (request, server) => {
    const known = deps.known.get(queryString(request));
    if (!known) return undefined;
    const notModified = matchesEtag(request, known.etag);
    const bytes = notModified ? NO_BYTES : known.banner.drawnImage(known.etag);
    if (!bytes) return undefined;
    const client = socketClientIp(request, server, deps.config.trustProxy);
    // A refused take spends nothing, so Elysia's route takes again and answers the 429 itself.
    const decision = deps.ipLimiter.take(budgetKey(client));
    if (!decision.allowed) return undefined;
    const started = begin(request, client);
    const headers = rateLimitHeaders(decision);
    headers[REQUEST_ID_HEADER] = started.id;
    const answer = bannerAnswer(request, known, bytes, headers);
    end(started, request, BANNER_PATH, answer.status);
    return answer;
  };
}
