// Hytale servers' banners and badges (issue 41), black-box over HTTP: a
// server plugin's signed update with "edition": "hytale", then its banners
// decoded and compared with the template's drawing of what they must show
// (Hytale's fallback icon, the join address without :5520, players unknown in
// words, not 0/0), its badges beside a Java server's, a refused edition;
// banners in data_mode=query of the Hytale stand-ins (test/support/hytale-peers.ts);
// and what GET /api/templates and /openapi.json say of editions.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { BannerOptions, ServerBannerData } from "../../src/banner/model.ts";
import { renderBanner } from "../../src/banner/templates/index.ts";
import { splitMotd } from "../../src/minecraft/motd.ts";
import { FACTS, startHytalePeer, type HytalePeer } from "../support/hytale-peers.ts";
import { decodeImage, differingPixels, type DecodedImage } from "../support/images.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { json, newUuid, signedRequest } from "../support/signing.ts";

let server: TestServer;
/** The server token of the test's pushes: a record belongs to the token of its first push. */
let token: string;
let peer: HytalePeer | null = null;
beforeEach(async () => {
  // Private lookups on, as an operator would for servers on its own network: the stand-ins listen on 127.0.0.1.
  server = await startTestServer({ PENNANT_LOOKUP_PRIVATE: "on" });
  token = server.token("server");
});
afterEach(async () => {
  await server.close();
  await peer?.close();
  peer = null;
});

const STRIP: BannerOptions = { size: { width: 468, height: 60 }, theme: "dark", scale: 1 };
const BOX: BannerOptions = { size: { width: 300, height: 250 }, theme: "dark", scale: 1 };
const SERVER_TEMPLATES = ["minimal-status", "classic", "card", "players-bar", "sparkline"];

/** What a Hytale server plugin sends: its players, MOTD, version (as Hytale writes it) and join address on the game's port. */
const HYTALE_UPDATE = {
  name: "Orbis Realms",
  plugin_version: "1.0.0",
  status: "online",
  edition: "hytale",
  address: "play.orbis.example:5520",
  stats: { players: { online: 27, max: 100 }, tps: 30, motd: "§bAdventure awaits\n§7Dungeons and quests", version: "2026.01.24-6e2d4fc36" },
};

/** What the banner of HYTALE_UPDATE must draw. */
const HYTALE_DRAWN: ServerBannerData = {
  name: "Orbis Realms", status: "online", players: { online: 27, max: 100 }, motd: splitMotd("§bAdventure awaits\n§7Dungeons and quests"),
  version: "2026.01.24", latencyMs: null, favicon: null, history: [], address: "play.orbis.example", edition: "hytale",
};

async function push(uuid: string, body: object): Promise<Response> {
  return fetch(signedRequest(server.url, { path: "/api/server/update", token, serverUuid: uuid, body }, server.clock.now));
}

async function pushed(body: object): Promise<string> {
  const uuid = newUuid();
  const response = await push(uuid, body);
  expect(response.status).toBe(200);
  return uuid;
}

async function banner(query: string): Promise<DecodedImage> {
  const response = await fetch(`${server.url}/api/banner${query}`, { headers: { Accept: "image/png" } });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("image/png");
  return decodeImage(response);
}

