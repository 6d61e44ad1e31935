// What an owner chooses beyond the data, seen from outside: background
// presets and colour names (the image is the template's drawing with them),
// hide= (read in any spelling, part of what keys the image), the join
// address a banner is given from ip_address or from a plugin's push, and an
// accent that shows wherever a template lists it (and only there).

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { BACKGROUND_PRESETS } from "../../src/banner/backgrounds.ts";
import { BannerService } from "../../src/banner/banner-service.ts";
import { BANNER_ELEMENTS, type BannerOptions, type ServerBannerData } from "../../src/banner/model.ts";
import { renderBanner } from "../../src/banner/templates/index.ts";
import { parseBannerQuery } from "../../src/http/banner-query.ts";
import { LookupService } from "../../src/lookup/lookup-service.ts";
import { parseHexColor, type Color } from "../../src/render/index.ts";
import { countColor, decodeImage, differingPixels } from "../support/images.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { startMarketPeers, type MarketPeers } from "../support/market-peers.ts";
import { pluginDataBody, pluginDataPush, pluginUpdate, pluginUpdateBody, sendPluginUpdate } from "../support/ezbanners-client.ts";
import { json, newUuid, signedRequest } from "../support/signing.ts";

let server: TestServer;
let banners: BannerService;
let peers: MarketPeers;
beforeAll(async () => {
  // The marketplaces' stand-ins: the resource template's default content is a project.
  peers = startMarketPeers();
  server = await startTestServer({ ...peers.env, PENNANT_RATE_LIMIT: "100000/60" });
  banners = new BannerService({ store: server.store, lookup: new LookupService({ allowPrivate: false }), now: () => server.clock.now, staleAfterMs: 900_000 });
});
afterAll(async () => {
  await server.close();
  await peers.close();
});

const banner = (query: string) => fetch(`${server.url}/api/banner${query}`, { headers: { Accept: "image/png" } });

const MANUAL = "?server_name=Skyblock&online_players=12&max_players=100&motd_line_1=Welcome";
const DATA: ServerBannerData = {
  name: "Skyblock", status: "online", players: { online: 12, max: 100 }, motd: ["Welcome", ""],
  version: null, latencyMs: null, favicon: null, history: [], address: null,
};
const STRIP: BannerOptions = { size: { width: 468, height: 60 }, theme: "dark", scale: 1 };
const hex = (text: string): Color => parseHexColor(text)!;

async function drawn(query: string) {
  const response = await banner(query);
  expect([query, response.status]).toEqual([query, 200]);
  return decodeImage(response);
}

describe("background=", () => {
  test("each preset, in any letter case, is the template's drawing on it; presets differ from each other and from the theme", async () => {
    const plain = renderBanner("minimal-status", DATA, STRIP);
    const seen: Array<[string, ReturnType<typeof renderBanner>]> = [];
    for (const { name } of BACKGROUND_PRESETS) {
      const image = await drawn(`${MANUAL}&background=${name.toUpperCase()}`);
      const expected = renderBanner("minimal-status", DATA, { ...STRIP, background: name });
      expect([name, differingPixels(image, expected)]).toEqual([name, 0]);
      expect([name, differingPixels(image, plain) > 1_000]).toEqual([name, true]);
      for (const [other, drawnBefore] of seen) expect([name, other, differingPixels(image, drawnBefore) > 1_000]).toEqual([name, other, true]);
      seen.push([name, expected]);
    }
  });

  test("transparent: the panel's pixels are fully transparent (the text is still drawn)", async () => {
    const image = await drawn(`${MANUAL}&background=transparent&size=728x90`);
    let transparent = 0;
    for (let i = 3; i < image.data.length; i += 4) if (image.data[i] === 0) transparent++;
    expect(transparent / (image.width * image.height)).toBeGreaterThan(0.8);
    expect(transparent).toBeLessThan(image.width * image.height);
  });

  test("an unknown name is a 400 that lists the presets and says a colour is taken too", async () => {
    const response = await fetch(`${server.url}/api/banner?background=marble`);
    expect(response.status).toBe(400);
    const { error } = await json(response);
    expect(error.message).toContain(BACKGROUND_PRESETS.map((preset) => preset.name).join(", "));
    expect(error.message).toContain("hex colour");
    expect(error.message).toContain("colour name");
  });
});

