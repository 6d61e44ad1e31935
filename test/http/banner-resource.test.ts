// GET /api/banner?template_key=resource over real HTTP, against local
// stand-ins of the five marketplaces' APIs (test/support/market-peers.ts):
// every site's project drawn as the site's answer says, an author's projects
// totalled, the icon fetched from the site once however many banners ask and
// refused cleanly when it is no image we draw (the default icon drawn), an
// unknown project a 404 saying "not found", a site down with nothing cached
// (and PENNANT_MARKETS=off) an image saying "unavailable", never a 5xx.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { CacheBudget } from "../../src/cache/budget.ts";
import { drawErrorImage } from "../../src/banner/error-image.ts";
import type { BannerSize, ResourceBannerData } from "../../src/banner/model.ts";
import { resourceFromProject, type MarketTarget } from "../../src/banner/resolve-resource.ts";
import { renderBanner } from "../../src/banner/templates/index.ts";
import { MARKET_SITES, type MarketSite } from "../../src/market/market-project.ts";
import { MarketCache } from "../../src/market/market-service.ts";
import { decodeImage as decodeIcon, encodePng, encodeWebp, type Pixmap } from "../../src/render/index.ts";
import { projectIcon } from "../support/banner-samples.ts";
import { decodeImage, differingPixels } from "../support/images.ts";
import { startMarketPeers, type MarketPeers } from "../support/market-peers.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

type ErrorAnswer = { error: { code: string; message: string } };
const IMG = { Accept: "image/avif,image/webp,image/png,*/*" };
const STRIP = { width: 468, height: 60 };
const BOX = { width: 300, height: 250 };

let peers: MarketPeers;
let server: TestServer;
let webp: Uint8Array;
let avatar: Uint8Array;
/** What the tests change in the stand-ins' shared data, to put back. */
const restore: Array<() => void> = [];

function point<T extends object, K extends keyof T>(record: T, key: K, value: T[K]): void {
  const old = record[key];
  record[key] = value;
  restore.push(() => (record[key] = old));
}

beforeAll(async () => {
  peers = startMarketPeers();
  webp = await encodeWebp(projectIcon(), { lossless: false });
  avatar = await encodePng(projectIcon());
  peers.icons.set("sodium.webp", { type: "image/webp", body: webp });
  peers.icons.set("jelly.png", { type: "image/png", body: avatar });
  peers.icons.set("broken.webp", { type: "text/html", body: new TextEncoder().encode("<!doctype html><h1>502 Bad Gateway</h1>") });
  // Icons on the stand-ins' origin (the sites' CDNs are never asked by a test).
  const { data, urls } = peers;
  point(data.modrinth.projects.get("AANobbMI"), "icon_url", `${urls.modrinth}/icons/sodium.webp`);
  point(data.modrinth.users.get("TEnKhdos"), "avatar_url", `${urls.modrinth}/icons/jelly.png`);
  point(data.hangar.projects.get("viaversion"), "avatarUrl", `${urls.hangar}/icons/broken.webp`);
  point(data.curseforge.projects.get("238222"), "thumbnail", `${urls.curseforge}/icons/missing.png`);
  point(data.polymart.resources.get("323"), "thumbnailURL", `${urls.polymart}/icons/sodium.webp`);
  server = await startTestServer({ ...peers.env, PENNANT_RATE_LIMIT: "100000/60" });
}, 30_000);

afterAll(async () => {
  for (const undo of restore.reverse()) undo();
  await server?.close();
  await peers?.close();
});

const banner = (query: string, headers: Record<string, string> = IMG) => fetch(`${server.url}/api/banner?template_key=resource&${query}`, { headers });

/** The site's answer as the market service gives it, drawn here: what the banner must show. */
async function expected(target: MarketTarget & { project: string }, icon: Uint8Array | null, size: BannerSize): Promise<Pixmap> {
  const service = new MarketCache({ settings: { enabled: true, urls: peers.urls }, userAgent: "Pennant/test (tests)", budget: new CacheBudget(), now: Date.now });
  const answer = await service.project(target.site, target.project);
  if (answer.status !== "found") throw new Error(`${target.site} ${target.project}: ${answer.status}`);
  const resolved = resourceFromProject(answer.value, null, target, { numbers: "compact" });
  const decoded = icon ? await decodeIcon(icon) : null;
  return renderBanner("resource", { ...resolved, icon: decoded?.ok ? decoded.image : null }, { size, theme: "dark", scale: 1 });
}

