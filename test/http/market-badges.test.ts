// Marketplace badges over real HTTP: a real server pointed at stand-ins of
// the five sites' APIs (test/support/market-peers.ts, written from their
// documentation). Every metric of every site as endpoint JSON, SVG (its text
// read) and PNG (decoded: the message's colour drawn, twice the size at
// scale=2); unknown and malformed projects and metrics; a site down with
// nothing kept ("unavailable", never a 5xx) and with a value kept (served,
// cached briefly); one fetch for many requests; PENNANT_MARKETS=off asking
// no site anything; OpenAPI listing the routes.

import { beforeAll, describe, expect, test } from "bun:test";
import { badgeColor } from "../../src/badge/colors.ts";
import { STYLE_NAMES } from "../../src/badge/styles.ts";
import { MARKET_SITES } from "../../src/market/market-project.ts";
import { countColor, decodeImage } from "../support/images.ts";
import { MARKET_NOW, startMarketServer, type MarketPeers } from "../support/market-peers.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { json } from "../support/signing.ts";

let peers: MarketPeers;
let server: TestServer;
beforeAll(async () => {
  ({ peers, server } = await startMarketServer());
});

const PROJECTS = { modrinth: "sodium", spigot: "28140", hangar: "ViaVersion/ViaVersion", curseforge: "238222", polymart: "323" } as const;

/** What each site's badges say: [metric, label, message, colour]. */
const EXPECTED: Record<keyof typeof PROJECTS, Array<[string, string, string, string]>> = {
  modrinth: [
    ["downloads", "downloads", "51M", "brightgreen"], ["version", "version", "mc1.21.4-0.6.5", "blue"], ["followers", "followers", "25k", "blue"],
    ["game-versions", "minecraft", "1.16.5-1.21.4", "blue"], ["updated", "updated", "12 hours ago", "brightgreen"],
  ],
  spigot: [
    ["downloads", "downloads", "2M", "brightgreen"], ["version", "version", "v5.4.145", "blue"], ["rating", "rating", "4.9/5 (1.2k)", "brightgreen"],
    ["followers", "likes", "1.5k", "blue"], ["game-versions", "minecraft", "1.8-1.21", "blue"], ["updated", "updated", "3 days ago", "brightgreen"],
  ],
  hangar: [
    ["downloads", "downloads", "1.3M", "brightgreen"], ["version", "version", "v5.2.1", "blue"], ["followers", "stars", "612", "blue"],
    ["game-versions", "minecraft", "1.8-1.21.4", "blue"], ["updated", "updated", "1 day ago", "brightgreen"],
  ],
  curseforge: [
    ["downloads", "downloads", "412M", "brightgreen"], ["version", "version", "jei-1.21.4-neoforge-20.0.0.jar", "blue"],
    ["game-versions", "minecraft", "1.12.2-1.21.4", "blue"], ["updated", "updated", "3 days ago", "brightgreen"],
  ],
  polymart: [
    ["downloads", "downloads", "66k", "brightgreen"], ["version", "version", "v1.2.3", "blue"], ["rating", "rating", "4.5/5 (12)", "brightgreen"],
    ["updated", "updated", "13 days ago", "green"],
  ],
};

const badgePath = (site: string, project: string, file: string) => `/shields/${site}/${project}/${file}`;

describe.each(MARKET_SITES)("%s: every metric", (site) => {
  test.each(EXPECTED[site])("%s: endpoint JSON, SVG and PNG", async (metric, label, message, color) => {
    const path = badgePath(site, PROJECTS[site], metric);
    const endpoint = await fetch(`${server.url}${path}.json`);
    expect(endpoint.status).toBe(200);
    expect(await json(endpoint)).toEqual({ schemaVersion: 1, label, message, color: badgeColor(color).css });
    expect(endpoint.headers.get("cache-control")).toMatch(/^public, max-age=(300|900)/);

    const svg = await fetch(`${server.url}${path}.svg`);
    expect(svg.headers.get("content-type")).toBe("image/svg+xml");
    const text = await svg.text();
    expect(text).toContain(`aria-label="${label}: ${message}"`);
    const width = Number(/<svg[^>]* width="(\d+)"/.exec(text)![1]);

    const png = await decodeImage(await fetch(`${server.url}${path}.png`));
    expect([png.width, png.height]).toEqual([width, 20]);
    // flat-square lays no gradient over the colours: the message's is drawn as it is.
    const square = await decodeImage(await fetch(`${server.url}${path}.png?style=flat-square`));
    expect(countColor(square, badgeColor(color).rgba)).toBeGreaterThan(100);
    const twice = await decodeImage(await fetch(`${server.url}${path}.png?scale=2`));
    expect([twice.width, twice.height]).toEqual([2 * width, 40]);
  });

  test("a metric the site does not publish is an unknown metric; the site's own are listed", async () => {
    const missing = ["downloads", "version", "rating", "followers", "game-versions", "updated"].find((metric) => !EXPECTED[site].some(([name]) => name === metric));
    if (missing === undefined) return;
    const answer = await fetch(`${server.url}${badgePath(site, PROJECTS[site], missing)}.json`);
    expect(answer.status).toBe(404);
    const body = (await json(answer)) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("unknown_metric");
    for (const [metric] of EXPECTED[site]) expect(body.error.message).toContain(metric);
  });
});

test("every style, as the endpoint JSON names it and the SVG draws it", async () => {
  for (const style of STYLE_NAMES) {
    const path = `${badgePath("modrinth", "sodium", "downloads")}`;
    expect(await json(await fetch(`${server.url}${path}.json?style=${style}`))).toMatchObject({ style, message: "51M" });
    const svg = await (await fetch(`${server.url}${path}.svg?style=${style}`)).text();
    // for-the-badge writes capitals, social capitalizes the label.
    expect(svg.toLowerCase()).toContain('aria-label="downloads: 51m"');
  }
});

