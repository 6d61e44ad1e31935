// The service between badges and the sites: one fetch for many requests,
// answers kept 15 minutes, the last value served (marked stale) while a site
// fails in any of the ways a site fails, for up to a day; a site that says
// 429 is left alone for its Retry-After; PENNANT_MARKETS=off asks nothing.
// Against the stand-ins of test/support/market-peers.ts, on a clock of the
// test's (deadlines are real time, shortened).

import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { CacheBudget } from "../../src/cache/budget.ts";
import { CACHE_SHARES, loadConfig } from "../../src/config.ts";
import { MARKET_FRESH_MS, MARKET_KEPT_MS, MarketCache, MARKET_NOT_FOUND_MS, MARKET_RETRY_MS, MARKET_STALE_WAIT_MS } from "../../src/market/market-service.ts";
import { MARKET_SITES } from "../../src/market/market-project.ts";
import { startMarketPeers, type MarketPeers, type PeerFault } from "../support/market-peers.ts";

let peers: MarketPeers;
beforeAll(() => {
  peers = startMarketPeers();
});
afterAll(async () => {
  await peers.close();
});
afterEach(() => {
  for (const site of MARKET_SITES) peers.fault[site] = "none";
});

const TIMEOUT_MS = 400;

function markets(env: Record<string, string> = {}, budget = new CacheBudget(), timeoutMs = TIMEOUT_MS) {
  const clock = { now: Date.parse("2025-01-07T00:00:00Z") };
  const service = new MarketCache({
    settings: loadConfig({ ...peers.env, ...env }).markets, userAgent: "Pennant/test (tests)", budget, now: () => clock.now, timeoutMs,
  });
  return { service, clock };
}

const asked = (site: keyof MarketPeers["requests"]) => peers.requests[site].length;

test("many requests at once: one fetch (a project's three requests to Modrinth), then answered from the cache", async () => {
  const { service } = markets();
  const before = asked("modrinth");
  const answers = await Promise.all(Array.from({ length: 50 }, () => service.project("modrinth", "sodium")));
  expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set(["found"]));
  expect(asked("modrinth") - before).toBe(3);
  await service.project("modrinth", "sodium");
  expect(asked("modrinth") - before).toBe(3);
  expect(service.requestsSent("modrinth")).toBe(3);
});

test("kept 15 minutes, then fetched again", async () => {
  const { service, clock } = markets();
  const before = asked("spigot");
  await service.project("spigot", "28140");
  clock.now += MARKET_FRESH_MS - 1000;
  await service.project("spigot", "28140");
  expect(asked("spigot") - before).toBe(3);
  clock.now += 2000;
  await service.project("spigot", "28140");
  expect(asked("spigot") - before).toBe(6);
});

test("'not found' is kept 5 minutes: a project made meanwhile shows after them", async () => {
  const { service, clock } = markets();
  expect(await service.project("polymart", "777")).toEqual({ status: "not_found" });
  peers.data.polymart.resources.set("777", { ...peers.data.polymart.resources.get("323"), id: 777, title: "New One" });
  try {
    expect(await service.project("polymart", "777")).toEqual({ status: "not_found" });
    clock.now += MARKET_NOT_FOUND_MS + 1;
    expect(await service.project("polymart", "777")).toMatchObject({ status: "found", value: { name: "New One" } });
  } finally {
    peers.data.polymart.resources.delete("777");
  }
});

const FAULTS: PeerFault[] = ["error", "unavailable", "rate-limited", "slow", "slow-body", "huge", "malformed", "wrong-shape", "redirect"];

