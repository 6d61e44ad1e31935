// GET /api/market over real HTTP against the sites' stand-ins: a project and
// an author as JSON with when they were fetched; the last value served while
// the site is down, marked stale; unavailable with nothing kept; refusals.

import { beforeAll, expect, test } from "bun:test";
import { MARKET_NOW, startMarketServer, type MarketPeers } from "../support/market-peers.ts";
import type { TestServer } from "../support/server.ts";
import { json } from "../support/signing.ts";

let peers: MarketPeers;
let server: TestServer;
beforeAll(async () => {
  ({ peers, server } = await startMarketServer());
});

const get = async (query: string) => {
  const response = await fetch(`${server.url}/api/market?${query}`);
  return { status: response.status, cache: response.headers.get("cache-control"), body: (await json(response)) as any };
};

test("a project, fetched now, not stale; then served stale while the site is down, with when it was fetched", async () => {
  const fresh = await get("site=spigot&project=luckperms.28140");
  expect(fresh).toEqual({
    status: 200, cache: "public, max-age=300",
    body: {
      site: "spigot", status: "found", fetched_at: new Date(MARKET_NOW).toISOString(), stale: false, author: null, error: null,
      project: {
        id: "28140", slug: null, name: "LuckPerms", author: "Luck", icon_url: "https://www.spigotmc.org/data/resource_icons/28/28140.jpg?1600000000",
        downloads: 2_043_210, rating: { average: 4.9, votes: 1_204 }, followers: 1_480, latest_version: "5.4.145", game_versions: "1.8-1.21",
        updated_at: "2025-01-03T10:26:40.000Z",
      },
    },
  });
  server.clock.now += 20 * 60_000;
  peers.fault.spigot = "error";
  try {
    const stale = await get("site=spigot&project=28140");
    expect(stale.status).toBe(200);
    expect(stale.cache).toBe("public, max-age=60");
    expect(stale.body).toEqual({ ...fresh.body, stale: true });
  } finally {
    peers.fault.spigot = "none";
    server.clock.now = MARKET_NOW;
  }
});

test("an author's projects totalled", async () => {
  const answer = await get("site=hangar&author=ViaVersion");
  expect(answer.body).toMatchObject({
    site: "hangar", status: "found", project: null,
    author: { id: "ViaVersion", name: "ViaVersion", projects: 2, downloads: 2_012_345, followers: 912, rating: null },
  });
});

test("nothing kept and the site down: status unavailable, said why, 200 and cached a minute", async () => {
  peers.fault.modrinth = "unavailable";
  try {
    expect(await get("site=modrinth&project=lithium")).toEqual({
      status: 200, cache: "public, max-age=60",
      body: {
        site: "modrinth", status: "unavailable", fetched_at: null, stale: false, project: null, author: null,
        error: { code: "market_unavailable", message: "the site did not answer usably and nothing is kept; asked again in a minute" },
      },
    });
  } finally {
    peers.fault.modrinth = "none";
  }
});

test.each([
  ["site=ore&project=x", 400, "invalid_request"],
  ["site=modrinth", 400, "invalid_request"],
  ["site=modrinth&project=sodium&author=jellysquid3", 400, "invalid_request"],
  ["site=hangar&project=ViaVersion", 400, "invalid_request"],
  ["site=curseforge&project=404404", 404, "unknown_project"],
  ["site=polymart&author=999", 404, "unknown_author"],
])("%s: %d %s", async (query, status, code) => {
  const answer = await get(query);
  expect(answer.status).toBe(status);
  expect(answer.body.error.code).toBe(code);
});
