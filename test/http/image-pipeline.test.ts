// The image pipeline (src/http/image-pipeline.ts) and its first step, which
// answers a request planned before from Bun's router without Elysia. Over
// HTTP its answers must be the route's own (same bytes and headers, budget,
// request ids, metrics, log lines); called directly it must answer exactly
// when it may and hand every other request on.

import { afterEach, describe, expect, test } from "bun:test";
import { badgeColor } from "../../src/badge/colors.ts";
import { badgeImage } from "../../src/badge/images.ts";
import { BannerService } from "../../src/banner/banner-service.ts";
import { loadConfig } from "../../src/config.ts";
import { routeTable } from "../../src/http/allowed-methods.ts";
import { parseBannerQuery } from "../../src/http/banner-query.ts";
import { chargedDraws } from "../../src/http/drawing/charged-draws.ts";
import { DrawQueue } from "../../src/http/drawing/draw-queue.ts";
import { routeFailures } from "../../src/http/error-handling.ts";
import { CacheBudget } from "../../src/cache/budget.ts";
import type { Drawing } from "../../src/http/drawing/drawer.ts";
import { InThreadDrawer } from "../../src/serve/drawing/in-thread-drawer.ts";
import { ImageCache } from "../../src/http/image-cache.ts";
import { imagePipeline, type PlannedImage } from "../../src/http/image-pipeline.ts";
import { observeRequests } from "../../src/http/observe.ts";
import { RateLimiter } from "../../src/http/rate-limit.ts";
import { ThrottledLog } from "../../src/http/throttled-log.ts";
import { createLogger } from "../../src/log.ts";
import { LookupService } from "../../src/lookup/lookup-service.ts";
import { ServiceMetrics } from "../../src/metrics/service-metrics.ts";
import { openDatabase } from "../../src/store/database.ts";
import { SqliteStore } from "../../src/store/sqlite-store.ts";
import { tempDir } from "../support/cleanup.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { newUuid, signedRequest } from "../support/signing.ts";

const QUERY = "server_name=Skyblock&online_players=12&max_players=100&motd_line_1=%C2%A7aWelcome";
/** Headers that differ between two answers by design. */
const PER_REQUEST = new Set(["x-request-id", "ratelimit-remaining", "date"]);

let server: TestServer;
afterEach(async () => {
  await server?.close();
});

const banner = (query = QUERY, headers: Record<string, string> = {}, method = "GET") =>
  fetch(`${server.url}/api/banner?${query}`, { method, headers });

function stableHeaders(response: Response): Record<string, string> {
  return Object.fromEntries([...response.headers].filter(([name]) => !PER_REQUEST.has(name)));
}

let pushes = 0;
async function pushPlugin(token: string, body: object, uuid = newUuid()): Promise<string> {
  // Each push its own timestamp, or a repeated body would be refused as a replay.
  const call = { path: `/api/plugins/${uuid}/data`, token, body, tokenHeader: "X-Plugin-Token" as const, timestamp: server.clock.now + pushes++ };
  expect((await fetch(signedRequest(server.url, call, server.clock.now))).status).toBe(200);
  return uuid;
}