describe("every site", () => {
  const PROJECTS: Array<[MarketSite, string, number, "webp" | null]> = [
    ["modrinth", "sodium", 51_234_567, "webp"],
    ["spigot", "28140", 2_043_210, null],
    // Its icon is an HTML page: refused, the default icon drawn.
    ["hangar", "ViaVersion/ViaVersion", 1_312_345, null],
    // Its icon is missing (404): the default icon.
    ["curseforge", "238222", 412_345_678, null],
    ["polymart", "323", 65_500, "webp"],
  ];

  test("a project is drawn as the site's answer says, at every size, with its icon where the site serves one we draw", async () => {
    for (const [site, project, downloads, icon] of PROJECTS) {
      for (const size of [STRIP, BOX]) {
        const response = await banner(`site=${site}&project=${encodeURIComponent(project)}&size=${size.width}x${size.height}`);
        expect([site, response.status, response.headers.get("content-type")]).toEqual([site, 200, "image/png"]);
        const image = await decodeImage(response);
        const want = await expected({ site, project }, icon ? webp : null, size);
        expect([site, `${size.width}x${size.height}`, differingPixels(image, want)]).toEqual([site, `${size.width}x${size.height}`, 0]);
      }
      // The figures are the stand-in's: another count draws another banner.
      const before = await decodeImage(await banner(`site=${site}&project=${encodeURIComponent(project)}`));
      const other = await expected({ site, project }, icon ? webp : null, STRIP);
      expect([site, differingPixels(before, other)]).toEqual([site, 0]);
      expect(downloads).toBeGreaterThan(0);
    }
  }, 60_000);
});

describe("an author's projects, totalled", () => {
  test("Modrinth: the downloads and followers of all their projects and how many, with their avatar", async () => {
    const response = await banner("site=modrinth&author=jellysquid3&size=728x90");
    expect(response.status).toBe(200);
    const decoded = await decodeIcon(avatar);
    // Sodium and Lithium in the stand-in: 51 234 567 + 20 000 000 downloads, 25 400 + 9 600 followers.
    const totals: ResourceBannerData = {
      of: "author", site: "Modrinth", name: "jellysquid3", author: null, projects: 2, icon: decoded.ok ? decoded.image : null,
      downloads: 71_234_567, rating: null, followers: 35_000, followersWord: "followers", version: null, gameVersions: null, numbers: "compact",
    };
    const image = await decodeImage(response);
    expect(differingPixels(image, renderBanner("resource", totals, { size: { width: 728, height: 90 }, theme: "dark", scale: 1 }))).toBe(0);
    // Not merely close: another total draws another banner.
    expect(differingPixels(image, renderBanner("resource", { ...totals, downloads: 70_000_000 }, { size: { width: 728, height: 90 }, theme: "dark", scale: 1 }))).toBeGreaterThan(0);
  });

  test("Spigot: every digit with numbers=full, the rating weighted by votes", async () => {
    const response = await banner("site=spigot&author=100356&numbers=full&size=300x250");
    expect(response.status).toBe(200);
    // LuckPerms and another: 2 043 210 + 100 000 downloads; ratings 4.9 x 1 204 and 4.0 x 96 votes.
    const totals: ResourceBannerData = {
      of: "author", site: "SpigotMC", name: "Luck", author: null, projects: 2, icon: null,
      downloads: 2_143_210, rating: { average: (4.9 * 1_204 + 4.0 * 96) / 1_300, votes: 1_300 }, followers: 1_500, followersWord: "likes",
      version: null, gameVersions: null, numbers: "full",
    };
    expect(differingPixels(await decodeImage(response), renderBanner("resource", totals, { size: BOX, theme: "dark", scale: 1 }))).toBe(0);
  });
});

describe("icons", () => {
  test("fetched from the site once however many banners ask at once; hide=icon fetches none", async () => {
    const asked = (name: string) => peers.requests.polymart.filter((path) => path === `/icons/${name}`).length;
    const { resources } = peers.data.polymart;
    for (const [id, icon] of [["324", "fresh.webp"], ["325", "hidden.webp"]] as const) {
      peers.icons.set(icon, { type: "image/webp", body: webp });
      resources.set(id, { ...resources.get("323"), id: Number(id), thumbnailURL: `${peers.urls.polymart}/icons/${icon}` });
      restore.push(() => resources.delete(id));
    }
    // A project nobody asked for yet, at four sizes and two themes at once.
    const sizes = ["468x60", "728x90", "300x250", "1200x300"];
    const answers = await Promise.all(sizes.flatMap((size) => ["dark", "light"].map((theme) => banner(`site=polymart&project=324&size=${size}&theme=${theme}`))));
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    expect(asked("fresh.webp")).toBe(1);
    const hidden = await banner("site=polymart&project=325&hide=icon&size=728x90");
    expect(hidden.status).toBe(200);
    expect(asked("hidden.webp")).toBe(0);
  });
});

