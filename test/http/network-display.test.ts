// A network's banner and badges from outside: four servers pushed (two online,
// one gone stale with a large count, one offline), the network named with a
// signed PUT; what the banner draws is compared pixel for pixel with the
// template's drawing of the sums it must show, the badges' JSON read as a
// shields endpoint would read it. The sparkline's chart is the members' summed.

import { afterEach, expect, test } from "bun:test";
import type { BannerOptions, ServerBannerData } from "../../src/banner/model.ts";
import { renderBanner } from "../../src/banner/templates/index.ts";
import { decodeImage, differingPixels } from "../support/images.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { newUuid, signedRequest, type SignedCall } from "../support/signing.ts";

let server: TestServer;
afterEach(async () => {
  await server?.close();
});

const STRIP: BannerOptions = { size: { width: 468, height: 60 }, theme: "dark", scale: 1 };
const STALE_AFTER_MS = 900_000;

function send(call: SignedCall): Promise<Response> {
  return fetch(signedRequest(server.url, call, server.clock.now));
}

async function push(token: string, uuid: string, name: string, status: "online" | "offline", online: number, max: number): Promise<void> {
  const response = await send({ path: "/api/server/update", token, serverUuid: uuid, body: { name, status, stats: { players: { online, max }, motd: "§eOwn MOTD" } } });
  expect(response.status).toBe(200);
}

/** Network "net" of four servers: Hub 12/100 and Survival 30/50 online, Skyblock stale at 500/500, Creative offline. */
async function network(): Promise<string[]> {
  server = await startTestServer();
  const token = server.token("server");
  const [hub, survival, skyblock, creative] = [newUuid(), newUuid(), newUuid(), newUuid()];
  await push(token, skyblock!, "Skyblock", "online", 500, 500);
  server.clock.now += STALE_AFTER_MS + 1000;
  await push(token, hub!, "Hub", "online", 12, 100);
  await push(token, survival!, "Survival", "online", 30, 50);
  await push(token, creative!, "Creative", "offline", 7, 20);
  const named = await send({ method: "PUT", path: "/api/networks/net", token, body: { name: "Blocky Network", servers: [hub, survival, skyblock, creative] } });
  expect(named.status).toBe(200);
  return [hub!, survival!, skyblock!, creative!];
}

async function banner(query: string): Promise<Awaited<ReturnType<typeof decodeImage>>> {
  const response = await fetch(`${server.url}/api/banner${query}`, { headers: { Accept: "image/png" } });
  expect(response.status).toBe(200);
  return decodeImage(response);
}

