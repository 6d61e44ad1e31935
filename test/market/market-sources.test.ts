// Each site's project and author read from its stand-in (written from the
// site's documentation: test/support/market-peers.ts) into the one model,
// every field checked; unknown ones are "not found", references of another
// form "invalid" and never fetched.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { CacheBudget } from "../../src/cache/budget.ts";
import { loadConfig } from "../../src/config.ts";
import type { MarketSite } from "../../src/market/market-project.ts";
import { MarketCache } from "../../src/market/market-service.ts";
import { startMarketPeers, type MarketPeers } from "../support/market-peers.ts";

let peers: MarketPeers;
beforeAll(() => {
  peers = startMarketPeers();
});
afterAll(async () => {
  await peers.close();
});

function markets(): MarketCache {
  return new MarketCache({ settings: loadConfig(peers.env).markets, userAgent: "Pennant/test (tests)", budget: new CacheBudget(), now: Date.now });
}

describe("projects", () => {
  test("Modrinth: by slug or id; versions without changelogs, the newest by date; the team's owner", async () => {
    const expected = {
      status: "found", stale: false,
      value: {
        site: "modrinth", id: "AANobbMI", slug: "sodium", name: "Sodium", author: "jellysquid3", iconUrl: "https://cdn.modrinth.com/data/AANobbMI/icon.png",
        downloads: 51_234_567, rating: null, followers: 25_400, latestVersion: "mc1.21.4-0.6.5", gameVersions: "1.16.5-1.21.4",
        updatedAt: Date.parse("2025-01-06T12:00:00Z"),
      },
    };
    const service = markets();
    expect(await service.project("modrinth", "sodium")).toMatchObject(expected);
    expect(await service.project("modrinth", "AANobbMI")).toMatchObject(expected);
  });

  test("Spigot: the resource, its latest version and author; an address's number works too", async () => {
    const expected = {
      status: "found",
      value: {
        site: "spigot", id: "28140", slug: null, name: "LuckPerms", author: "Luck", iconUrl: "https://www.spigotmc.org/data/resource_icons/28/28140.jpg?1600000000",
        downloads: 2_043_210, rating: { average: 4.9, votes: 1_204 }, followers: 1_480, latestVersion: "5.4.145", gameVersions: "1.8-1.21",
        updatedAt: 1_735_900_000_000,
      },
    };
    const service = markets();
    expect(await service.project("spigot", "28140")).toMatchObject(expected);
    expect(await service.project("spigot", "luckperms.28140")).toMatchObject(expected);
    // The description (base64 HTML, hundreds of KB on real resources) is not asked for.
    expect(peers.requests.spigot.find((path) => path.startsWith("/resources/28140?"))).toContain("fields=");
  });

  test("Hangar: owner/slug, the owner checked; game versions of Paper and Waterfall, not Velocity's own", async () => {
    const found = await markets().project("hangar", "viaversion/ViaVersion");
    expect(found).toMatchObject({
      status: "found",
      value: {
        site: "hangar", id: "ViaVersion/ViaVersion", slug: "ViaVersion", name: "ViaVersion", author: "ViaVersion",
        iconUrl: "https://hangarcdn.papermc.io/avatars/project/2.webp?v=1", downloads: 1_312_345, rating: null, followers: 612,
        latestVersion: "5.2.1", gameVersions: "1.8-1.21.4", updatedAt: Date.parse("2025-01-05T08:00:00Z"),
      },
    });
    // Hangar finds a project by its slug alone: another owner's name must not find it.
    expect(await markets().project("hangar", "SomeoneElse/ViaVersion")).toEqual({ status: "not_found" });
  });

  test("CurseForge: CFWidget's project, the owner member, game versions without loaders, the newest upload", async () => {
    expect(await markets().project("curseforge", "238222")).toMatchObject({
      status: "found",
      value: {
        site: "curseforge", id: "238222", name: "Just Enough Items (JEI)", author: "mezz",
        iconUrl: "https://media.forgecdn.net/avatars/thumbnails/29/69/256/256/635838945588716414.jpeg", downloads: 412_345_678, rating: null,
        followers: null, latestVersion: "jei-1.21.4-neoforge-20.0.0.jar", gameVersions: "1.12.2-1.21.4", updatedAt: Date.parse("2025-01-04T00:00:00Z"),
      },
    });
  });

  test("CurseForge: a 202 (CFWidget fetching a project it did not know) is asked once more", async () => {
    peers.cfwidgetFetching.add("59751");
    const before = peers.requests.curseforge.length;
    expect(await markets().project("curseforge", "59751")).toMatchObject({ status: "found", value: { name: "Mouse Tweaks", gameVersions: null, updatedAt: null } });
    expect(peers.requests.curseforge.length - before).toBe(2);
  });

  test("Polymart: getResourceInfo with numbers as numbers; an address's number works too", async () => {
    const expected = {
      status: "found",
      value: {
        site: "polymart", id: "323", name: "Polymart Plugin", author: "Polymart", iconUrl: "https://polymart.org/image/323.png", downloads: 65_500,
        rating: { average: 4.5, votes: 12 }, followers: null, latestVersion: "1.2.3", gameVersions: null, updatedAt: 1_735_000_000_000,
      },
    };
    expect(await markets().project("polymart", "323")).toMatchObject(expected);
    expect(await markets().project("polymart", "polymart-plugin.323")).toMatchObject(expected);
  });

  test.each([["modrinth", "no-such-mod"], ["spigot", "999999"], ["hangar", "Nobody/Nothing"], ["curseforge", "404404"], ["polymart", "404404"]] as const)(
    "%s: an unknown project is not found",
    async (site, project) => {
      expect(await markets().project(site, project)).toEqual({ status: "not_found" });
    },
  );

  test.each([
    ["modrinth", "a b"], ["modrinth", "x"], ["spigot", "luckperms"], ["spigot", "-1"], ["hangar", "ViaVersion"], ["hangar", "a/b/c"],
    ["curseforge", "jei"], ["polymart", "../323"],
  ] as const)("%s: %p is no reference, and nothing is asked", async (site, project) => {
    const before = peers.requests[site].length;
    const answer = await markets().project(site, project);
    expect(answer.status).toBe("invalid");
    expect(peers.requests[site].length).toBe(before);
  });
});

