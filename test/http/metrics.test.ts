// GET /metrics: what it counts (requests by route template and status,
// rate-limited requests, lookups by outcome), that its label sets stay bounded
// whatever paths clients try, and who may read it.

import { afterEach, describe, expect, test } from "bun:test";
import { CACHE_SHARES, DEFAULT_CACHE_MB, type CacheName } from "../../src/config.ts";
import { LookupService } from "../../src/lookup/lookup-service.ts";
import { tempDir } from "../support/cleanup.ts";
import { startCountingPeer, type CountingPeer } from "../support/java-peers.ts";
import { startServe } from "../support/process.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { newUuid, signedRequest } from "../support/signing.ts";

let server: TestServer;
let peer: CountingPeer | undefined;
afterEach(async () => {
  await server?.close();
  await peer?.close();
  peer = undefined;
});

async function scrape(headers: Record<string, string> = {}): Promise<string> {
  const response = await fetch(`${server.url}/metrics`, { headers });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
  return response.text();
}

/** A sample's value, 0 when the series is absent. Counting happens just after an answer: waited for. */
async function sample(series: string, atLeast = 1): Promise<number> {
  let value = 0;
  for (let waited = 0; waited < 2000; waited += 10) {
    const line = (await scrape()).split("\n").find((entry) => entry.startsWith(`${series} `));
    value = line ? Number(line.slice(series.length + 1)) : 0;
    if (value >= atLeast) break;
    await Bun.sleep(10);
  }
  return value;
}