describe("colour names for accent and background", () => {
  test("the badge's palette names (red is shields' #dd4343, not CSS red) and CSS names, in any case, as hex would draw them", async () => {
    const cases: Array<[query: string, options: Partial<BannerOptions>]> = [
      ["accent=red", { accent: hex("#dd4343") }],
      ["accent=BrightGreen", { accent: hex("#44bb00") }],
      ["accent=rebeccapurple", { accent: hex("#663399") }],
      ["background=navy", { background: hex("#000080") }],
      ["background=rgb(16,32,48)", { background: hex("#102030") }],
    ];
    for (const [query, options] of cases) {
      const image = await drawn(`${MANUAL}&template_key=players-bar&${query}`);
      expect([query, differingPixels(image, renderBanner("players-bar", DATA, { ...STRIP, ...options }))]).toEqual([query, 0]);
    }
    // The accent shows in its colour.
    expect(countColor(await drawn(`${MANUAL}&template_key=players-bar&accent=red`), hex("#dd4343"))).toBeGreaterThan(0);
  });
});

describe("hide=", () => {
  const etag = async (query: string) => (await banner(query)).headers.get("etag");

  test("any spelling of one list keys one image; another list or none another", async () => {
    const base = await etag(MANUAL);
    const hidden = await etag(`${MANUAL}&hide=motd,version`);
    expect(hidden).not.toBe(base);
    expect(await etag(`${MANUAL}&hide=${encodeURIComponent(" Version, MOTD ,version,")}`)).toBe(hidden);
    expect(await etag(`${MANUAL}&hide=motd`)).not.toBe(hidden);
    expect(await etag(`${MANUAL}&hide=`)).toBe(base);
    expect(await etag(`${MANUAL}&hide=${BANNER_ELEMENTS.join(",")}`)).not.toBe(base);
  });

  test("the parsed set reaches the drawn data, of server and plugin templates", async () => {
    const server = await banners.prepare(parseBannerQuery({ server_name: "S", hide: "Icon,latency" }));
    expect(server.job.kind === "banner" && [...(server.job.data.hidden ?? [])]).toEqual(["icon", "latency"]);
    const plugin = await banners.prepare(parseBannerQuery({ template_key: "plugin-stats", plugin_uuid: newUuid(), hide: "version" }));
    expect(plugin.job.kind === "banner" && [...(plugin.job.data.hidden ?? [])]).toEqual(["version"]);
    const none = await banners.prepare(parseBannerQuery({ server_name: "S" }));
    expect(none.job.kind === "banner" && "hidden" in none.job.data).toBe(false);
  });

  test("an unknown name is a 400 that lists the valid ones", async () => {
    const response = await fetch(`${server.url}/api/banner?hide=version,colour`);
    expect(response.status).toBe(400);
    expect((await json(response)).error.message).toBe(`hide: "colour" is none of ${BANNER_ELEMENTS.join(", ")} (a comma list of them)`);
  });
});

describe("the join address", () => {
  const addressOf = async (query: Record<string, string>) => {
    const plan = await banners.prepare(parseBannerQuery(query));
    return plan.job.kind === "banner" && "address" in plan.job.data ? plan.job.data.address : "not a server banner";
  };

  test("from ip_address in manual and query mode, as players type it; hide=address drops it", async () => {
    expect(await addressOf({ ip_address: "Play.Example.COM:25565" })).toBe("play.example.com");
    expect(await addressOf({ ip_address: "play.example.com:25570" })).toBe("play.example.com:25570");
    expect(await addressOf({ ip_address: "play.example.com:19132", edition: "bedrock" })).toBe("play.example.com");
    expect(await addressOf({ ip_address: "2001:db8::7" })).toBe("[2001:db8::7]");
    // A lookup refused (a private address) still knows how players join.
    expect(await addressOf({ data_mode: "query", ip_address: "127.0.0.1:25566" })).toBe("127.0.0.1:25566");
    expect(await addressOf({ ip_address: "play.example.com", hide: "address" })).toBeNull();
    expect(await addressOf({ server_name: "No address" })).toBeNull();
  });

  test("from the address a plugin pushes with its update (plugin mode); ip_address wins over it", async () => {
    const token = server.token("server");
    const uuid = newUuid();
    const body = { name: "Skyblock", stats: { players: { online: 3, max: 50 } }, address: "Mc.Example.NET:25565" };
    const response = await fetch(signedRequest(server.url, { path: "/api/server/update", token, serverUuid: uuid, body }, server.clock.now));
    expect(response.status).toBe(200);
    expect((await server.store.servers.get(uuid))?.extra).toEqual({ address: "Mc.Example.NET:25565" });
    expect(await addressOf({ data_mode: "plugin", server_uuid: uuid })).toBe("mc.example.net");
    expect(await addressOf({ data_mode: "plugin", server_uuid: uuid, ip_address: "other.example.net" })).toBe("other.example.net");
    expect(await addressOf({ data_mode: "plugin", server_uuid: uuid, hide: "address" })).toBeNull();
    // And it keys the image: another pushed address, another ETag.
    const before = (await banner(`?data_mode=plugin&server_uuid=${uuid}`)).headers.get("etag");
    const moved = { ...body, address: "mc.example.net:25570" };
    expect((await fetch(signedRequest(server.url, { path: "/api/server/update", token, serverUuid: uuid, body: moved }, server.clock.now))).status).toBe(200);
    expect(await addressOf({ data_mode: "plugin", server_uuid: uuid })).toBe("mc.example.net:25570");
    expect((await banner(`?data_mode=plugin&server_uuid=${uuid}`)).headers.get("etag")).not.toBe(before);
  });
});