describe("a drawn banner answered again", () => {
  test("has the bytes and headers of its first answer, with its own request id and budget", async () => {
    server = await startTestServer({ PENNANT_RATE_LIMIT: "10/60" });
    const first = await banner();
    const again = await banner();
    expect(again.status).toBe(200);
    expect(stableHeaders(again)).toEqual(stableHeaders(first));
    expect(Object.keys(stableHeaders(first)).sort()).toEqual([
      "access-control-allow-origin", "cache-control", "content-length", "content-type", "cross-origin-resource-policy", "etag",
      "ratelimit-limit", "ratelimit-reset", "x-content-type-options",
    ]);
    expect(Buffer.from(await again.arrayBuffer())).toEqual(Buffer.from(await first.arrayBuffer()));
    expect([first.headers.get("ratelimit-remaining"), again.headers.get("ratelimit-remaining")]).toEqual(["9", "8"]);
    const ids = [first, again].map((response) => response.headers.get("x-request-id"));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids[0]).not.toBe(ids[1]);
  });

  test("a 304 for its ETag, a 429 once the budget is spent, and the budget again a window later", async () => {
    server = await startTestServer({ PENNANT_RATE_LIMIT: "3/60" });
    const etag = (await banner()).headers.get("etag")!;
    const held = await banner(QUERY, { "If-None-Match": etag });
    expect(held.status).toBe(304);
    expect(held.headers.get("etag")).toBe(etag);
    expect(held.headers.get("cache-control")).toBe("public, max-age=86400");
    expect(await held.text()).toBe("");
    expect((await banner()).headers.get("ratelimit-remaining")).toBe("0");
    const limited = await banner();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await limited.json()) as { error: { code: string } }).error.code).toBe("rate_limited");
    server.clock.now += 61_000;
    expect((await banner()).status).toBe(200);
  });

  test("behind a trusted proxy, budgets and request ids come from the proxy's headers", async () => {
    server = await startTestServer({ PENNANT_RATE_LIMIT: "1/60", PENNANT_TRUST_PROXY: "on" });
    expect((await banner(QUERY, { "X-Forwarded-For": "203.0.113.1" })).status).toBe(200);
    expect((await banner(QUERY, { "X-Forwarded-For": "203.0.113.1" })).status).toBe(429);
    const other = await banner(QUERY, { "X-Forwarded-For": "203.0.113.2", "X-Request-Id": "proxy-id-42" });
    expect(other.status).toBe(200);
    expect(other.headers.get("x-request-id")).toBe("proxy-id-42");
  });

  test("is counted in /metrics and logged like any request", async () => {
    server = await startTestServer({ PENNANT_LOG_LEVEL: "debug" });
    const answers = [await banner(), await banner(), await banner()];
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toContain('pennant_http_requests_total{method="GET",route="/api/banner",status="200"} 3\n');
    const lines = server.logs().filter((line) => line.route === "/api/banner");
    expect(lines.map((line) => line.request_id)).toEqual(answers.map((response) => response.headers.get("x-request-id")));
    for (const line of lines) expect([line.level, line.method, line.status, line.client]).toEqual(["debug", "GET", 200, "127.0.0.1"]);
  });

  test("other spellings and methods still go to their routes: HEAD, a trailing slash, POST", async () => {
    server = await startTestServer();
    await banner();
    const head = await banner(QUERY, {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toBe("image/png");
    expect((await fetch(`${server.url}/api/banner/?${QUERY}`)).status).toBe(404);
    const post = await banner(QUERY, {}, "POST");
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toContain("GET");
  });
});

describe("a drawn badge answered again", () => {
  test("the same bytes and headers, logged and counted with its route and UUID, spending no budget", async () => {
    server = await startTestServer({ PENNANT_LOG_LEVEL: "debug", PENNANT_RATE_LIMIT: "1/60" });
    const uuid = await pushPlugin(server.token(), { meta: { alpha: { downloads: 12_345 } } });
    const url = `${server.url}/shields/plugins/${uuid}/downloads.png?style=flat-square`;
    const answers = [await fetch(url), await fetch(url), await fetch(url)];
    const bodies = await Promise.all(answers.map(async (answer) => Buffer.from(await answer.arrayBuffer())));
    for (const [i, answer] of answers.entries()) {
      expect(answer.status).toBe(200);
      expect(stableHeaders(answer)).toEqual(stableHeaders(answers[0]!));
      expect(bodies[i]).toEqual(bodies[0]!);
    }
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toContain('pennant_http_requests_total{method="GET",route="/shields/plugins/:plugin_uuid/:metric",status="200"} 3\n');
    const lines = server.logs().filter((line) => line.route === "/shields/plugins/:plugin_uuid/:metric");
    expect(lines.map((line) => [line.request_id, line.uuid, line.client])).toEqual(answers.map((answer) => [answer.headers.get("x-request-id"), uuid, "127.0.0.1"]));
  });

  test("its record is read again a second later: a push shows within it", async () => {
    server = await startTestServer();
    const token = server.token();
    const uuid = await pushPlugin(token, { meta: { alpha: { downloads: 12_345 } } });
    const path = `/shields/plugins/${uuid}/downloads.png`;
    const etag = async () => (await fetch(server.url + path)).headers.get("etag");
    // Drawn, then answered from the cache: now known.
    const before = await etag();
    expect(await etag()).toBe(before!);
    await pushPlugin(token, { meta: { alpha: { downloads: 99_999 } } }, uuid);
    expect(await etag()).toBe(before!);
    server.clock.now += 1_000;
    expect(await etag()).not.toBe(before!);
  });
});

