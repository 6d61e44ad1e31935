// Banner data to look at: what the deployed EzBanners plugin pushes, as the
// resolver hands it over (realistic), data at every limit (stress), an
// unreachable server (offline), and Hytale servers: one whose plugin pushes
// (hytale), one asked without a query plugin (hytaleUnknown). Shared by the preview script
// (bench/banner-preview.ts) and the banner goldens in docs/gallery.

import { iconRgba } from "../../bench/render/scenes.ts";
import type { BannerData, PluginBannerData, ResourceBannerData, ServerBannerData } from "../../src/banner/model.ts";
import { factsFromLookup, factsFromNetwork, factsFromRecord, resolveServer, serverBannerData, sumHistories } from "../../src/banner/resolve-banner-data.ts";
import type { ServerRow } from "../../src/store/records.ts";
import { splitMotd } from "../../src/minecraft/motd.ts";
import { gameVersion } from "../../src/minecraft/version.ts";
import { Path, Pixmap, fillPath, linearGradient, parseHexColor, solid } from "../../src/render/index.ts";

const HOUR = 3_600_000;
/** A fixed clock: the samples (and the goldens drawn from them) never change with the day. */
const NOW = Date.UTC(2026, 10, 21, 11, 0);

/** A day of samples every 10 minutes: quiet mornings, an evening peak, some noise. */
function dayOfPlayers(peak: number): Array<{ at: number; online: number }> {
  return Array.from({ length: 145 }, (_, i) => {
    const at = NOW - 24 * HOUR + i * 600_000;
    const hour = new Date(at).getUTCHours() + new Date(at).getUTCMinutes() / 60;
    const fromPeak = Math.min(Math.abs(hour - 20.5), 24 - Math.abs(hour - 20.5));
    const evening = Math.exp(-(fromPeak * fromPeak) / 18);
    const noise = Math.sin(i * 0.9) * 0.025 + Math.sin(i * 0.23) * 0.05;
    return { at, online: Math.max(0, Math.round(peak * (0.12 + 0.8 * evening + noise))) };
  });
}

// A real display name; the count is the newest sample of its history.
export const realistic: ServerBannerData = {
  name: "Skyblock Paradise",
  status: "online",
  players: { online: 3, max: 50 },
  motd: splitMotd("§aWelcome to §6Skyblock Paradise§a!\n§7Islands, quests and weekly events"),
  version: gameVersion("1.21.4-232-ab12cd3 (MC: 1.21.4)"),
  latencyMs: 42,
  favicon: Pixmap.fromStraightRgba(64, 64, iconRgba()),
  history: dayOfPlayers(14).map((p, i, all) => (i === all.length - 1 ? { ...p, online: 3 } : p)),
  address: "play.skyblockparadise.net",
};

export const stress: ServerBannerData = {
  name: "The Ultimate Minecraft Survival Experience Network — Season 12 Reloaded",
  status: "online",
  players: { online: dayOfPlayers(90_000).at(-1)!.online, max: 100_000 },
  motd: splitMotd("        §c§l✦ §6§lMEGA §e§lSALE §a§l✦ §b50% OFF §d§nall ranks§r §1dark blue §0black §8grey§r        \n  §f§kxx§r §9Factions §7| §2Prisons §7| §3Skywars §7| §5Bedwars §7| §4Hardcore §7| §eCreative  "),
  version: gameVersion("Paper 1.20.1 - 1.21.4"),
  latencyMs: 480,
  favicon: null,
  history: dayOfPlayers(90_000),
  address: "mc.the-ultimate-survival-experience-network.example.org:25577",
};

export const offline: ServerBannerData = {
  name: "Creative Builders",
  status: "offline",
  players: null,
  motd: ["", ""],
  version: null,
  latencyMs: null,
  favicon: null,
  history: [],
  address: "creative.example.net",
};

export const pluginRealistic: PluginBannerData = {
  name: "EzBanners",
  version: "0.2.1",
  counters: [["servers", 1284], ["players", 35_210]],
  active: true,
};

export const pluginStress: PluginBannerData = {
  name: "AdvancedEnchantmentsAndCustomItemsReloaded Premium Edition",
  version: "12.4.0-SNAPSHOT-build.2291",
  counters: [["servers", 48_213], ["players", 1_284_512], ["total_downloads", 9_876_543], ["rating", 5], ["reviews", 2210], ["worlds", 12]],
  active: false,
};

/** A member of the network sample, pushed a minute before NOW unless `lastSeen` says otherwise. */
function member(uuid: string, name: string, status: string, playersOnline: number, playersMax: number, lastSeen = NOW - 60_000): ServerRow {
  return {
    uuid, tokenId: 1, name, pluginVersion: null, status, playersOnline, playersMax, tps: 20, motd: null, version: "1.21.4", extra: null,
    firstSeen: 0, lastSeen, statsUpdatedAt: lastSeen, pageEnabled: true,
  };
}

/** The day's charts of the network sample's three online members; each one's count now is its chart's last point. */
const memberDays = [dayOfPlayers(60), dayOfPlayers(150), dayOfPlayers(70)];
const nowOf = (day: number) => memberDays[day]!.at(-1)!.online;

/** A network of four (data_mode=network), resolved as the banner route resolves it: three online, one gone quiet for an hour; the day's charts summed. */
export const network: ServerBannerData = serverBannerData(resolveServer({
  mode: "network",
  manual: {},
  now: NOW,
  facts: factsFromNetwork({
    slug: "blocky",
    name: "Blocky Network",
    servers: [
      member("6a1f0c1e-0000-4000-8000-000000000001", "Hub", "online", nowOf(0), 200),
      member("6a1f0c1e-0000-4000-8000-000000000002", "Survival", "online", nowOf(1), 150),
      member("6a1f0c1e-0000-4000-8000-000000000003", "Skyblock", "online", nowOf(2), 100),
      member("6a1f0c1e-0000-4000-8000-000000000004", "Creative", "online", 12, 50, NOW - HOUR),
    ],
  }, "blocky", NOW, 900_000, sumHistories(memberDays)),
}));

