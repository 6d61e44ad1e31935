// data_mode=plugin and data_mode=query end to end: the deployed EzBanners
// plugin's exact update, then its banner; staleness by moving the clock;
// plugin records; live lookups of a real minecraft-protocol server (players,
// MOTD colours and favicon in the image) and of blocked and dead addresses.
// Each image is compared with the template's drawing of the data it must show.

import { afterEach, describe, expect, test } from "bun:test";
import mc from "minecraft-protocol";
import { createServer, type AddressInfo } from "node:net";
import type { BannerOptions, ServerBannerData } from "../../src/banner/model.ts";
import { splitMotd } from "../../src/minecraft/motd.ts";
import { DEFAULT_SERVER_NAMES } from "../../src/banner/resolve-banner-data.ts";
import { renderBanner } from "../../src/banner/templates/index.ts";
import { PALETTES } from "../../src/banner/theme.ts";
import { LookupService } from "../../src/lookup/lookup-service.ts";
import { encodePng, Pixmap, rgba } from "../../src/render/index.ts";
import { startBedrockProtocolPeer } from "../support/bedrock-peer.ts";
import { faviconPng } from "../support/lookup-replies.ts";
import { pluginUpdate, pluginUpdateBody, sendPluginUpdate } from "../support/ezbanners-client.ts";
import { countColor, decodeImage, differingPixels, type DecodedImage } from "../support/images.ts";
import { startCountingPeer } from "../support/java-peers.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { newUuid, signedRequest } from "../support/signing.ts";

let server: TestServer;
let renders = 0;
const closers: Array<() => unknown> = [];
afterEach(async () => {
  await server.close();
  for (const close of closers.splice(0)) await close();
  renders = 0;
});

async function start(env: Record<string, string> = {}, lookup?: LookupService): Promise<void> {
  server = await startTestServer(env, { renderCache: { onRender: () => renders++ }, ...(lookup ? { lookup } : {}) });
}

function banner(query: string): Promise<Response> {
  return fetch(`${server.url}/api/banner${query}`, { headers: { Accept: "image/png,image/*" } });
}

async function image(query: string): Promise<DecodedImage> {
  const response = await banner(query);
  expect(response.status).toBe(200);
  return decodeImage(response);
}

const STRIP: BannerOptions = { size: { width: 468, height: 60 }, theme: "dark", scale: 1 };
const BOX: BannerOptions = { size: { width: 300, height: 250 }, theme: "dark", scale: 1 };

/** What the EzBanners plugin's update (ezbanners-client.ts) must draw. */
function ezData(online: number, fields: Partial<ServerBannerData> = {}): ServerBannerData {
  return {
    name: DEFAULT_SERVER_NAMES.java, status: "online", players: { online, max: 50 }, motd: ["§aWelcome", "§7Second line"],
    version: "1.21.4", latencyMs: null, favicon: null, history: [], ...fields,
  };
}

async function pushUpdate(token: string, uuid: string, onlinePlayers: number): Promise<void> {
  const response = await sendPluginUpdate(pluginUpdate(server.url, token, uuid, pluginUpdateBody({ onlinePlayers, uptime: 148 }), server.clock.now));
  expect(response.status).toBe(200);
}