describe("GET /api/templates", () => {
  test("lists the background presets (name, title, kind) and the names hide= takes", async () => {
    const body = await json(await fetch(`${server.url}/api/templates`));
    expect(body.backgrounds).toEqual(BACKGROUND_PRESETS.map(({ name, title, kind }) => ({ name, title, kind })));
    expect(body.hide).toEqual([...BANNER_ELEMENTS]);
    for (const entry of body.templates) expect(entry.parameters).toContain("hide");
  });
});

describe("accent= does what GET /api/templates says", () => {
  /** Pixels whose RGBA differ between two answers of one size. */
  function differing(a: Awaited<ReturnType<typeof drawn>>, b: Awaited<ReturnType<typeof drawn>>): number {
    expect([a.width, a.height]).toEqual([b.width, b.height]);
    let count = 0;
    for (let i = 0; i < a.data.length; i += 4) if (a.data.subarray(i, i + 4).some((value, c) => value !== b.data[i + c])) count++;
    return count;
  }
  const listed = async () => (await json(await fetch(`${server.url}/api/templates`))).templates as Array<{ key: string; kind: string; sizes: string[]; parameters: string[] }>;
  const ACCENTS = ["ff3030", "30ff30"];

  test("every template that lists accent shows it with its default content: two accents, two images, in every size", async () => {
    // Default content: a URL naming only the template (the designer's first preview); the Quick start's server as the
    // EzBanners plugin pushes it, with players on and with none (no address: the plugin sends none); a plugin as it pushes itself.
    const token = server.token();
    const [nobody, three, plugin] = [newUuid(), newUuid(), newUuid()];
    server.clock.now += 1000;
    for (const [uuid, onlinePlayers] of [[nobody, 0], [three, 3]] as const) {
      expect((await sendPluginUpdate(pluginUpdate(server.url, token, uuid, pluginUpdateBody({ onlinePlayers }), server.clock.now))).status).toBe(200);
    }
    expect((await sendPluginUpdate(pluginDataPush(server.url, token, plugin, pluginDataBody(3, three), server.clock.now))).status).toBe(200);
    const contents = {
      server: ["", `&data_mode=plugin&server_uuid=${nobody}`, `&data_mode=plugin&server_uuid=${three}`], plugin: [`&plugin_uuid=${plugin}`],
      // A project with followers and one with a rating: the downloads' arrow, and the star.
      market: ["&site=modrinth&project=sodium", "&site=spigot&project=28140"],
    };
    const offering = (await listed()).filter((template) => template.parameters.includes("accent"));
    expect(offering.map((template) => template.key)).toEqual(["card", "players-bar", "sparkline", "plugin-stats", "resource"]);
    for (const template of offering) {
      for (const size of template.sizes) {
        for (const content of contents[template.kind as keyof typeof contents]) {
          const [first, second] = await Promise.all(ACCENTS.map((accent) => drawn(`?template_key=${template.key}&size=${size}${content}&accent=${accent}`)));
          expect({ template: template.key, size, content, changed: differing(first!, second!) > 0 }).toEqual({ template: template.key, size, content, changed: true });
        }
      }
    }
  }, 60_000);

  test("a template that does not list accent draws the same whatever it is, with all it can show (the address chip too)", async () => {
    const everything = "&server_name=Skyblock&ip_address=play.example.com&online_players=12&max_players=100&motd_line_1=Welcome&motd_line_2=Second";
    const others = (await listed()).filter((template) => !template.parameters.includes("accent"));
    expect(others.map((template) => template.key)).toEqual(["minimal-status", "classic"]);
    for (const template of others) {
      for (const size of template.sizes) {
        const [first, second] = await Promise.all(ACCENTS.map((accent) => drawn(`?template_key=${template.key}&size=${size}${everything}&accent=${accent}`)));
        expect({ template: template.key, size, differing: differing(first!, second!) }).toEqual({ template: template.key, size, differing: 0 });
      }
    }
  }, 60_000);
});