describe("GET /metrics", () => {
  test("counts requests by method, route template and status; plugin UUIDs never become labels", async () => {
    server = await startTestServer();
    const token = server.token();
    const uuid = newUuid();
    const push = (path: string, tokenHeader: "X-Server-Token" | "X-Plugin-Token" = "X-Server-Token") =>
      fetch(signedRequest(server.url, { path, token, tokenHeader, serverUuid: uuid, body: { name: path } }, server.clock.now));
    expect((await push("/api/server/update")).status).toBe(200);
    expect((await push(`/api/plugins/${newUuid()}/data`, "X-Plugin-Token")).status).toBe(200);
    expect((await push(`/api/plugins/${newUuid()}/data`, "X-Plugin-Token")).status).toBe(200);
    expect((await fetch(`${server.url}/api/server/update`)).status).toBe(405);

    expect(await sample('pennant_http_requests_total{method="POST",route="/api/server/update",status="200"}')).toBe(1);
    expect(await sample('pennant_http_requests_total{method="POST",route="/api/plugins/:plugin_uuid/data",status="200"}', 2)).toBe(2);
    expect(await sample('pennant_http_requests_total{method="GET",route="/api/server/update",status="405"}')).toBe(1);
    expect(await sample('pennant_http_request_duration_seconds_count{route="/api/server/update"}', 2)).toBe(2);
    const text = await scrape();
    expect(text).not.toContain(uuid);
    expect(text).toContain('pennant_build_info{version="');
    expect(text).toMatch(/^process_resident_memory_bytes \d+$/m);
  });

  test("badges: a draw is timed and a miss, the same badge again a hit, the cache's size reported", async () => {
    server = await startTestServer();
    const token = server.token();
    const plugin = newUuid();
    const body = { plugin: { name: "Metrics", version: "1.0.0" } };
    const push = signedRequest(server.url, { path: `/api/plugins/${plugin}/data`, token, tokenHeader: "X-Plugin-Token", body }, server.clock.now);
    expect((await fetch(push)).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await fetch(`${server.url}/shields/plugins/${plugin}/version.png`)).status).toBe(200);

    expect(await sample('pennant_cache_misses_total{cache="badge_images"}')).toBe(1);
    expect(await sample('pennant_cache_hits_total{cache="badge_images"}')).toBe(1);
    expect(await sample('pennant_render_duration_seconds_count{kind="badge"}')).toBe(1);
    expect(await sample('pennant_cache_entries{cache="badge_images"}')).toBe(1);
  });

  test("banners: a draw is timed and a miss, the same banner again a hit, the cache's size reported", async () => {
    server = await startTestServer();
    const url = `${server.url}/api/banner?server_name=Metrics&online_players=3&max_players=20`;
    for (let i = 0; i < 2; i++) expect((await fetch(url)).status).toBe(200);

    expect(await sample('pennant_cache_misses_total{cache="banner_images"}')).toBe(1);
    expect(await sample('pennant_cache_hits_total{cache="banner_images"}')).toBe(1);
    expect(await sample('pennant_render_duration_seconds_count{kind="banner"}')).toBe(1);
    expect(await sample('pennant_cache_entries{cache="banner_images"}')).toBe(1);
  });

  test("every cache made from the budget shows its bound (its share of PENNANT_CACHE_MB), size and counts", async () => {
    server = await startTestServer({ PENNANT_CACHE_MB: String(2 * DEFAULT_CACHE_MB) });
    // Two banners with the same text in different colours: two drawings, the second from kept glyphs.
    for (const accent of ["ff0000", "00ff00"]) {
      expect((await fetch(`${server.url}/api/banner?server_name=Cached&online_players=3&max_players=20&accent=${accent}`)).status).toBe(200);
    }
    const made: CacheName[] = [
      "banner_images", "badge_images", "lookup_results", "lookup_favicons", "spare_pixmaps", "glyph_masks", "badge_shadow_glyphs", "shaped_runs", "banner_panels",
      "segment_stops", "label_pixels", "tint_tables", "banner_textures",
    ];
    for (const cache of made) expect(await sample(`pennant_cache_max_bytes{cache="${cache}"}`)).toBe(2 * CACHE_SHARES[cache]);
    expect(await sample('pennant_cache_entries{cache="glyph_masks"}')).toBeGreaterThan(5);
    expect(await sample('pennant_cache_bytes{cache="glyph_masks"}')).toBeGreaterThan(1000);
    expect(await sample('pennant_cache_misses_total{cache="glyph_masks"}')).toBeGreaterThan(5);
    expect(await sample('pennant_cache_hits_total{cache="glyph_masks"}')).toBeGreaterThan(5);
    expect(await sample('pennant_cache_hits_total{cache="spare_pixmaps"}')).toBe(1);
    expect(await sample('pennant_cache_evictions_total{cache="glyph_masks"}', 0)).toBe(0);
  });

  test("serve collects its answering thread's heap once it has grown, and counts the collections", async () => {
    // Drawing on the answering thread, a 1200x300 WebP at scale 2 leaves its 40 MiB encoder there (src/serve/heap-watch.ts).
    const serve = await startServe({ PENNANT_DB: `${tempDir("heap-watch")}/pennant.db`, PENNANT_RENDER_THREADS: "0" });
    const collections = async () => Number(/^pennant_heap_collections_total (\S+)$/m.exec(await (await fetch(`${serve.url}/metrics`)).text())?.[1]);
    try {
      expect(await collections()).toBe(0);
      const large = await fetch(`${serve.url}/api/banner?server_name=Large&online_players=1&max_players=2&size=1200x300&scale=2&format=webp`);
      expect(large.status).toBe(200);
      await large.arrayBuffer();
      let counted = 0;
      for (let waited = 0; waited < 3000 && counted === 0; waited += 100) {
        await Bun.sleep(100);
        counted = await collections();
      }
      expect(counted).toBe(1);
      expect(Number(/^pennant_heap_collection_seconds_total (\S+)$/m.exec(await (await fetch(`${serve.url}/metrics`)).text())?.[1])).toBeGreaterThan(0);
    } finally {
      await serve.kill();
    }
  });

  test("a flood of random paths stays one series", async () => {
    server = await startTestServer();
    for (let i = 0; i < 300; i++) await fetch(`${server.url}/probe/${crypto.randomUUID()}?x=${i}`);
    expect(await sample('pennant_http_requests_total{method="GET",route="unmatched",status="404"}', 300)).toBe(300);
    const text = await scrape();
    expect(text).not.toContain("/probe/");
    expect(text.split("\n").filter((line) => line.startsWith("pennant_http_requests_total{")).length).toBeLessThan(5);
  });

  test("counts rate-limited requests by route", async () => {
    server = await startTestServer({ PENNANT_RATE_LIMIT: "2/60" });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await fetch(`${server.url}/api/lookup?address=10.0.0.1`)).status);
    expect(statuses).toEqual([200, 200, 429, 429, 429]);
    expect(await sample('pennant_rate_limited_total{route="/api/lookup"}', 3)).toBe(3);
    expect(await sample('pennant_http_requests_total{method="GET",route="/api/lookup",status="429"}', 3)).toBe(3);
  });

  test("counts lookups by outcome, cached answers included, and shows the lookup caches' sizes", async () => {
    peer = await startCountingPeer("modern");
    server = await startTestServer({}, { lookup: new LookupService({ allowPrivate: false }) });
    await fetch(`${server.url}/api/lookup?address=10.0.0.1`);
    await fetch(`${server.url}/api/lookup?address=10.0.0.1`);
    await fetch(`${server.url}/api/lookup?address=192.168.1.1`);
    expect(await sample('pennant_lookups_total{outcome="blocked_address"}', 3)).toBe(3);
    await server.close();

    server = await startTestServer({}, { lookup: new LookupService({ allowPrivate: true }) });
    expect((await fetch(`${server.url}/api/lookup?address=127.0.0.1:${peer.port}`)).status).toBe(200);
    expect(await sample('pennant_lookups_total{outcome="online"}')).toBe(1);
    expect(await sample('pennant_cache_entries{cache="lookup_results"}')).toBe(1);
    expect(await sample('pennant_cache_bytes{cache="lookup_results"}')).toBeGreaterThan(100);
  });

  test("served to this machine only by default: a request relayed by a proxy is refused", async () => {
    server = await startTestServer();
    await scrape();
    for (const header of ["X-Forwarded-For", "Forwarded", "X-Real-IP"]) {
      const relayed = await fetch(`${server.url}/metrics`, { headers: { [header]: "203.0.113.5" } });
      expect(relayed.status).toBe(403);
      expect(((await relayed.json()) as any).error.code).toBe("forbidden");
    }
  });

  test("with PENNANT_METRICS_TOKEN every scraper must send it as a bearer token", async () => {
    const secret = "scrape-secret-0123456789";
    server = await startTestServer({ PENNANT_METRICS_TOKEN: secret });
    for (const authorization of [undefined, "Bearer wrong-secret-0123456789", `Basic ${secret}`, `Bearer ${secret}x`]) {
      const response = await fetch(`${server.url}/metrics`, { headers: authorization ? { Authorization: authorization } : {} });
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toContain("Bearer");
      expect(((await response.json()) as any).error.code).toBe("unauthorized");
    }
    expect(await scrape({ Authorization: `Bearer ${secret}` })).toContain("pennant_http_requests_total");
    expect(await scrape({ Authorization: `Bearer ${secret}`, "X-Forwarded-For": "203.0.113.5" })).toContain("pennant_http_requests_total");
  });
});