describe("refusals, as badges where an image was asked", () => {
  test.each([
    ["modrinth", "no-such-mod"], ["spigot", "999999"], ["hangar", "Nobody/Nothing"], ["hangar", "SomeoneElse/ViaVersion"], ["curseforge", "404404"], ["polymart", "404404"],
  ])("%s %s: not found", async (site, project) => {
    const path = badgePath(site, project, "downloads");
    const answer = await fetch(`${server.url}${path}.json`);
    expect(answer.status).toBe(404);
    expect(((await json(answer)) as { error: { code: string } }).error.code).toBe("unknown_project");
    const svg = await fetch(`${server.url}${path}.svg`);
    expect(svg.status).toBe(404);
    expect(await svg.text()).toContain(`aria-label="${site}: not found"`);
    const png = await fetch(`${server.url}${path}.png`);
    expect([png.status, png.headers.get("content-type")]).toEqual([404, "image/png"]);
  });

  test.each([["modrinth", "x"], ["spigot", "luckperms"], ["curseforge", "jei"], ["polymart", "abc"]])("%s %s: invalid project", async (site, project) => {
    const before = peers.requests[site as keyof MarketPeers["requests"]].length;
    const answer = await fetch(`${server.url}${badgePath(site, project, "downloads")}.json`);
    expect(answer.status).toBe(400);
    expect(((await json(answer)) as { error: { code: string } }).error.code).toBe("invalid_project");
    const svg = await fetch(`${server.url}${badgePath(site, project, "downloads")}.svg`);
    expect([svg.status, (await svg.text()).includes(`aria-label="${site}: invalid project"`)]).toEqual([400, true]);
    expect(peers.requests[site as keyof MarketPeers["requests"]].length).toBe(before);
  });
});

describe("a site that fails", () => {
  test("with nothing kept: an 'unavailable' badge, status 200 (never a 5xx), cached a minute", async () => {
    peers.fault.polymart = "error";
    try {
      for (const format of ["json", "svg", "png"]) {
        const answer = await fetch(`${server.url}${badgePath("polymart", "polymart-plugin.324", "downloads")}.${format}`);
        expect(answer.status).toBe(200);
        expect(answer.headers.get("cache-control")).toBe("public, max-age=60, s-maxage=60");
        if (format === "json") expect(await json(answer)).toEqual({ schemaVersion: 1, label: "downloads", message: "unavailable", color: badgeColor("lightgrey").css });
        if (format === "svg") expect(await answer.text()).toContain('aria-label="downloads: unavailable"');
      }
    } finally {
      peers.fault.polymart = "none";
    }
  });

  test("with a value kept: the last value, cached a minute so the fresh one shows soon after", async () => {
    const path = badgePath("hangar", "ViaVersion/ViaVersion", "followers");
    expect(await json(await fetch(`${server.url}${path}.json`))).toMatchObject({ message: "612" });
    server.clock.now += 16 * 60_000;
    peers.fault.hangar = "unavailable";
    try {
      const stale = await fetch(`${server.url}${path}.json`);
      expect([stale.status, stale.headers.get("cache-control")]).toEqual([200, "public, max-age=60, s-maxage=60"]);
      expect(await json(stale)).toMatchObject({ label: "stars", message: "612" });
      const png = await fetch(`${server.url}${path}.png`);
      expect(png.status).toBe(200);
    } finally {
      peers.fault.hangar = "none";
      server.clock.now = MARKET_NOW;
    }
  });
});

test("many requests for one badge at once: one fetch (Modrinth's three requests for a project)", async () => {
  const before = peers.requests.modrinth.length;
  const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => fetch(`${server.url}${badgePath("modrinth", "AANobbMI", "downloads")}.svg?label=d${i % 4}`)));
  expect(answers.map((answer) => answer.status)).toEqual(Array(40).fill(200));
  expect(peers.requests.modrinth.length - before).toBe(3);
});

test("PENNANT_MARKETS=off: every badge says 'unavailable', and no site is asked anything", async () => {
  const off = await startTestServer({ ...peers.env, PENNANT_MARKETS: "off" }, { clockStart: MARKET_NOW });
  const before = MARKET_SITES.map((site) => peers.requests[site].length);
  for (const site of MARKET_SITES) {
    for (const format of ["json", "svg", "png"]) {
      const answer = await fetch(`${off.url}${badgePath(site, PROJECTS[site], "downloads")}.${format}`);
      expect(answer.status).toBe(200);
      if (format === "json") expect(await json(answer)).toMatchObject({ message: "unavailable" });
    }
  }
  expect(MARKET_SITES.map((site) => peers.requests[site].length)).toEqual(before);
  await off.close();
});

test("OpenAPI lists each site's badge route with its metrics", async () => {
  const document = (await json(await fetch(`${server.url}/openapi.json`))) as { paths: Record<string, { get?: { parameters?: Array<{ name: string; schema?: { description?: string } ; description?: string }> } }> };
  for (const site of MARKET_SITES) {
    const path = site === "hangar" ? "/shields/hangar/{owner}/{slug}/{metric}" : `/shields/${site}/{project}/{metric}`;
    expect(Object.keys(document.paths)).toContain(path);
    const metric = document.paths[path]!.get!.parameters!.find((parameter) => parameter.name === "metric")!;
    const described = JSON.stringify(metric);
    for (const [name] of EXPECTED[site]) expect(described).toContain(name);
  }
});