describe("data_mode=plugin", () => {
  test("the EzBanners plugin's exact update draws its players, version 1.21.4 and two-line § MOTD; the name is not \"Paper\"", async () => {
    await start();
    const uuid = newUuid();
    await pushUpdate(server.token("server"), uuid, 3);

    const response = await banner(`?data_mode=plugin&server_uuid=${uuid}&template_key=card&size=300x250`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=60");
    const card = await decodeImage(response);
    expect(differingPixels(card, renderBanner("card", ezData(3), BOX))).toBe(0);
    // The pushed version string as it came would draw differently: the banner shows 1.21.4.
    expect(differingPixels(card, renderBanner("card", ezData(3, { version: "1.21.4-232-ab12cd3 (MC: 1.21.4)" }), BOX))).toBeGreaterThan(0);
    expect(countColor(card, PALETTES.dark.status.online)).toBeGreaterThan(3);

    const classic = await image(`?data_mode=plugin&server_uuid=${uuid}&template_key=classic`);
    expect(differingPixels(classic, renderBanner("classic", ezData(3), STRIP))).toBe(0);
    // §a and §7 in the game's colours.
    expect(countColor(classic, rgba(0x55, 0xff, 0x55))).toBeGreaterThan(10);
    expect(countColor(classic, rgba(0xaa, 0xaa, 0xaa))).toBeGreaterThan(10);
  });

  test("manual values override the pushed ones", async () => {
    await start();
    const uuid = newUuid();
    await pushUpdate(server.token("server"), uuid, 3);
    const shown = await image(`?data_mode=plugin&server_uuid=${uuid}&server_name=Survival&online_players=9&motd_line_2=%C2%A7cClosed`);
    expect(differingPixels(shown, renderBanner("minimal-status", ezData(9, { name: "Survival", motd: ["§aWelcome", "§cClosed"] }), STRIP))).toBe(0);
  });

  test("a new push is drawn on the next request under a new ETag; the same state keeps its ETag", async () => {
    await start();
    const token = server.token("server");
    const uuid = newUuid();
    const url = `?data_mode=plugin&server_uuid=${uuid}`;
    await pushUpdate(token, uuid, 3);
    const first = await banner(url);
    const etag = first.headers.get("etag");
    server.clock.now += 30_000;
    expect((await banner(url)).headers.get("etag")).toBe(etag);
    expect(renders).toBe(1);

    await pushUpdate(token, uuid, 4);
    const second = await banner(url);
    expect(second.headers.get("etag")).not.toBe(etag);
    expect(renders).toBe(2);
    expect(differingPixels(await decodeImage(second), renderBanner("minimal-status", ezData(4), STRIP))).toBe(0);
    // The old ETag is no longer current: a full answer, not a 304.
    expect((await fetch(`${server.url}/api/banner${url}`, { headers: { "If-None-Match": etag! } })).status).toBe(200);
  });

  test("a record not refreshed within PENNANT_STALE_AFTER draws offline; the next push brings it back", async () => {
    await start({ PENNANT_STALE_AFTER: "900" });
    const token = server.token("server");
    const uuid = newUuid();
    const url = `?data_mode=plugin&server_uuid=${uuid}`;
    await pushUpdate(token, uuid, 3);
    server.clock.now += 900_000;
    const fresh = await banner(url);
    expect(countColor(await decodeImage(fresh), PALETTES.dark.status.online)).toBeGreaterThan(3);

    server.clock.now += 1_000;
    const stale = await banner(url);
    expect(stale.headers.get("etag")).not.toBe(fresh.headers.get("etag"));
    const staleImage = await decodeImage(stale);
    expect(differingPixels(staleImage, renderBanner("minimal-status", ezData(0, { status: "offline", players: null }), STRIP))).toBe(0);
    expect(countColor(staleImage, PALETTES.dark.status.offline)).toBeGreaterThan(3);
    expect(countColor(staleImage, PALETTES.dark.status.online)).toBe(0);

    await pushUpdate(token, uuid, 5);
    expect(differingPixels(await image(url), renderBanner("minimal-status", ezData(5), STRIP))).toBe(0);
  });

  test("an unknown server_uuid draws the defaults, offline", async () => {
    await start();
    const shown = await image(`?data_mode=plugin&server_uuid=${newUuid()}`);
    const defaults: ServerBannerData = { ...ezData(0), status: "offline", players: null, motd: ["", ""], version: null };
    expect(differingPixels(shown, renderBanner("minimal-status", defaults, STRIP))).toBe(0);
  });

  test("the sparkline draws the pushed history of the last 24 hours, ending at the current value", async () => {
    await start();
    const token = server.token("server");
    const uuid = newUuid();
    const start0 = Math.floor(server.clock.now / 3_600_000) * 3_600_000 - 26 * 3_600_000;
    server.clock.now = start0;
    await pushUpdate(token, uuid, 40); // older than 24 hours at the time of the banner
    const history: Array<{ at: number; online: number }> = [];
    for (const [hours, online] of [[3, 2], [8, 12], [14, 7], [20, 9], [25.5, 6]] as const) {
      server.clock.now = start0 + hours * 3_600_000;
      await pushUpdate(token, uuid, online);
      history.push({ at: server.clock.now, online });
    }
    server.clock.now += 90_000;
    const now = Math.floor(server.clock.now / 60_000) * 60_000;
    const shown = await image(`?data_mode=plugin&server_uuid=${uuid}&template_key=sparkline&size=728x90`);
    const expected = ezData(6, { history: [...history, { at: now, online: 6 }] });
    expect(differingPixels(shown, renderBanner("sparkline", expected, { ...STRIP, size: { width: 728, height: 90 } }))).toBe(0);
    // Without the history it would be the flat line and its note.
    expect(differingPixels(shown, renderBanner("sparkline", ezData(6), { ...STRIP, size: { width: 728, height: 90 } }))).toBeGreaterThan(0);
  });

  test("plugin-stats draws the plugin record pushed for plugin_uuid; inactive after 24 hours without a push", async () => {
    await start();
    const uuid = newUuid();
    const body = { plugin: { name: "EzShops", version: "3.2.1" }, stats: { servers: 120, players: 4_000 }, meta: {} };
    const push = signedRequest(server.url, { path: `/api/plugins/${uuid}/data`, token: server.token("plugin"), body, tokenHeader: "X-Plugin-Token" }, server.clock.now);
    expect((await fetch(push)).status).toBe(200);
    const url = `?template_key=plugin-stats&plugin_uuid=${uuid}&size=728x90`;
    const options = { ...STRIP, size: { width: 728, height: 90 } };
    const response = await banner(url);
    expect(response.headers.get("cache-control")).toBe("public, max-age=60");
    const active = { name: "EzShops", version: "3.2.1", counters: [["servers", 120], ["players", 4_000]] as Array<[string, number]>, active: true };
    expect(differingPixels(await decodeImage(response), renderBanner("plugin-stats", active, options))).toBe(0);

    server.clock.now += 24 * 3_600_000 + 1_000;
    expect(differingPixels(await image(url), renderBanner("plugin-stats", { ...active, active: false }, options))).toBe(0);
    const unknown = await image(`?template_key=plugin-stats&plugin_uuid=${newUuid()}`);
    expect(differingPixels(unknown, renderBanner("plugin-stats", { name: "Unknown plugin", version: null, counters: [], active: false }, STRIP))).toBe(0);
  });
});

/** A solid 64x64 icon in a colour no template uses. */
const ICON_COLOR = rgba(200, 30, 120);
function solidIcon(): { pixmap: Pixmap; dataUri: string } {
  const pixmap = new Pixmap(64, 64);
  pixmap.fill(ICON_COLOR);
  return { pixmap, dataUri: `data:image/png;base64,${Buffer.from(encodePng(pixmap)).toString("base64")}` };
}

async function startJavaPeer(motd: string, icon: string): Promise<number> {
  const peer = mc.createServer({
    host: "127.0.0.1", port: 0, "online-mode": false, maxPlayers: 50, version: "1.20.4",
    beforePing: (response: any) => {
      response.players.online = 7;
      response.description = motd;
      response.favicon = icon;
      return response;
    },
  } as any);
  closers.push(() => peer.close());
  await new Promise<void>((resolve) => peer.on("listening", () => resolve()));
  return ((peer as any).socketServer.address() as AddressInfo).port;
}

/** A port on which nothing listens (bound, then closed). */
async function deadPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

const CLASSIC_ICON = { x: 6, y: 6, width: 48, height: 48 };

describe("data_mode=query", () => {
  test("a real minecraft-protocol server: its players, MOTD colours and favicon are in the image", async () => {
    const icon = solidIcon();
    const motd = "§cRed line\n§bAqua line";
    const port = await startJavaPeer(motd, icon.dataUri);
    await start({}, new LookupService({ allowPrivate: true }));

    const response = await banner(`?data_mode=query&ip_address=127.0.0.1:${port}&template_key=classic`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=60");
    const shown = await decodeImage(response);
    // The favicon fills the icon well (its rounded edge aside).
    expect(countColor(shown, ICON_COLOR, CLASSIC_ICON)).toBeGreaterThan(44 * 44);
    expect(countColor(shown, rgba(0xff, 0x55, 0x55))).toBeGreaterThan(10); // §c
    expect(countColor(shown, rgba(0x55, 0xff, 0xff))).toBeGreaterThan(10); // §b
    // Lit signal bars: answered, and fast.
    expect(countColor(shown, PALETTES.dark.status.online)).toBeGreaterThan(10);
    const expected: ServerBannerData = {
      name: `127.0.0.1:${port}`, status: "online", players: { online: 7, max: 50 }, motd: splitMotd(motd),
      version: "1.20.4", latencyMs: 1, favicon: icon.pixmap, history: [], address: `127.0.0.1:${port}`,
    };
    expect(differingPixels(shown, renderBanner("classic", expected, STRIP))).toBe(0);

    // Manual values win over looked-up ones.
    const overridden = await image(`?data_mode=query&ip_address=127.0.0.1:${port}&template_key=classic&online_players=99&server_name=Mine`);
    expect(differingPixels(overridden, renderBanner("classic", { ...expected, name: "Mine", players: { online: 99, max: 50 } }, STRIP))).toBe(0);
  });

  test("answered again from its plan while the lookup is cached, planned anew (the new answer drawn) once it expires", async () => {
    const before = await startCountingPeer("modern", { players: { online: 3, max: 10 } });
    const { port } = before;
    await start({}, new LookupService({ allowPrivate: true, successTtlMs: 500 }));
    const query = `?data_mode=query&ip_address=127.0.0.1:${port}&template_key=minimal-status`;
    // Drawn, then held (its plan kept), then answered from the kept plan.
    const etags: Array<string | null> = [];
    for (let i = 0; i < 3; i++) etags.push((await banner(query)).headers.get("etag"));
    expect(new Set(etags).size).toBe(1);
    expect(renders).toBe(1);
    // The server now answers 7 players; the cached lookup (3) is still what a banner shows.
    await before.close();
    const after = await startCountingPeer("modern", { players: { online: 7, max: 10 } }, port);
    closers.push(() => after.close());
    expect((await banner(query)).headers.get("etag")).toBe(etags[0]!);
    expect(after.connections).toBe(0);
    await Bun.sleep(600);
    const redrawn = await banner(query);
    expect(redrawn.headers.get("etag")).not.toBe(etags[0]!);
    expect(after.connections).toBeGreaterThan(0);
    const shown = await decodeImage(redrawn);
    const expected: ServerBannerData = {
      name: `127.0.0.1:${port}`, status: "online", players: { online: 7, max: 10 }, motd: ["§aCounting peer", ""],
      version: "1.21", latencyMs: 1, favicon: null, history: [], address: `127.0.0.1:${port}`,
    };
    expect(differingPixels(shown, renderBanner("minimal-status", expected, STRIP))).toBe(0);
  });

  test("a favicon that passes the lookup's checks but does not decode is simply absent: the default icon is drawn", async () => {
    // A PNG signature and a 64x64 header over garbage.
    const broken = `data:image/png;base64,${Buffer.from(faviconPng(600, 1)).toString("base64")}`;
    const peer = await startCountingPeer("modern", { favicon: broken, description: "§aHello" });
    closers.push(() => peer.close());
    await start({}, new LookupService({ allowPrivate: true }));
    const shown = await image(`?data_mode=query&ip_address=127.0.0.1:${peer.port}&template_key=classic`);
    const expected: ServerBannerData = {
      name: `127.0.0.1:${peer.port}`, status: "online", players: { online: 3, max: 10 }, motd: ["§aHello", ""],
      version: "Peer 1.21", latencyMs: 1, favicon: null, history: [], address: `127.0.0.1:${peer.port}`,
    };
    expect(differingPixels(shown, renderBanner("classic", expected, STRIP))).toBe(0);
  });

  test("a blocked address still draws: 200, offline, and no connection is made", async () => {
    const peer = await startCountingPeer("modern");
    closers.push(() => peer.close());
    await start(); // PENNANT_LOOKUP_PRIVATE is off
    const shown = await image(`?data_mode=query&ip_address=127.0.0.1:${peer.port}&online_players=2`);
    const expected: ServerBannerData = {
      name: `127.0.0.1:${peer.port}`, status: "offline", players: { online: 2, max: 20 }, motd: ["", ""], version: null, latencyMs: null, favicon: null, history: [],
      address: `127.0.0.1:${peer.port}`,
    };
    expect(differingPixels(shown, renderBanner("minimal-status", expected, STRIP))).toBe(0);
    expect(countColor(shown, PALETTES.dark.status.offline)).toBeGreaterThan(3);
    expect(peer.connections).toBe(0);
    // ...unless the query says it is online.
    const forced = await image(`?data_mode=query&ip_address=127.0.0.1:${peer.port}&server_status=online`);
    expect(countColor(forced, PALETTES.dark.status.online)).toBeGreaterThan(3);
  });

  test("a dead address (refused, or silent until the deadline) still draws offline", async () => {
    const silent = await startCountingPeer("silent");
    closers.push(() => silent.close());
    await start({}, new LookupService({ allowPrivate: true, deadlineMs: 300 }));
    for (const port of [await deadPort(), silent.port]) {
      const shown = await image(`?data_mode=query&ip_address=127.0.0.1:${port}&template_key=classic`);
      expect(countColor(shown, PALETTES.dark.status.offline)).toBeGreaterThan(3);
      expect(countColor(shown, PALETTES.dark.status.online)).toBe(0);
    }
  });

  test("edition=bedrock looks up a Bedrock server", async () => {
    const peer = await startBedrockProtocolPeer({ maxPlayers: 40, version: "1.21.50", motd: { motd: "Bedrock peer", levelName: "world" } });
    closers.push(() => peer.close());
    await start({}, new LookupService({ allowPrivate: true }));
    const shown = await image(`?data_mode=query&edition=bedrock&ip_address=127.0.0.1:${peer.port}&template_key=players-bar`);
    expect(countColor(shown, PALETTES.dark.status.online)).toBeGreaterThan(3);
    const java = await image(`?data_mode=query&ip_address=127.0.0.1:${peer.port}&template_key=players-bar`);
    expect(countColor(java, PALETTES.dark.status.online)).toBe(0);
  });
});