describe("the first step, called directly", () => {
  function setUp(rateLimit = { count: 3, windowSeconds: 60 }) {
    const config = loadConfig({ PENNANT_DB: `${tempDir("pennant-pipeline-")}/pennant.db` });
    const db = openDatabase(config.dbPath);
    const log = createLogger({ level: "warn", write: () => {} });
    const observer = observeRequests({ config, log, metrics: new ServiceMetrics(), routes: routeTable(() => []), now: Date.now });
    const failures = routeFailures({
      allowedMethods: () => [], storeLog: new ThrottledLog(60_000, Date.now, () => {}),
      logUnexpected: observer.logUnexpected, noteErrorCode: observer.noteErrorCode,
    });
    const caches = new CacheBudget();
    // Counts its drawings (the tests ask whether a request drew).
    const inThread = new InThreadDrawer(config.cacheBytes);
    const drawings = { count: 0 };
    const drawer = Object.assign(Object.create(inThread) as InThreadDrawer, {
      draw: (drawing: Drawing) => (drawings.count++, inThread.draw(drawing)),
    });
    const draws = chargedDraws({ budget: new RateLimiter(config.drawBudget, 100, Date.now), queue: new DrawQueue({ concurrency: 1, ...config.drawQueue }), drawer });
    const pipeline = imagePipeline({ config, caches, observer, failures, now: Date.now, draws });
    const images = new ImageCache(caches, { name: "banner_images", now: Date.now });
    const banners = new BannerService({ store: new SqliteStore(db), lookup: new LookupService({ allowPrivate: false }), now: Date.now, staleAfterMs: 900_000 });
    const bannerRoute = pipeline.route({ path: "/api/banner", images, budget: { limiter: new RateLimiter(rateLimit, 100, Date.now), spentBy: "request" }, errorsAsImages: "when accepted" });
    const badgeRoute = pipeline.route({ path: "/badge", images, budget: { limiter: new RateLimiter(rateLimit, 100, Date.now), spentBy: "draw" }, errorsAsImages: "always" });
    const handedOn = new Response("Elysia's to answer");
    const first = pipeline.firstStep(() => handedOn);
    const socket = { requestIP: () => ({ address: "198.51.100.7" }) };
    const request = (path: string, headers: Record<string, string> = {}) => new Request(`http://pennant.test${path}`, { headers });
    /** The first step's answer, or undefined when it hands the request on. */
    const call = (path: string, headers: Record<string, string> = {}) => {
      const answer = first[path.slice(0, path.indexOf("?"))]!.GET(request(path, headers), socket);
      return answer === handedOn ? undefined : (answer as Response);
    };
    const noErrorImage = () => { throw new Error("no error expected"); };
    /** The banner route's answers to a new query: the first plans and draws, the second finds the image held. */
    async function prepare(query: string, answers = 2): Promise<PlannedImage> {
      let planned!: PlannedImage;
      const plan = async () => {
        const image = await banners.prepare(parseBannerQuery(Object.fromEntries(new URLSearchParams(query))));
        planned = { image, status: 200, cacheControl: "public, max-age=86400", reuseForMs: image.byQueryAlone ? 86_400_000 : 0 };
        return planned;
      };
      for (let i = 0; i < answers; i++) await bannerRoute.answer(request(`/api/banner?${query}`), socket, plan, noErrorImage);
      return planned;
    }
    return { call, prepare, badgeRoute, request, socket, noErrorImage, db, drawings, inThread };
  }

  test("answers a request answered before from a held image; hands on an unknown one, one only drawn for, and a spent budget", async () => {
    const { call, prepare, db } = setUp();
    try {
      expect(call(`/api/banner?${QUERY}`)).toBeUndefined();
      // Drawn for one request: not kept (a URL asked for once is not worth it).
      await prepare(QUERY, 1);
      expect(call(`/api/banner?${QUERY}`)).toBeUndefined();
      const { image } = await prepare(QUERY, 1); // spends 2 of 3
      const answer = call(`/api/banner?${QUERY}`)!;
      expect(answer.status).toBe(200);
      expect(answer.headers.get("etag")).toBe(`"${image.key}"`);
      expect(answer.headers.get("ratelimit-remaining")).toBe("0");
      expect(call(`/api/banner?${QUERY}&v=2`)).toBeUndefined();
      expect(call(`/api/banner?${QUERY}`)).toBeUndefined(); // the budget of 3 is spent: the route answers the 429
    } finally {
      db.$client.close();
    }
  });

  test("a client holding the image needs none: its 304 is answered from the plan alone", async () => {
    const { call, badgeRoute, request, socket, noErrorImage, db, drawings } = setUp();
    try {
      const content = { label: "downloads", message: "12k", color: badgeColor("blue"), style: "flat" as const };
      const image = badgeImage(content, 1);
      const planned: PlannedImage = { image, status: 200, cacheControl: "max-age=60", reuseForMs: 60_000 };
      // Planned, not drawn: the client held the image.
      await badgeRoute.answer(request("/badge?a", { "If-None-Match": `"${image.key}"` }), socket, () => planned, noErrorImage);
      expect(drawings.count).toBe(0);
      expect(call("/badge?a")).toBeUndefined();
      const held = call("/badge?a", { "If-None-Match": `"${image.key}"` })!;
      expect([held.status, held.headers.get("etag"), held.headers.get("cache-control")]).toEqual([304, `"${image.key}"`, "max-age=60"]);
      expect(drawings.count).toBe(0);
    } finally {
      db.$client.close();
    }
  });

  test("each answer is its own (request id, budget, a whole body), however many share one image", async () => {
    const { call, prepare, db, inThread } = setUp({ count: 6, windowSeconds: 60 });
    try {
      const { image } = await prepare(QUERY);
      const bytes = await inThread.draw(image);
      const answers = [call(`/api/banner?${QUERY}`)!, call(`/api/banner?${QUERY}`)!, call(`/api/banner?${QUERY}`)!];
      expect(answers.map((answer) => answer.headers.get("ratelimit-remaining"))).toEqual(["3", "2", "1"]);
      expect(new Set(answers.map((answer) => answer.headers.get("x-request-id"))).size).toBe(3);
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        expect(answer.headers.get("etag")).toBe(`"${image.key}"`);
        expect(answer.headers.get("content-type")).toBe("image/png");
        expect(answer.headers.get("cache-control")).toContain("max-age=86400");
        expect(Buffer.from(await answer.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
      }
    } finally {
      db.$client.close();
    }
  });

  test("never answers a plan with no reuse time (a banner whose data comes from a lookup or a push)", async () => {
    const { call, prepare, db } = setUp();
    try {
      const query = "data_mode=plugin&server_uuid=0b9a5a9e-5d7c-4f0e-9a51-6d1f3c2b7e10";
      expect((await prepare(query)).reuseForMs).toBe(0);
      expect(call(`/api/banner?${query}`)).toBeUndefined();
    } finally {
      db.$client.close();
    }
  });
});