describe.each(FAULTS)("a site that fails (%s)", (fault) => {
  test("with nothing kept: unavailable, and asked again only after a minute", async () => {
    peers.delayMs = 2_000;
    const { service, clock } = markets();
    peers.fault.hangar = fault;
    const before = asked("hangar");
    const started = performance.now();
    expect(await service.project("hangar", "ViaVersion/ViaVersion")).toEqual({ status: "unavailable", reason: "down" });
    // Within the deadline (and CFWidget's one retry), whatever the site does.
    expect(performance.now() - started).toBeLessThan(TIMEOUT_MS + 600);
    const sent = asked("hangar") - before;
    expect(sent).toBeGreaterThan(0);
    expect(await service.project("hangar", "ViaVersion/ViaVersion")).toEqual({ status: "unavailable", reason: "down" });
    clock.now += MARKET_RETRY_MS + 1;
    peers.fault.hangar = "none";
    // A 429 leaves the site alone for its Retry-After (30 s, within the minute): asked again now.
    expect(await service.project("hangar", "ViaVersion/ViaVersion")).toMatchObject({ status: "found" });
  });

  test("with a value kept: the last value, marked stale, for up to a day", async () => {
    peers.delayMs = 2_000;
    const { service, clock } = markets();
    const fresh = await service.project("hangar", "ViaVersion/ViaVersion");
    expect(fresh).toMatchObject({ status: "found", stale: false });
    const { fetchedAt } = fresh as { fetchedAt: number };
    clock.now += MARKET_FRESH_MS + 1;
    peers.fault.hangar = fault;
    const stale = await service.project("hangar", "ViaVersion/ViaVersion");
    expect(stale).toEqual({ ...fresh, stale: true, fetchedAt } as typeof stale);
    clock.now += MARKET_KEPT_MS - MARKET_FRESH_MS - 2 * MARKET_RETRY_MS;
    expect(await service.project("hangar", "ViaVersion/ViaVersion")).toMatchObject({ status: "found", stale: true, fetchedAt });
    clock.now += 2 * MARKET_RETRY_MS;
    expect(await service.project("hangar", "ViaVersion/ViaVersion")).toEqual({ status: "unavailable", reason: "down" });
  });
});

test("a 429 leaves the site alone for its Retry-After: no request for any project meanwhile", async () => {
  const { service, clock } = markets();
  peers.fault.polymart = "rate-limited";
  expect(await service.project("polymart", "323")).toEqual({ status: "unavailable", reason: "down" });
  const before = asked("polymart");
  peers.fault.polymart = "none";
  clock.now += 20_000;
  expect(await service.author("polymart", "1")).toEqual({ status: "unavailable", reason: "down" });
  expect(asked("polymart")).toBe(before);
  clock.now += 11_000;
  expect(await service.project("polymart", "777")).toEqual({ status: "not_found" });
  expect(asked("polymart")).toBe(before + 1);
});

test("a slow site with a value kept: the last value within a second, the new one kept when it comes", async () => {
  const { service: slowService, clock } = markets({}, new CacheBudget(), 5_000);
  await slowService.project("modrinth", "sodium");
  clock.now += MARKET_FRESH_MS + 1;
  peers.fault.modrinth = "slow";
  peers.delayMs = 2_000;
  const started = performance.now();
  expect(await slowService.project("modrinth", "sodium")).toMatchObject({ status: "found", stale: true });
  expect(performance.now() - started).toBeLessThan(MARKET_STALE_WAIT_MS + 500);
  await Bun.sleep(2_500);
  expect(await slowService.project("modrinth", "sodium")).toMatchObject({ status: "found", stale: false });
});

test("PENNANT_MARKETS=off: every answer unavailable, and no site asked anything", async () => {
  const { service } = markets({ PENNANT_MARKETS: "off" });
  const before = MARKET_SITES.map((site) => asked(site));
  for (const site of MARKET_SITES) {
    expect(await service.project(site, site === "hangar" ? "ViaVersion/ViaVersion" : "28140")).toEqual({ status: "unavailable", reason: "off" });
    expect(await service.author(site, "1")).toEqual({ status: "unavailable", reason: "off" });
  }
  expect(MARKET_SITES.map((site) => asked(site))).toEqual(before);
});

test("answers stay within their share of the cache budget", async () => {
  const budget = new CacheBudget({ ...CACHE_SHARES, market_answers: 8 * 1024 });
  const { service } = markets({}, budget);
  for (let i = 0; i < 100; i++) await service.project("polymart", String(1000 + i));
  await service.project("modrinth", "sodium");
  const [, stats] = [...budget.usage()].find(([name]) => name === "market_answers")!;
  expect(stats.bytes).toBeLessThanOrEqual(8 * 1024);
  expect(stats.evictions).toBeGreaterThan(0);
});
