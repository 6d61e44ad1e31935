// The one way an image is answered, for banners, badges and every image
// route to come. A route parses its request and asks its domain what to draw
// (a PlannedImage: the domain's ImagePlan, src/image-plan.ts, with its status
// and cache lifetime); everything else happens here: the per-client budget,
// ETag (the plan's key) and 304, the route's cache of encoded images, the
// image stating a failure, the headers (answer-headers.ts), and, through
// observe.ts, the request id, log line and metrics.
//
// Two steps, one set of functions:
// - first, in Bun's router ahead of Elysia (app.ts): a request answered
//   before from a held image or with a 304 (the same path and query, within
//   its plan's reuse time and, for a plan of live data, while what it was
//   planned from is unchanged: stillCurrent), whose image is still held or
//   which the client holds, is answered at once. Elysia's work for a request (its context,
//   hooks, query parsing, a Response copied to add a header) costs more than
//   such an answer (docs/performance-notes.md). What this step cannot answer
//   alone (a new request, an evicted image, a spent budget) goes to Elysia
//   unchanged.
// - then, in the route (Elysia): the same answers, and the plan made, the
//   image drawn, failures answered.
//
// A 200 of the first step is a clone of a ready answer kept per image: a
// clone shares the body and copies the headers natively, where a new Response
// copies the image and converts a headers record key by key (several times
// the cost of everything else here). Ready answers hold a copy of their image,
// so they are a cache of their own, bounded in bytes; an image answered once
// only (a new badge, a live banner) gets none.
//
// The plan of an image of live data is also kept as what its URL last showed:
// while the database cannot be reached, that URL is answered with it
// (docs/storage.md) rather than with an image of the fault.

import type { Config } from "../config.ts";
import type { ImagePlan } from "../image-plan.ts";
import type { DrawJob } from "./drawing/drawer.ts";
import { CACHE_ENTRY_OVERHEAD } from "../cache/bounded-cache.ts";
import type { CacheBudget } from "../cache/budget.ts";
import { StoreUnavailableError } from "../store/unavailable.ts";
import { imageBodyHeaders, imageHeaders } from "./answer-headers.ts";
import { socketClientIp, type SocketInfo } from "./client-ip.ts";
import type { RouteFailures } from "./error-handling.ts";
import { HttpError } from "./errors.ts";
import type { ImageCache } from "./image-cache.ts";
import { acceptsImage, matchesEtag } from "./image-response.ts";
import type { ChargedDraws } from "./drawing/charged-draws.ts";
import { budgetKey, requestBudgetKey, spendIpBudget } from "./ip-rate-limit.ts";
import { REQUEST_ID_HEADER, type RequestObserver } from "./observe.ts";
import { rateLimitHeaders, whenDecided, type Limiter, type RateDecision } from "./rate-limit.ts";

/** What a route asks the pipeline to answer: its domain's plan, and how HTTP treats it. */
export interface PlannedImage {
  image: ImagePlan<DrawJob>;
  /** 200, or 400 or 404 for an image saying what is wrong or missing (a badge of a malformed UUID, of an unknown plugin). */
  status: 200 | 400 | 404;
  cacheControl: string;
  /** How long the same request (path and query) is answered by this plan without asking the route again; 0: never. */
  reuseForMs: number;
  /** A plan of live data: reused (within reuseForMs) only while this says what it was planned from is unchanged; asked before each reuse. */
  stillCurrent?: () => boolean;
}

export interface ImageRouteSettings {
  /** The route's path template (Elysia's and Bun's), for the log line and metrics of answers made before Elysia. */
  path: string;
  /** The route's encoded images. */
  images: ImageCache;
  /**
   * The per-client budget, spent by every request (each costs a parse, a
   * lookup...) or only by a draw (an image held or being drawn costs nothing;
   * README images come through a few proxy addresses that must not be refused).
   */
  budget: { limiter: Limiter; spentBy: "request" | "draw" };
  /**
   * A failure is an image stating it always, or only for clients whose Accept
   * names an image (an <img> tag; others get the JSON error).
   */
  errorsAsImages: "always" | "when accepted";
}