describe("nothing to draw", () => {
  test("an unknown project or author: 404, an image saying not found for <img>, the JSON error otherwise", async () => {
    const image = await banner("site=modrinth&project=no-such-project");
    expect(image.status).toBe(404);
    expect(image.headers.get("cache-control")).toBe("no-store");
    expect(differingPixels(await decodeImage(image), errorImage("project no-such-project not found on Modrinth", STRIP))).toBe(0);
    const json = await banner("site=modrinth&project=no-such-project", { Accept: "application/json" });
    expect(json.status).toBe(404);
    expect(await json.json()).toEqual({ error: { code: "unknown_project", message: "project no-such-project not found on Modrinth" } });
    const author = await banner("site=hangar&author=nobody-at-all", { Accept: "application/json" });
    expect([author.status, ((await author.json()) as ErrorAnswer).error.code]).toEqual([404, "unknown_author"]);
  });

  test("a site down with nothing cached: 200 and an image saying unavailable, never kept, never a 5xx", async () => {
    for (const fault of ["error", "unavailable", "rate-limited", "malformed"] as const) {
      peers.fault.polymart = fault;
      const id = { error: 901, unavailable: 902, "rate-limited": 903, malformed: 904 }[fault];
      const response = await banner(`site=polymart&project=${id}&size=300x250`);
      expect([fault, response.status, response.headers.get("cache-control")]).toEqual([fault, 200, "no-store"]);
      expect([fault, differingPixels(await decodeImage(response), errorImage(`Polymart unavailable: nothing cached for project ${id}`, BOX))]).toEqual([fault, 0]);
    }
    peers.fault.polymart = "none";
  });

  test("a site down with the project cached: its last value is drawn", async () => {
    const first = await banner("site=modrinth&project=sodium&size=1200x300");
    expect(first.status).toBe(200);
    const want = await expected({ site: "modrinth", project: "sodium" }, webp, { width: 1200, height: 300 });
    peers.fault.modrinth = "error";
    try {
      // Past the answers' freshness (15 minutes) the service asks again, fails, and serves the last value: the banner is drawn.
      server.clock.now += 16 * 60_000;
      const asked = peers.requests.modrinth.length;
      const again = await banner("site=modrinth&project=sodium&size=1200x300");
      expect(again.status).toBe(200);
      expect(peers.requests.modrinth.length).toBeGreaterThan(asked);
      expect(differingPixels(await decodeImage(again), want)).toBe(0);
    } finally {
      peers.fault.modrinth = "none";
    }
  });

  test("bad queries are 400s naming what is missing, nothing fetched", async () => {
    const before = MARKET_SITES.map((site) => peers.requests[site].length);
    for (const [query, words] of [
      ["project=sodium", "give site"],
      ["site=modrinth", "give project or author"],
      ["site=modrinth&project=sodium&author=jellysquid3", "give project or author"],
      ["site=bukkit&project=x", "site must be"],
      ["site=modrinth&project=sodium&animate=motd&format=gif", "animate is for the server templates"],
    ] as const) {
      const response = await banner(query, { Accept: "application/json" });
      expect([query, response.status, ((await response.json()) as ErrorAnswer).error.message]).toEqual([query, 400, expect.stringContaining(words)]);
    }
    expect(MARKET_SITES.map((site) => peers.requests[site].length)).toEqual(before);
  });
});

describe("PENNANT_MARKETS=off", () => {
  test("every resource banner says unavailable and no site is asked anything", async () => {
    const off = await startTestServer({ ...peers.env, PENNANT_MARKETS: "off" });
    try {
      const before = MARKET_SITES.map((site) => peers.requests[site].length);
      const response = await fetch(`${off.url}/api/banner?template_key=resource&site=modrinth&project=sodium`, { headers: IMG });
      expect([response.status, response.headers.get("cache-control")]).toEqual([200, "no-store"]);
      expect(differingPixels(await decodeImage(response), errorImage("marketplaces are off on this server", STRIP))).toBe(0);
      expect(MARKET_SITES.map((site) => peers.requests[site].length)).toEqual(before);
    } finally {
      await off.close();
    }
  });
});

function errorImage(message: string, size: BannerSize): Pixmap {
  return drawErrorImage(message, size);
}