describe("a Hytale server's signed update", () => {
  test("is stored with its edition; its banner draws Hytale's icon and the join address without :5520", async () => {
    const uuid = await pushed(HYTALE_UPDATE);
    const status = await json(await fetch(signedRequest(server.url, { method: "GET", path: "/api/server/status", token, serverUuid: uuid }, server.clock.now)));
    expect(status).toMatchObject({ uuid, name: "Orbis Realms", stats: { players: { online: 27, max: 100 }, edition: "hytale", address: "play.orbis.example:5520" } });

    const card = await banner(`?data_mode=plugin&server_uuid=${uuid}&template_key=card&size=300x250`);
    expect(differingPixels(card, renderBanner("card", HYTALE_DRAWN, BOX))).toBe(0);
    // Java's block in its place, or the port kept, would draw otherwise.
    expect(differingPixels(card, renderBanner("card", { ...HYTALE_DRAWN, edition: undefined }, BOX))).toBeGreaterThan(0);
    expect(differingPixels(card, renderBanner("card", { ...HYTALE_DRAWN, address: "play.orbis.example:5520" }, BOX))).toBeGreaterThan(0);
  });

  test("the edition stays with the record until another is sent; a Java server keeps :5520 in its address", async () => {
    const uuid = await pushed(HYTALE_UPDATE);
    server.clock.now += 1_000;
    expect((await push(uuid, { stats: { players: { online: 28, max: 100 } } })).status).toBe(200);
    const classic = await banner(`?data_mode=plugin&server_uuid=${uuid}&template_key=classic`);
    expect(differingPixels(classic, renderBanner("classic", { ...HYTALE_DRAWN, players: { online: 28, max: 100 } }, STRIP))).toBe(0);

    const java = await pushed({ ...HYTALE_UPDATE, edition: undefined });
    const drawn = await banner(`?data_mode=plugin&server_uuid=${java}&template_key=classic`);
    expect(differingPixels(drawn, renderBanner("classic", { ...HYTALE_DRAWN, edition: undefined, address: "play.orbis.example:5520" }, STRIP))).toBe(0);
    // edition= in the query wins over the pushed one, as every manual value does.
    const told = await banner(`?data_mode=plugin&server_uuid=${java}&template_key=classic&edition=hytale`);
    expect(differingPixels(told, renderBanner("classic", HYTALE_DRAWN, STRIP))).toBe(0);
  });

  test("without players: every server template says players unknown, not 0/0", async () => {
    const { players: _, ...stats } = HYTALE_UPDATE.stats;
    const uuid = await pushed({ ...HYTALE_UPDATE, stats });
    const unknown: ServerBannerData = { ...HYTALE_DRAWN, players: null };
    for (const key of SERVER_TEMPLATES) {
      for (const options of [STRIP, BOX]) {
        const size = `${options.size.width}x${options.size.height}`;
        const drawn = await banner(`?data_mode=plugin&server_uuid=${uuid}&template_key=${key}&size=${size}`);
        expect({ key, size, asUnknown: differingPixels(drawn, renderBanner(key, unknown, options)) }).toEqual({ key, size, asUnknown: 0 });
        expect({ key, size, asZero: differingPixels(drawn, renderBanner(key, { ...unknown, players: { online: 0, max: 0 } }, options)) > 0 }).toEqual({ key, size, asZero: true });
      }
    }
  });

  test("an edition that is none of the three is refused with a 400 naming the field and the choices; nothing is stored", async () => {
    for (const edition of ["pocket", "Hytale", 5, ["hytale"]]) {
      const uuid = newUuid();
      const response = await push(uuid, { ...HYTALE_UPDATE, edition });
      expect(response.status).toBe(400);
      const body = await json(response);
      expect(body.error).toMatchObject({ code: "invalid_payload", message: expect.stringContaining('edition must be "java", "bedrock" or "hytale"') });
      expect(await server.store.servers.get(uuid)).toBeUndefined();
    }
  });
});