export interface ImageRoute {
  /**
   * The answer to `request`: `plan` is asked what to draw when the pipeline
   * does not know the request; a failure is answered with `errorImage`'s
   * drawing at its status (or thrown, for a JSON error).
   */
  answer(
    request: Request,
    server: SocketInfo | null,
    plan: () => PlannedImage | Promise<PlannedImage>,
    errorImage: (failure: HttpError) => ImagePlan<DrawJob>,
  ): Promise<Response>;
}

export interface ImagePipelineDeps {
  config: Pick<Config, "trustProxy">;
  /** The app's cache budget: the pipeline's own caches (known_requests, ready_answers) are made from it. */
  caches: CacheBudget;
  observer: RequestObserver;
  failures: RouteFailures;
  now: () => number;
  /** Every draw: charged to the client's draw budget, run in its turn (src/http/drawing/charged-draws.ts). */
  draws: ChargedDraws;
}

/** A ready answer is dropped this long after it was made (the image caches' own lifetime). */
const READY_ANSWER_TTL_MS = 3_600_000;
/** What a URL of live data last showed is served for this long while the database cannot be reached. */
const LAST_SHOWN_TTL_MS = 3_600_000;
/** Bun's URLs are "http://host/path?query" (TLS ends at a proxy), or the path alone when the request named no host. */
const PATH_FROM = "http://".length;
const SLASH = 47;

interface KnownRequest {
  planned: PlannedImage;
  /** The ready answer's key: everything its headers hold besides the per-request ones. */
  readyKey: string;
}

interface ReadyAnswer {
  response: Response;
  bytes: number;
}

/** A request's path and query: what decides its answer, whatever the Host. */
function requestKey(request: Request): string {
  const url = request.url;
  return url.charCodeAt(0) === SLASH ? url : url.slice(url.indexOf("/", PATH_FROM));
}

const etagOf = (image: ImagePlan<DrawJob>) => `"${image.key}"`;

/** Whether a known request's plan may answer it again: a plan of live data only while what it was planned from is unchanged. */
const stillShows = (entry: KnownRequest) => entry.planned.stillCurrent?.() ?? true;

/** Where a live image's last plan is known, beside the plans reused by URL: not a path, so the first step never finds it. */
const lastShownKey = (key: string) => `last shown ${key}`;

