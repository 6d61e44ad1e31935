// The banner hot path (src/http/banner-hot-path.ts): a drawn manual banner
// answered from Bun's router without Elysia. Over HTTP its answers must be
// the route's own (same bytes and headers, budget, request ids, metrics, log
// lines); called directly it must answer exactly when it may and hand every
// other request on.

import { afterEach, describe, expect, test } from "bun:test";
import { RenderCache } from "../../src/banner/render-cache.ts";
import { BannerService } from "../../src/banner/service.ts";
import { loadConfig } from "../../src/config.ts";
import { bannerHotPath } from "../../src/http/banner-hot-path.ts";
import { KnownBanners } from "../../src/http/banner-routes.ts";
import { etagOf } from "../../src/http/image-response.ts";
import { parseBannerQuery } from "../../src/http/banner-query.ts";
import { observeRequests } from "../../src/http/observe.ts";
import { RateLimiter } from "../../src/http/rate-limit.ts";
import { routeTable } from "../../src/http/allowed-methods.ts";
import { createLogger } from "../../src/log.ts";
import { LookupService } from "../../src/lookup/service.ts";
import { ServiceMetrics } from "../../src/metrics/service.ts";
import { openDatabase } from "../../src/store/database.ts";
import { tempDir } from "../support/cleanup.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

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

describe("a drawn banner answered again", () => {
  test("has the bytes and headers of its first answer, with its own request id and budget", async () => {
    server = await startTestServer({ PENNANT_RATE_LIMIT: "10/60" });
    const first = await banner();
    const again = await banner();
    expect(again.status).toBe(200);
    expect(stableHeaders(again)).toEqual(stableHeaders(first));
    expect(Object.keys(stableHeaders(first)).sort()).toEqual(["cache-control", "content-length", "content-type", "etag", "ratelimit-limit", "ratelimit-reset"]);
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

describe("bannerHotPath, called directly", () => {
  function setUp(rateLimit = { count: 2, windowSeconds: 60 }) {
    const config = loadConfig({ PENNANT_DB: `${tempDir("pennant-hot-")}/pennant.db` });
    const db = openDatabase(config.dbPath);
    const metrics = new ServiceMetrics();
    const log = createLogger({ level: "warn", write: () => {} });
    const observer = observeRequests({ config, log, metrics, routes: routeTable(() => []), now: Date.now });
    const cache = new RenderCache({ now: Date.now });
    const banners = new BannerService({ db, lookup: new LookupService({ allowPrivate: false }), now: Date.now, staleAfterMs: 900_000, cache });
    const known = new KnownBanners(Date.now);
    const hot = bannerHotPath({ config, known, ipLimiter: new RateLimiter(rateLimit, 100, Date.now), observer, now: Date.now });
    const socket = { requestIP: () => ({ address: "198.51.100.7" }) };
    const call = (query: string, headers: Record<string, string> = {}) => hot(new Request(`http://pennant.test/api/banner?${query}`, { headers }), socket);
    /** What the route does for a new query: prepare, remember, and (unless `drawn` is false) draw. */
    async function prepare(query: string, drawn = true) {
      const banner = await banners.prepare(parseBannerQuery(Object.fromEntries(new URLSearchParams(query))));
      const entry = { banner, etag: etagOf(banner.parts) };
      known.remember(query, entry);
      if (drawn) await banner.image(entry.etag);
      return entry;
    }
    return { call, prepare, db };
  }

  test("answers a known, drawn banner, and hands on an unknown query, an undrawn image and a spent budget", async () => {
    const { call, prepare, db } = setUp();
    try {
      expect(call(QUERY)).toBeUndefined();
      const { etag } = await prepare(QUERY);
      const answer = call(QUERY)!;
      expect(answer.status).toBe(200);
      expect(answer.headers.get("etag")).toBe(etag);
      expect(answer.headers.get("ratelimit-remaining")).toBe("1");
      expect(call(`${QUERY}&v=2`)).toBeUndefined();
      const undrawn = await prepare(`${QUERY}&online_players=13`, false);
      expect(call(`${QUERY}&online_players=13`)).toBeUndefined();
      // A client holding it needs no image: its 304 is answered here.
      expect(call(`${QUERY}&online_players=13`, { "If-None-Match": undrawn.etag })!.status).toBe(304);
      expect(call(QUERY)).toBeUndefined(); // the budget of 2 is spent: the route answers the 429
    } finally {
      db.$client.close();
    }
  });

  test("each answer is its own (request id, budget, a whole body), however many share one image", async () => {
    const { call, prepare, db } = setUp({ count: 5, windowSeconds: 60 });
    try {
      const { etag, banner } = await prepare(QUERY);
      const image = await banner.image(etag);
      const answers = [call(QUERY)!, call(QUERY)!, call(QUERY)!];
      expect(answers.map((answer) => answer.headers.get("ratelimit-remaining"))).toEqual(["4", "3", "2"]);
      expect(new Set(answers.map((answer) => answer.headers.get("x-request-id"))).size).toBe(3);
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        expect(answer.headers.get("etag")).toBe(etag);
        expect(answer.headers.get("content-type")).toBe("image/png");
        expect(answer.headers.get("cache-control")).toContain("max-age=86400");
        expect(Buffer.from(await answer.arrayBuffer()).equals(Buffer.from(image))).toBe(true);
      }
    } finally {
      db.$client.close();
    }
  });

  test("never holds a banner whose data comes from a lookup or a push", async () => {
    const { call, prepare, db } = setUp();
    try {
      const query = "data_mode=plugin&server_uuid=0b9a5a9e-5d7c-4f0e-9a51-6d1f3c2b7e10";
      await prepare(query);
      expect(call(query)).toBeUndefined();
    } finally {
      db.$client.close();
    }
  });
});