async function badgeJson(slug: string, metric: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${server.url}/shields/networks/${slug}/${metric}.json`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** What a network banner must draw: the sums of the online servers, the share online and the busiest in the MOTD's place. */
function networkData(fields: Partial<ServerBannerData> = {}): ServerBannerData {
  return {
    name: "Blocky Network", status: "online", players: { online: 42, max: 150 }, motd: ["§a2/4 servers online", "§7Busiest: §fSurvival §7(30)"],
    version: null, latencyMs: null, favicon: null, history: [], address: null, ...fields,
  };
}

test("the banner sums the online servers (a stale one counts offline), says 2/4 servers online and names the busiest, on every server template", async () => {
  await network();
  for (const template of ["minimal-status", "classic", "card", "players-bar"]) {
    const shown = await banner(`?data_mode=network&network=NET&template_key=${template}&theme=dark`);
    expect(differingPixels(shown, renderBanner(template, networkData(), STRIP))).toBe(0);
  }
});

test("the sparkline charts the members' counts summed per 5 minutes, ending at the current sum", async () => {
  server = await startTestServer();
  const token = server.token("server");
  const [hub, survival] = [newUuid(), newUuid()];
  const start = Math.floor(server.clock.now / 300_000) * 300_000 + 300_000;
  server.clock.now = start + 60_000;
  await push(token, hub, "Hub", "online", 10, 100);
  await push(token, survival, "Survival", "online", 20, 50);
  server.clock.now = start + 360_000;
  await push(token, hub, "Hub", "online", 15, 100);
  await push(token, survival, "Survival", "online", 25, 50);
  expect((await send({ method: "PUT", path: "/api/networks/net", token, body: { name: "Blocky Network", servers: [hub, survival] } })).status).toBe(200);
  server.clock.now = start + 420_000;
  const shown = await banner("?data_mode=network&network=net&template_key=sparkline&size=728x90&theme=dark");
  const expected = networkData({
    players: { online: 40, max: 150 }, motd: ["§a2/2 servers online", "§7Busiest: §fSurvival §7(25)"],
    history: [{ at: start, online: 30 }, { at: start + 300_000, online: 40 }, { at: start + 420_000, online: 40 }],
  });
  expect(differingPixels(shown, renderBanner("sparkline", expected, { ...STRIP, size: { width: 728, height: 90 } }))).toBe(0);
});

test("with every server gone quiet the banner reads offline, 0/4; an unknown slug draws offline saying so; bad queries are 400", async () => {
  await network();
  server.clock.now += STALE_AFTER_MS + 1000;
  const quiet = await banner("?data_mode=network&network=net&theme=dark");
  expect(differingPixels(quiet, renderBanner("minimal-status", networkData({ status: "offline", players: null, motd: ["§c0/4 servers online", ""] }), STRIP))).toBe(0);
  const unknown = await banner("?data_mode=network&network=nobody&theme=dark");
  expect(differingPixels(unknown, renderBanner("minimal-status", networkData({ name: "Unknown network", status: "offline", players: null, motd: ["§cNo network named nobody", ""] }), STRIP))).toBe(0);
  for (const query of ["?data_mode=network", "?data_mode=network&network=-bad", "?data_mode=network&network=net&template_key=plugin-stats&plugin_uuid=" + newUuid()]) {
    const response = await fetch(`${server.url}/api/banner${query}`);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("invalid_request");
  }
});

test("badges: players is the sum as a whole number, status says how many are online; unknown networks and metrics are 404, a malformed slug 400", async () => {
  await network();
  expect(await badgeJson("net", "players")).toEqual({ status: 200, body: { schemaVersion: 1, label: "players", message: "42", color: "brightgreen" } });
  expect(await badgeJson("Net", "status")).toEqual({ status: 200, body: { schemaVersion: 1, label: "status", message: "2/4 online", color: "yellow" } });
  expect((await badgeJson("nobody", "players")).status).toBe(404);
  expect(((await badgeJson("nobody", "players")).body as { error: { code: string } }).error.code).toBe("unknown_network");
  expect(((await badgeJson("net", "tps")).body as { error: { code: string } }).error.code).toBe("unknown_metric");
  expect(((await badgeJson("-net-", "players")).body as { error: { code: string } }).error.code).toBe("invalid_slug");

  const png = await fetch(`${server.url}/shields/networks/net/status.png`);
  expect(png.status).toBe(200);
  expect(png.headers.get("content-type")).toBe("image/png");
  const again = await fetch(`${server.url}/shields/networks/net/status.png`, { headers: { "If-None-Match": png.headers.get("etag")! } });
  expect(again.status).toBe(304);
  expect((await fetch(`${server.url}/shields/networks/nobody/status.png`)).status).toBe(404);
  // The same badge as SVG: the text it says, and an SVG "not found" for a network nobody named.
  const svg = await fetch(`${server.url}/shields/networks/net/status.svg`);
  expect(svg.headers.get("content-type")).toStartWith("image/svg+xml");
  expect(await svg.text()).toContain(">2/4 online</text>");
  const missing = await fetch(`${server.url}/shields/networks/nobody/status.svg`);
  expect(missing.status).toBe(404);
  expect(missing.headers.get("content-type")).toStartWith("image/svg+xml");

  // Every server quiet: nothing online, 0 players.
  server.clock.now += STALE_AFTER_MS + 1000;
  expect((await badgeJson("net", "players")).body).toMatchObject({ message: "0" });
  expect((await badgeJson("net", "status")).body).toMatchObject({ message: "0/4 online", color: "red" });
});