export function imagePipeline(deps: ImagePipelineDeps) {
  const { begin, end } = deps.observer.outsideElysia;
  // The pipeline's two caches of its own (the routes' images are in their ImageCache).
  const known = deps.caches.cache<KnownRequest>("known_requests", { sizeOf: (entry) => entry.planned.image.memory + 2 * entry.readyKey.length, now: deps.now });
  const ready = deps.caches.cache<ReadyAnswer>("ready_answers", { sizeOf: (answer) => CACHE_ENTRY_OVERHEAD + answer.bytes, now: deps.now });
  const routes: ImageRouteSettings[] = [];

  /** The headers of a planned image's answers, `perRequest` (RateLimit-*) last. */
  function headersOf(planned: PlannedImage, perRequest: Record<string, string> | undefined): Record<string, string> {
    return { ...imageHeaders(), "Cache-Control": planned.cacheControl, ETag: etagOf(planned.image), ...perRequest };
  }

  function notModified(planned: PlannedImage, perRequest: Record<string, string> | undefined): Response {
    return new Response(null, { status: 304, headers: headersOf(planned, perRequest) });
  }

  /**
   * The image's answer, `perRequest` set: a clone of its ready answer if it
   * has one; else a new one, kept as its ready answer when `keep` (an image
   * asked for again: one drawn for a single request is not copied twice).
   */
  function imageAnswer(entry: KnownRequest, bytes: Uint8Array, perRequest: Record<string, string> | undefined, keep: boolean): Response {
    const kept = ready.get(entry.readyKey);
    if (!kept && !keep) return fullAnswer(entry.planned, bytes, perRequest);
    let response = kept?.response;
    if (!response) {
      response = fullAnswer(entry.planned, bytes, undefined);
      ready.set(entry.readyKey, { response, bytes: bytes.length }, READY_ANSWER_TTL_MS);
    }
    const answer = response.clone() as Response; // typed by undici-types, the same object at run time
    for (const name in perRequest) answer.headers.set(name, perRequest[name]!);
    return answer;
  }

  function fullAnswer(planned: PlannedImage, bytes: Uint8Array, perRequest: Record<string, string> | undefined): Response {
    return new Response(bytes, { status: planned.status, headers: { ...headersOf(planned, perRequest), ...imageBodyHeaders(planned.image.contentType) } });
  }

  /**
   * What `request` is known to show, else what the route plans for it now;
   * `remember` keeps a new plan for the first step, once its answer is cheap
   * (the image held, or the client's): a URL asked for once (a new badge, a
   * cache buster) is not kept.
   */
  async function knownOrPlanned(request: Request, plan: () => PlannedImage | Promise<PlannedImage>) {
    const key = requestKey(request);
    const seen = known.get(key);
    if (seen && stillShows(seen)) return { entry: seen, remember() {}, shown() {} };
    let planned: PlannedImage;
    try {
      planned = await plan();
    } catch (error) {
      // The database cannot be reached (a PostgreSQL outage): what this URL
      // showed last is served until it can, rather than an error image.
      const last = error instanceof StoreUnavailableError ? known.get(lastShownKey(key)) : undefined;
      if (!last) throw error;
      return { entry: last, remember() {}, shown() {} };
    }
    const { status, cacheControl, image } = planned;
    const entry = { planned, readyKey: `${status} ${cacheControl} ${image.key}` };
    return {
      entry,
      remember() {
        if (planned.reuseForMs > 0) known.set(key, entry, planned.reuseForMs);
      },
      /** Answered: the plan of an image of live data (reused briefly, or not at all) is kept as what its URL last showed. */
      shown() {
        if (planned.reuseForMs < LAST_SHOWN_TTL_MS) known.set(lastShownKey(key), entry, LAST_SHOWN_TTL_MS);
      },
    };
  }

  function route(settings: ImageRouteSettings): ImageRoute {
    routes.push(settings);
    const { images, budget, errorsAsImages } = settings;
    const spend = (request: Request, server: SocketInfo | null) =>
      spendIpBudget(budget.limiter, request, server, deps.config.trustProxy);
    const clientOf = (request: Request, server: SocketInfo | null) => requestBudgetKey(request, server, deps.config.trustProxy);

    /**
     * The image drawn for this request, or the drawing of it in flight, which
     * a request joins without spending a budget spent by draws: only the
     * request that starts a drawing spends it. From an in-process budget the
     * check, the spending and the drawing's start are one synchronous step, so
     * no request spends for a drawing another one starts; a shared budget's
     * decision takes a round trip, in which one may (both then spent).
     */
    function drawnOrJoined(request: Request, server: SocketInfo | null, image: ImagePlan<DrawJob>): Promise<Uint8Array> {
      const draw = () => images.get(image.key, () => deps.draws.start(clientOf(request, server), image));
      if (budget.spentBy !== "draw" || images.drawing(image.key)) return draw();
      // Its RateLimit-* fields are not shown: an image drawn or held is the same answer.
      return whenDecided(spend(request, server), draw);
    }

    /** A failure as an image stating it (no budget, never kept by clients), or thrown on as the JSON error. */
    async function failureAnswer(
      request: Request, error: unknown, shown: Record<string, string> | undefined, errorImage: (failure: HttpError) => ImagePlan<DrawJob>,
    ): Promise<Response> {
      // Unexpected failures too (a database fault): an <img> shows what went wrong.
      const failure = error instanceof HttpError ? error : deps.failures.explain(error, request);
      if (!failure) throw error;
      const headers: Record<string, string> = { ...shown, ...failure.headers, "Cache-Control": "no-store" };
      if (errorsAsImages === "when accepted") {
        headers.Vary = "Accept";
        if (!acceptsImage(request)) throw new HttpError(failure.status, failure.code, failure.message, headers, failure.logDetail);
      }
      deps.failures.note(request, failure.code);
      const image = errorImage(failure);
      const bytes = await images.get(image.key, () => deps.draws.failureImage(image));
      return new Response(bytes, { status: failure.status, headers: { ...imageHeaders(), ...headers, ...imageBodyHeaders(image.contentType) } });
    }

    return {
      async answer(request, server, plan, errorImage) {
        let shown: Record<string, string> | undefined;
        try {
          if (budget.spentBy === "request") shown = await spend(request, server);
          const { entry, remember, shown: keepShown } = await knownOrPlanned(request, plan);
          const { planned } = entry;
          // A client holding this image gets its 304 without it being drawn.
          if (planned.status === 200 && matchesEtag(request, etagOf(planned.image))) {
            remember();
            keepShown();
            return notModified(planned, shown);
          }
          let bytes = images.peek(planned.image.key);
          if (bytes) remember();
          else bytes = await drawnOrJoined(request, server, planned.image);
          keepShown();
          return imageAnswer(entry, bytes, shown, false);
        } catch (error) {
          return failureAnswer(request, error, shown, errorImage);
        }
      },
    };
  }

  /**
   * The first step: the answer to a request planned before whose image is
   * held or held by the client, else undefined. At once with an in-process
   * budget; once its decision comes with a shared one (shared-limits.ts).
   */
  function answerKnown(settings: ImageRouteSettings, request: Request, server: SocketInfo): Response | undefined | Promise<Response | undefined> {
    const entry = known.get(requestKey(request));
    if (!entry || !stillShows(entry)) return undefined;
    const { planned } = entry;
    const held = planned.status === 200 && matchesEtag(request, etagOf(planned.image));
    // Asked of the route's cache each time: a hit there keeps the image (and counts as one).
    const bytes = held ? undefined : settings.images.peek(planned.image.key);
    if (!held && !bytes) return undefined;
    if (settings.budget.spentBy !== "request") return knownAnswer(settings, request, server, entry, bytes, undefined, undefined);
    const client = socketClientIp(request, server, deps.config.trustProxy);
    const decision = settings.budget.limiter.take(budgetKey(client));
    if (decision instanceof Promise) return decision.then((decided) => knownAnswer(settings, request, server, entry, bytes, client, decided));
    return knownAnswer(settings, request, server, entry, bytes, client, decision);
  }

  /** The first step's answer once the budget is spent (`decision`; none for a route whose budget only draws spend). */
  function knownAnswer(
    settings: ImageRouteSettings, request: Request, server: SocketInfo, entry: KnownRequest, bytes: Uint8Array | undefined,
    client: string | undefined, decision: RateDecision | undefined,
  ): Response | undefined {
    // A refused take spends nothing, so the route takes again and answers the 429 itself.
    if (decision && !decision.allowed) return undefined;
    const shown = decision && rateLimitHeaders(decision);
    const started = begin(request, server, client);
    const answer = bytes ? imageAnswer(entry, bytes, shown, true) : notModified(entry.planned, shown);
    answer.headers.set(REQUEST_ID_HEADER, started.id);
    end(started, request, settings.path, answer.status, (request as Request & { params?: Record<string, string> }).params);
    return answer;
  }

  return {
    route,
    /**
     * The first step of every image route, for Bun's router (Elysia's
     * serve.routes): a GET it cannot answer alone goes to `next` (Elysia).
     */
    firstStep(next: (request: Request) => Response | Promise<Response>): Record<string, { GET: (request: Request, server: SocketInfo) => Response | Promise<Response> }> {
      return Object.fromEntries(
        routes.map((settings) => [
          settings.path,
          {
            GET: (request: Request, server: SocketInfo) => {
              const known = answerKnown(settings, request, server);
              if (known instanceof Promise) return known.then((answer) => answer ?? next(request));
              return known ?? next(request);
            },
          },
        ]),
      );
    },
  };
}