describe("a Hytale server's badges", () => {
  test("read as a Java server's of the same state: players, status, version", async () => {
    const hytale = await pushed(HYTALE_UPDATE);
    const java = await pushed({ ...HYTALE_UPDATE, name: "Java twin", edition: "java" });
    const badge = async (uuid: string, metric: string) => {
      const response = await fetch(`${server.url}/shields/servers/${uuid}/${metric}.png`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("image/png");
      return new Uint8Array(await response.arrayBuffer());
    };
    const message = async (uuid: string, metric: string) => (await json(await fetch(`${server.url}/shields/servers/${uuid}/${metric}.json`))).message;
    for (const [metric, shown] of [["players", "27/100"], ["status", "online"], ["version", "2026.01.24"]] as const) {
      expect({ metric, message: await message(hytale, metric) }).toEqual({ metric, message: shown });
      expect({ metric, same: Buffer.from(await badge(hytale, metric)).equals(Buffer.from(await badge(java, metric))) }).toEqual({ metric, same: true });
    }
  });

  test("players not sent read unknown, as its banners say it, never a count", async () => {
    const { players: _, ...stats } = HYTALE_UPDATE.stats;
    const uuid = await pushed({ ...HYTALE_UPDATE, stats });
    expect(await json(await fetch(`${server.url}/shields/servers/${uuid}/players.json`))).toMatchObject({ label: "players", message: "unknown", color: "lightgrey" });
  });
});

describe("banners in data_mode=query&edition=hytale", () => {
  const looked = (port: number, fields: Partial<ServerBannerData>): ServerBannerData => ({
    name: `127.0.0.1:${port}`, status: "online", players: null, motd: ["", ""], version: null, latencyMs: null, favicon: null, history: [],
    address: `127.0.0.1:${port}`, edition: "hytale", ...fields,
  });

  test("read the Hytale lookup: a server with a query plugin draws its players, MOTD and version", async () => {
    peer = await startHytalePeer({ hyquery2: {} });
    const drawn = await banner(`?data_mode=query&edition=hytale&ip_address=127.0.0.1:${peer.port}&template_key=card&size=300x250`);
    expect(peer.seen.v2).toBeGreaterThan(0);
    const shown = looked(peer.port, { players: { online: FACTS.online, max: FACTS.max }, motd: [FACTS.motd, ""], version: "2026.01.24" });
    expect(differingPixels(drawn, renderBanner("card", shown, BOX))).toBe(0);
  });

  test("a stock server (QUIC only) draws online with its players unknown, in words, not 0/0", async () => {
    peer = await startHytalePeer({ quic: true });
    for (const key of ["card", "players-bar"]) {
      const drawn = await banner(`?data_mode=query&edition=hytale&ip_address=127.0.0.1:${peer.port}&template_key=${key}&size=300x250`);
      expect(differingPixels(drawn, renderBanner(key, looked(peer.port, {}), BOX))).toBe(0);
      expect(differingPixels(drawn, renderBanner(key, looked(peer.port, { players: { online: 0, max: 0 } }), BOX))).toBeGreaterThan(0);
    }
    expect(peer.seen.quic).toBeGreaterThan(0);
  });

  test("without edition=hytale the same address is asked as a Java server: nothing answers, offline", async () => {
    peer = await startHytalePeer({ quic: true });
    const drawn = await banner(`?data_mode=query&ip_address=127.0.0.1:${peer.port}&template_key=card&size=300x250`);
    expect(differingPixels(drawn, renderBanner("card", looked(peer.port, { status: "offline", edition: undefined }), BOX))).toBe(0);
  });
});

describe("banners of a server nothing pushed", () => {
  test("edition=hytale draws Hytale's icon and name and leaves :5520 out of ip_address", async () => {
    const drawn = await banner("?template_key=card&edition=hytale&ip_address=play.orbis.example:5520&server_name=Orbis%20Realms&online_players=27&max_players=100");
    expect(differingPixels(drawn, renderBanner("card", { ...HYTALE_DRAWN, motd: ["", ""], version: null }, STRIP))).toBe(0);
    const named = await banner("?template_key=card&edition=hytale");
    expect(differingPixels(named, renderBanner("card", { ...HYTALE_DRAWN, name: "Hytale Server", players: null, motd: ["", ""], version: null, address: null }, STRIP))).toBe(0);
  });

  test("an unknown edition= is a 400 naming the three", async () => {
    const response = await fetch(`${server.url}/api/banner?edition=pocket`, { headers: { Accept: "application/json" } });
    expect(response.status).toBe(400);
    expect((await json(response)).error.message).toContain("java or bedrock or hytale");
  });
});

describe("what the service says of editions", () => {
  test("GET /api/templates: every server template draws the three editions; a plugin template none", async () => {
    const list = await json(await fetch(`${server.url}/api/templates`));
    for (const template of list.templates) {
      expect({ key: template.key, editions: template.editions }).toEqual({ key: template.key, editions: template.kind === "server" ? ["java", "bedrock", "hytale"] : [] });
      expect(template.parameters.includes("edition")).toBe(template.kind === "server");
    }
  });

  test("/openapi.json: edition= of GET /api/banner, the update's edition, and the template list's editions name hytale", async () => {
    const doc = await json(await fetch(`${server.url}/openapi.json`));
    const bannerEdition = doc.paths["/api/banner"].get.parameters.find((p: { name: string }) => p.name === "edition");
    expect(bannerEdition.schema.enum).toEqual(["java", "bedrock", "hytale"]);
    expect(bannerEdition.description).toContain("hytale");
    const text = JSON.stringify(doc.paths["/api/server/update"].post.requestBody);
    expect(text).toContain('"const":"hytale"');
    expect(JSON.stringify(doc.paths["/api/templates"].get.responses)).toContain('"const":"hytale"');
  });
});