/**
 * A Hytale server whose plugin pushes (edition hytale, its join address with
 * the default port 5520, which banners leave out), resolved as the banner
 * route resolves a pushed record: no icon sent, so Hytale's fallback is drawn.
 */
export const hytale: ServerBannerData = serverBannerData(resolveServer({
  mode: "plugin",
  manual: {},
  now: NOW,
  facts: factsFromRecord({
    uuid: "0b7e4c2a-0000-4000-8000-000000000041", tokenId: 1, name: "Orbis Realms", pluginVersion: "1.0.0", status: "online",
    playersOnline: 27, playersMax: 100, tps: 30, motd: "§bAdventure awaits in Orbis\n§7Dungeons, quests and a weekly raid", version: "2026.01.24-6e2d4fc36",
    extra: { address: "play.orbis-realms.example:5520", edition: "hytale" }, firstSeen: NOW - HOUR, lastSeen: NOW - 60_000, statsUpdatedAt: NOW - 60_000, pageEnabled: true,
  }, [], NOW, 900_000),
}));

/** A Hytale server without a query plugin (data_mode=query): a QUIC probe tells it is up and its round trip, nothing else. */
export const hytaleUnknown: ServerBannerData = serverBannerData(resolveServer({
  mode: "query",
  manual: { address: "hytale.example.net", edition: "hytale" },
  now: NOW,
  facts: factsFromLookup({ online: true, players: null, motd: null, version: null, latencyMs: 38, favicon: null }),
}));

/**
 * A project's icon as the sites serve them (96x96, drawn smooth, not pixel
 * art): a leaf on a teal gradient, made here rather than copied from a project.
 */
export function projectIcon(): Pixmap {
  const icon = new Pixmap(96, 96);
  const hex = (text: string) => parseHexColor(text)!;
  fillPath(icon, new Path().roundRect(0, 0, 96, 96, 18), linearGradient(0, 0, 96, 96, [{ offset: 0, color: hex("#14b8a6") }, { offset: 1, color: hex("#0f766e") }]));
  const leaf = new Path().moveTo(24, 72).cubicTo(20, 36, 44, 18, 76, 20).cubicTo(78, 52, 58, 76, 24, 72).close();
  fillPath(icon, leaf, solid(hex("#ecfdf5")));
  fillPath(icon, new Path().moveTo(28, 68).lineTo(64, 32).lineTo(66, 34).lineTo(30, 70).close(), solid(hex("#0f766e")));
  return icon;
}

/** A Modrinth project: followers, no rating; the range as the market model writes it. */
export const resourceRealistic: ResourceBannerData = {
  of: "project",
  site: "Modrinth",
  name: "Verdant Paths",
  author: "CoralMods",
  projects: null,
  icon: projectIcon(),
  downloads: 1_284_512,
  rating: null,
  followers: 3_210,
  followersWord: "followers",
  version: "2.4.1",
  gameVersions: "1.20-1.21.4",
};

/** A SpigotMC resource: rated, likes beside; no icon fetched (the default one). */
export const resourceRated: ResourceBannerData = {
  ...resourceRealistic,
  site: "SpigotMC",
  name: "ShopKeeper Plus",
  author: "nightfall",
  icon: null,
  downloads: 48_213,
  rating: { average: 4.72, votes: 312 },
  followers: 95,
  followersWord: "likes",
  version: "5.3.0",
  gameVersions: "1.8-1.21.4",
};

/** An author's projects on Modrinth, totalled. */
export const resourceAuthor: ResourceBannerData = {
  of: "author",
  site: "Modrinth",
  name: "CoralMods",
  author: null,
  projects: 12,
  icon: null,
  downloads: 3_456_789,
  rating: null,
  followers: 8_420,
  followersWord: "followers",
  version: null,
  gameVersions: null,
};

/** Everything at its longest: names and versions past any room, figures the site does not publish. */
export const resourceStress: ResourceBannerData = {
  of: "project",
  site: "CurseForge",
  name: "AdvancedEnchantmentsAndCustomItemsReloaded Premium Edition",
  author: "SomebodyWithAVeryLongUserNameIndeed",
  projects: null,
  icon: null,
  downloads: 987_654_321,
  rating: null,
  followers: null,
  followersWord: null,
  version: "12.4.0-SNAPSHOT+build.2291-neoforge",
  gameVersions: "1.16.5-1.21.4",
};

/** The sample a template of `kind` is shown with first. */
export function sampleFor(kind: "server" | "plugin" | "market"): BannerData {
  return kind === "server" ? realistic : kind === "plugin" ? pluginRealistic : resourceRealistic;
}

/** The samples a template of `kind` draws, by name. */
export function samplesFor(kind: "server" | "plugin" | "market"): ReadonlyArray<readonly [string, BannerData]> {
  if (kind === "market") return [["realistic", resourceRealistic], ["rated", resourceRated], ["author", resourceAuthor], ["stress", resourceStress]];
  return kind === "server"
    ? [["realistic", realistic], ["stress", stress], ["offline", offline], ["network", network], ["hytale", hytale], ["hytale-unknown", hytaleUnknown]]
    : [["realistic", pluginRealistic], ["stress", pluginStress]];
}