describe("authors", () => {
  const cases: Array<[MarketSite, string, object]> = [
    ["modrinth", "jellysquid3", { id: "TEnKhdos", name: "jellysquid3", iconUrl: "https://cdn.modrinth.com/u1.png", projects: 2, downloads: 71_234_567, followers: 35_000, rating: null }],
    ["spigot", "100356", {
      id: "100356", name: "Luck", iconUrl: "https://www.spigotmc.org/data/avatars/l/100/100356.jpg?1", projects: 2, downloads: 2_143_210, followers: 1_500,
      rating: { average: (4.9 * 1204 + 4.0 * 96) / 1300, votes: 1300 },
    }],
    ["hangar", "ViaVersion", { id: "ViaVersion", name: "ViaVersion", iconUrl: "https://hangarcdn.papermc.io/avatars/user/9.webp", projects: 2, downloads: 2_012_345, followers: 912, rating: null }],
    // The author's list names a project CurseForge no longer has: counted as none.
    ["curseforge", "mezz", { id: "1", name: "mezz", iconUrl: null, projects: 2, downloads: 412_445_678, followers: null, rating: null }],
    ["polymart", "1", { id: "1", name: "Polymart", iconUrl: "https://polymart.org/user/1.png", projects: 5, downloads: 123_456, followers: null, rating: { average: 4.6, votes: 40 } }],
  ];
  test.each(cases)("%s: %s's projects totalled", async (site, author, expected) => {
    const answer = await markets().author(site, author);
    expect(answer).toMatchObject({ status: "found", value: { site, ...expected } });
    const { value } = answer as { value: { rating: { average: number } | null } };
    if (value.rating) expect(value.rating.average).toBeCloseTo((expected as { rating: { average: number } }).rating.average, 10);
  });

  test.each([["modrinth", "nobody"], ["spigot", "1"], ["hangar", "nobody"], ["curseforge", "999"], ["polymart", "999"]] as const)(
    "%s: an unknown author is not found",
    async (site, author) => {
      expect(await markets().author(site, author)).toEqual({ status: "not_found" });
    },
  );
});
