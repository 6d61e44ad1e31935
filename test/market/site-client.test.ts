// One site's client: the User-Agent the sites ask for, at most a few requests
// in flight, a bounded number waiting (each within the deadline), what a 404
// says. Against a loopback server that counts what reaches it.

import { afterEach, expect, test } from "bun:test";
import { MarketUnavailable, SiteClient } from "../../src/market/site-client.ts";
import { track } from "../support/cleanup.ts";

let inFlight = 0, mostInFlight = 0;
const agents: string[] = [];

function site(delayMs: number) {
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      agents.push(request.headers.get("user-agent") ?? "");
      if (new URL(request.url).pathname === "/missing") return new Response("{}", { status: 404 });
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      await Bun.sleep(delayMs);
      inFlight--;
      return Response.json({ ok: true });
    },
  });
  track(() => server.stop(true));
  return `http://127.0.0.1:${server.port}`;
}

afterEach(() => {
  inFlight = mostInFlight = 0;
  agents.length = 0;
});

const client = (baseUrl: string, options: Partial<ConstructorParameters<typeof SiteClient>[0]> = {}) => new SiteClient({
  baseUrl, userAgent: "Pennant/9.9.9 (self-hosted badge server; +https://status.example.net)", timeoutMs: 2_000, maxInFlight: 2, maxWaiting: 10, now: Date.now, ...options,
});

test("names Pennant in its User-Agent; a 404 is null", async () => {
  const sites = client(site(0));
  expect(await sites.json("/thing", 1024)).toEqual({ ok: true });
  expect(await sites.json("/missing", 1024)).toBeNull();
  expect(agents).toEqual(Array(2).fill("Pennant/9.9.9 (self-hosted badge server; +https://status.example.net)"));
});

test("at most maxInFlight requests reach the site at once; the others wait their turn", async () => {
  const sites = client(site(100));
  // Arriving one after another, some while others wait and slots are handed over.
  const answers = await Promise.all(Array.from({ length: 10 }, async (_, i) => {
    await Bun.sleep(i * 30);
    return sites.json(`/thing/${i}`, 1024);
  }));
  expect(answers).toEqual(Array(10).fill({ ok: true }));
  expect(mostInFlight).toBe(2);
  expect(sites.sent).toBe(10);
});

test("beyond maxWaiting, and past the deadline while waiting, a request is refused without being sent", async () => {
  const sites = client(site(600), { maxWaiting: 2, timeoutMs: 1_000 });
  const results = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => sites.json(`/thing/${i}`, 1024)));
  // Two in flight, two waiting (each sent after 600 ms, answered at 1.2 s: past its deadline), two refused at once.
  const refused = results.filter((result) => result.status === "rejected").map((result) => (result as PromiseRejectedResult).reason);
  expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(2);
  expect(refused.every((reason) => reason instanceof MarketUnavailable)).toBe(true);
  expect(refused.map((reason) => (reason as Error).message).filter((message) => message.includes("waiting"))).toHaveLength(2);
  await Bun.sleep(700);
  expect(mostInFlight).toBe(2);
});
