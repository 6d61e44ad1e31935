import { afterEach, describe, expect, test } from "bun:test";
import { LookupService } from "../../src/lookup/lookup-service.ts";
import { startCountingPeer, type CountingPeer } from "../support/java-peers.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { json } from "../support/signing.ts";

let server: TestServer;
let peer: CountingPeer | undefined;
afterEach(async () => {
  await server.close();
  await peer?.close();
  peer = undefined;
});

function get(query: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.url}/api/lookup${query}`, { headers });
}

describe("GET /api/lookup", () => {
  test("answers the mcstatus-style JSON of a live server, with CORS open", async () => {
    peer = await startCountingPeer("modern", { description: { text: "Hello ", color: "green", extra: [{ text: "<World>", bold: true }] } });
    server = await startTestServer({}, { lookup: new LookupService({ allowPrivate: true }) });
    const response = await get(`?address=127.0.0.1:${peer.port}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    const body = await json(response);
    expect(body).toMatchObject({
      online: true,
      host: "127.0.0.1",
      port: peer.port,
      ip_address: "127.0.0.1",
      edition: "java",
      protocol_used: "modern",
      srv_record: null,
      version: { name_raw: "Peer 1.21", name_clean: "Peer 1.21", protocol: 767 },
      players: { online: 3, max: 10, list: [] },
      motd: {
        clean: "Hello <World>",
        html: '<span style="color:#55ff55">Hello </span><span style="color:#55ff55;font-weight:bold">&lt;World&gt;</span>',
      },
      icon: null,
      plugins: [],
      error: null,
    });
    expect(JSON.parse(body.motd.raw).extra[0].text).toBe("<World>");
    expect(typeof body.latency_ms).toBe("number");
  });

  test("a blocked address is a 200 with online=false and the reason; no socket is opened", async () => {
    peer = await startCountingPeer("modern");
    server = await startTestServer();
    const response = await get(`?address=127.0.0.1:${peer.port}`);
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body.online).toBe(false);
    expect(body.error.code).toBe("blocked_address");
    expect(peer.connections).toBe(0);
  });

  test("a name that resolves to a blocked address answers like one that does not resolve, naming no address", async () => {
    peer = await startCountingPeer("modern");
    server = await startTestServer();
    const response = await get(`?address=localhost:${peer.port}`);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({ online: false, ip_address: null, error: { code: "no_such_host", message: "localhost does not resolve" } });
    expect(text).not.toContain("127.0.0.1");
    expect(peer.connections).toBe(0);
  });

  const badQueries: Array<[string, string]> = [
    ["", "address"],
    ["?address=", "address"],
    ["?address=play.example.com&edition=pocket", "edition"],
    ["?address=http://example.com", "invalid address"],
    ["?address=host:70000", "invalid address"],
    [`?address=${"a".repeat(301)}`, "300"],
  ];
  for (const [query, words] of badQueries) {
    test(`bad input ${JSON.stringify(query.slice(0, 40))} is a 400 JSON error with CORS`, async () => {
      server = await startTestServer();
      const response = await get(query);
      expect(response.status).toBe(400);
      expect(response.headers.get("access-control-allow-origin")).toBe("*");
      const body = await json(response);
      expect(body.error.code).toBe("invalid_request");
      expect(body.error.message).toContain(words);
    });
  }

  test("is limited per client IP (PENNANT_RATE_LIMIT), with Retry-After", async () => {
    server = await startTestServer({ PENNANT_RATE_LIMIT: "2/60" });
    expect((await get("?address=10.0.0.1")).status).toBe(200);
    expect((await get("?address=10.0.0.2")).status).toBe(200);
    const limited = await get("?address=10.0.0.3");
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited.headers.get("access-control-allow-origin")).toBe("*");
    expect((await json(limited)).error.code).toBe("rate_limited");
    // Without PENNANT_TRUST_PROXY a forged X-Forwarded-For changes nothing.
    expect((await get("?address=10.0.0.4", { "X-Forwarded-For": "203.0.113.9" })).status).toBe(429);
    server.clock.now += 61_000;
    expect((await get("?address=10.0.0.5")).status).toBe(200);
  });

  test("behind a proxy (PENNANT_TRUST_PROXY) each forwarded client has its own budget", async () => {
    server = await startTestServer({ PENNANT_RATE_LIMIT: "1/60", PENNANT_TRUST_PROXY: "on" });
    expect((await get("?address=10.0.0.1", { "X-Forwarded-For": "spoofed, 198.51.100.1" })).status).toBe(200);
    expect((await get("?address=10.0.0.1", { "X-Forwarded-For": "198.51.100.1" })).status).toBe(429);
    expect((await get("?address=10.0.0.1", { "X-Forwarded-For": "198.51.100.2" })).status).toBe(200);
  });
});
