// GET /api/banner in manual mode and everything around drawing: sizes,
// formats, themes and colours, errors as images or JSON, ETags and 304,
// Cache-Control, the render cache and the per-IP limit. Images are decoded
// and compared with the same banner drawn here through the template API.

import { afterEach, describe, expect, test } from "bun:test";
import { drawErrorImage } from "../../src/banner/error-image.ts";
import type { ServerBannerData } from "../../src/banner/model.ts";
import { templates } from "../../src/banner/templates/catalogue.ts";
import { renderBanner } from "../../src/banner/templates/index.ts";
import { PALETTES } from "../../src/banner/theme.ts";
import { parseHexColor } from "../../src/render/index.ts";
import { countColor, decodeImage, differingPixels } from "../support/images.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { json } from "../support/signing.ts";

let server: TestServer;
let renders: string[] = [];
afterEach(async () => {
  await server.close();
  renders = [];
});

async function start(env: Record<string, string> = {}, maxBytes?: number): Promise<void> {
  server = await startTestServer(env, { renderCache: { onRender: (key) => renders.push(key), ...(maxBytes === undefined ? {} : { maxBytes }) } });
}

const IMAGE = { Accept: "image/avif,image/webp,image/png,image/*,*/*;q=0.8" };

function banner(query: string, headers: Record<string, string> = IMAGE): Promise<Response> {
  return fetch(`${server.url}/api/banner${query}`, { headers });
}

const MANUAL = "?server_name=Skyblock&online_players=12&max_players=100&motd_line_1=%C2%A7aWelcome&motd_line_2=%C2%A7bSecond";
const MANUAL_DATA: ServerBannerData = {
  name: "Skyblock", status: "online", players: { online: 12, max: 100 }, motd: ["§aWelcome", "§bSecond"],
  version: null, latencyMs: null, favicon: null, history: [],
};

describe("manual banners", () => {
  test("no parameters: the default template at 468x60, a PNG with a strong ETag and a day of caching", async () => {
    await start();
    const response = await banner("");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=86400");
    expect(response.headers.get("etag")).toMatch(/^"[\w-]{27}"$/);
    const image = await decodeImage(response);
    expect([image.type, image.width, image.height]).toEqual(["image/png", 468, 60]);
    const data: ServerBannerData = { ...MANUAL_DATA, name: "Minecraft Server", players: null, motd: ["", ""] };
    expect(differingPixels(image, renderBanner("minimal-status", data, { size: { width: 468, height: 60 }, theme: "dark", scale: 1 }))).toBe(0);
  });

  test("every value from the query is drawn: the image is the template's drawing of exactly those values", async () => {
    await start();
    for (const key of ["minimal-status", "classic", "card", "players-bar"]) {
      const image = await decodeImage(await banner(`${MANUAL}&template_key=${key}`));
      const expected = renderBanner(key, MANUAL_DATA, { size: { width: 468, height: 60 }, theme: templates.get(key)!.defaultTheme, scale: 1 });
      expect(differingPixels(image, expected)).toBe(0);
      // The status dot or pill in the online colour (classic lights its bars from a measured latency only).
      if (key !== "classic") expect(countColor(image, PALETTES.dark.status.online)).toBeGreaterThan(3);
    }
    const offline = await decodeImage(await banner(`${MANUAL}&server_status=offline`));
    expect(countColor(offline, PALETTES.dark.status.offline)).toBeGreaterThan(3);
    expect(countColor(offline, PALETTES.dark.status.online)).toBe(0);
  });

  const sizes: Array<[string, number, number]> = [
    ["", 468, 60],
    ["&size=728x90", 728, 90],
    ["&size=300x250", 300, 250],
    ["&size=1200x300", 1200, 300],
    ["&width=728&height=90", 728, 90],
    ["&width=300&height=250&size=300x250", 300, 250],
    ["&size=1200x300&scale=2", 2400, 600],
    ["&size=468x60&scale=2", 936, 120],
  ];
  test("sizes by size= or width and height, and scale=2 at twice the pixels", async () => {
    await start();
    for (const [query, width, height] of sizes) {
      const image = await decodeImage(await banner(`${MANUAL}${query}`));
      expect([query, image.width, image.height]).toEqual([query, width, height]);
    }
  });

  test("format=webp is a WebP of the same pixels", async () => {
    await start();
    const response = await banner(`${MANUAL}&format=webp&size=728x90`);
    expect(response.headers.get("content-type")).toBe("image/webp");
    const image = await decodeImage(response);
    const expected = renderBanner("minimal-status", MANUAL_DATA, { size: { width: 728, height: 90 }, theme: "dark", scale: 1 });
    expect(differingPixels(image, expected)).toBe(0);
  });

  test("theme, accent and background change the drawing as the template's options do", async () => {
    await start();
    const light = await decodeImage(await banner(`${MANUAL}&theme=light`));
    expect(differingPixels(light, renderBanner("minimal-status", MANUAL_DATA, { size: { width: 468, height: 60 }, theme: "light", scale: 1 }))).toBe(0);
    expect(countColor(light, PALETTES.light.status.online)).toBeGreaterThan(3);

    const accent = parseHexColor("#ff00aa")!;
    const bar = await decodeImage(await banner(`${MANUAL}&template_key=players-bar&accent=FF00AA&background=%23102030`));
    const options = { size: { width: 468, height: 60 }, theme: "dark" as const, scale: 1 as const, accent, background: parseHexColor("#102030")! };
    expect(differingPixels(bar, renderBanner("players-bar", MANUAL_DATA, options))).toBe(0);
    // The accent shows: in its own colour, and the drawing is not the one without it.
    expect(countColor(bar, accent)).toBeGreaterThan(0);
    expect(differingPixels(bar, renderBanner("players-bar", MANUAL_DATA, { ...options, accent: undefined }))).toBeGreaterThan(0);
  });

  test("unknown parameters are ignored: a cache buster draws the same image under the same ETag", async () => {
    await start();
    const plain = await banner(MANUAL);
    const busted = await banner(`${MANUAL}&v=2&utm_source=forum`);
    expect(busted.status).toBe(200);
    expect(busted.headers.get("etag")).toBe(plain.headers.get("etag"));
    expect(renders).toHaveLength(1);
  });

  test("hide=status: offline and online are the same bytes, a MOTD given or not (test/banner/hidden-status.test.ts: every size and theme)", async () => {
    await start();
    const counts = "&server_name=Skyblock&online_players=12&max_players=100&hide=status";
    for (const key of [...templates.values()].filter((info) => info.kind === "server").map((info) => info.key)) {
      for (const motd of ["", "&motd_line_1=%C2%A7aWelcome"]) {
        for (const size of ["468x60", "300x250"]) {
          const query = `?template_key=${key}&size=${size}${counts}${motd}`;
          const [offline, online] = await Promise.all(["offline", "online"].map(async (status) => {
            const response = await banner(`${query}&server_status=${status}`);
            expect(response.status).toBe(200);
            return Buffer.from(await response.arrayBuffer());
          }));
          expect({ query, same: Buffer.compare(offline!, online!) === 0 }).toEqual({ query, same: true });
        }
      }
    }
  });

  test("empty parameters count as absent", async () => {
    await start();
    const blank = await banner("?server_name=&online_players=&theme=&size=&data_mode=");
    expect(blank.status).toBe(200);
    expect(blank.headers.get("etag")).toBe((await banner("")).headers.get("etag"));
  });
});

describe("bad parameters: 400, an image that says so for <img>, JSON otherwise", () => {
  const badQueries: Array<[query: string, words: string]> = [
    ["?template_key=nope", 'unknown template_key "nope"'],
    ["?size=500x60", "size 500x60 is not supported"],
    ["?size=big", "size must be one of"],
    ["?width=468", "width and height go together"],
    ["?width=468&height=61", "size 468x61 is not supported"],
    ["?size=468x60&width=728&height=90", "disagree"],
    ["?online_players=-1", "online_players must be a whole number"],
    ["?max_players=1.5", "max_players must be a whole number"],
    ["?online_players=99999999999", "online_players must be a whole number"],
    ["?server_status=maybe", "server_status must be online or offline"],
    ["?theme=blue", "theme must be light or dark"],
    ["?format=avif", "format must be png or webp or gif"],
    ["?data_mode=magic", "data_mode must be manual or query or plugin"],
    ["?scale=3", "scale must be 1 or 2"],
    ["?edition=pocket", "edition must be java or bedrock or hytale"],
    ["?accent=reddish", "accent must be a hex colour (RGB, RRGGBB or RRGGBBAA, # optional) or a colour name as badges take"],
    ["?background=%2312345", 'background "#12345" is not a preset (stone, deepslate, dirt, grass, nether, end, prismarine, sunset, ocean, night, transparent), nor a hex colour'],
    ["?background=marble", 'background "marble" is not a preset (stone,'],
    ["?hide=version,%20Colour", 'hide: "colour" is none of address, version, players, motd, icon, status, latency (a comma list of them)'],
    ["?server_uuid=42", "server_uuid must be a UUID"],
    ["?data_mode=query", "needs ip_address"],
    ["?data_mode=query&ip_address=http://example.com", "ip_address is not an address"],
    ["?data_mode=plugin", "needs server_uuid"],
    ["?template_key=plugin-stats", "give plugin_uuid"],
    [`?server_name=${"x".repeat(129)}`, "server_name must be at most 128 characters"],
    [`?motd_line_1=${"x".repeat(513)}`, "motd_line_1 must be at most 512 characters"],
  ];

  test("each bad value is a JSON 400 naming the parameter, for clients that do not ask for images", async () => {
    await start();
    for (const [query, words] of badQueries) {
      for (const accept of [{}, { Accept: "application/json" }, { Accept: "*/*" }] as Array<Record<string, string>>) {
        const response = await banner(query, accept);
        expect([query, response.status, response.headers.get("content-type")]).toEqual([query, 400, "application/json;charset=utf-8"]);
        const body = await json(response);
        expect(body.error.code).toBe("invalid_request");
        expect(body.error.message).toContain(words);
      }
    }
    expect(renders).toHaveLength(0);
  });

  test("with image/* in Accept each is a PNG 400 stating the JSON's message, at the requested size when that is valid", async () => {
    await start();
    for (const [query, words] of badQueries) {
      const { error } = await json(await banner(query, {}));
      const response = await banner(query);
      expect([query, response.status]).toEqual([query, 400]);
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect(response.headers.get("vary")).toBe("Accept");
      const image = await decodeImage(response);
      expect(image.type).toBe("image/png");
      expect(error.message).toContain(words);
      expect(differingPixels(image, drawErrorImage(error.message, { width: 468, height: 60 }))).toBe(0);
    }
    const sized = await decodeImage(await banner("?size=300x250&theme=blue"));
    expect([sized.width, sized.height]).toEqual([300, 250]);
    expect(differingPixels(sized, drawErrorImage("theme must be light or dark, not \"blue\"", { width: 300, height: 250 }))).toBe(0);
  });
});

describe("caching", () => {
  test("a popular banner is drawn once: repeated and simultaneous requests share one drawing", async () => {
    await start();
    const first = await banner(MANUAL);
    const again = await Promise.all(Array.from({ length: 20 }, () => banner(MANUAL)));
    for (const response of again) {
      expect(response.status).toBe(200);
      expect(response.headers.get("etag")).toBe(first.headers.get("etag"));
    }
    expect(renders).toHaveLength(1);

    const cold = await Promise.all(Array.from({ length: 10 }, () => banner(`${MANUAL}&size=728x90`)));
    expect(new Set(cold.map((response) => response.headers.get("etag"))).size).toBe(1);
    expect(renders).toHaveLength(2);
  });

  test("If-None-Match with the ETag is a 304 without a body and without drawing", async () => {
    // A cache too small to keep anything: only a 304 avoids a drawing.
    await start({}, 1);
    const first = await banner(MANUAL);
    const etag = first.headers.get("etag")!;
    expect(renders).toHaveLength(1);
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`]) {
      const response = await banner(MANUAL, { ...IMAGE, "If-None-Match": header });
      expect(response.status).toBe(304);
      expect(response.headers.get("etag")).toBe(etag);
      expect(response.headers.get("cache-control")).toBe("public, max-age=86400");
      expect(await response.text()).toBe("");
    }
    expect(renders).toHaveLength(1);
    expect((await banner(MANUAL, { ...IMAGE, "If-None-Match": '"other"' })).status).toBe(200);
    expect(renders).toHaveLength(2);
  });

  test("the ETag follows what is drawn: each value, size, theme, scale, colour and format changes it", async () => {
    await start();
    const etags = new Set<string>();
    const variants = ["", "&online_players=13", "&server_name=Other", "&size=728x90", "&theme=light", "&scale=2", "&accent=ff0000", "&background=000000", "&format=webp", "&template_key=card", "&motd_line_2=x"];
    for (const variant of variants) etags.add((await banner(`${MANUAL}${variant}`)).headers.get("etag")!);
    expect(etags.size).toBe(variants.length);
  });

  test("the render cache is bounded in bytes: a cache that holds one banner draws an evicted one again", async () => {
    await start();
    const one = (await (await banner(MANUAL)).arrayBuffer()).byteLength;
    await server.close();
    renders = [];
    // Room for one image and its entry's bookkeeping (see src/cache/bounded-cache.ts), not for two.
    await start({}, one + 400);
    await banner(MANUAL);
    await banner(`${MANUAL}&online_players=13`);
    await banner(MANUAL);
    expect(renders).toHaveLength(3);
  });
});

describe("rate limit", () => {
  test("per client IP: RateLimit headers on answers, then 429 with Retry-After, as JSON or as an image", async () => {
    await start({ PENNANT_RATE_LIMIT: "3/60" });
    const first = await banner(MANUAL);
    expect(first.headers.get("ratelimit-limit")).toBe("3");
    expect(first.headers.get("ratelimit-remaining")).toBe("2");
    const bad = await banner("?theme=blue", {});
    expect(bad.status).toBe(400);
    expect(bad.headers.get("ratelimit-remaining")).toBe("1");
    const cached = await banner(MANUAL, { ...IMAGE, "If-None-Match": first.headers.get("etag")! });
    expect(cached.status).toBe(304);
    expect(cached.headers.get("ratelimit-remaining")).toBe("0");

    const limited = await banner(MANUAL, {});
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited.headers.get("ratelimit-remaining")).toBe("0");
    expect((await json(limited)).error.code).toBe("rate_limited");
    // Without PENNANT_TRUST_PROXY a forged X-Forwarded-For is not a new client.
    expect((await banner(MANUAL, { "X-Forwarded-For": "203.0.113.9" })).status).toBe(429);

    const limitedImage = await banner(MANUAL);
    expect(limitedImage.status).toBe(429);
    expect(limitedImage.headers.get("retry-after")).not.toBeNull();
    expect(limitedImage.headers.get("ratelimit-limit")).toBe("3");
    const image = await decodeImage(limitedImage);
    expect([image.type, image.width, image.height]).toEqual(["image/png", 468, 60]);
    expect(countColor(image, parseHexColor("#ef4444")!)).toBeGreaterThan(100);

    server.clock.now += 61_000;
    expect((await banner(MANUAL)).status).toBe(200);
  });

  test("banners and lookups share one budget", async () => {
    await start({ PENNANT_RATE_LIMIT: "1/60" });
    expect((await fetch(`${server.url}/api/lookup?address=10.0.0.1`)).status).toBe(200);
    expect((await banner(MANUAL)).status).toBe(429);
  });
});

describe("GET /api/templates", () => {
  test("lists every template with its sizes, themes and the parameters it uses", async () => {
    await start();
    const response = await fetch(`${server.url}/api/templates`);
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body.default_template).toBe("minimal-status");
    expect(body.templates.map((entry: { key: string }) => entry.key)).toEqual([...templates.keys()]);
    for (const entry of body.templates) {
      const info = templates.get(entry.key)!;
      expect(entry).toEqual({
        key: info.key, title: info.title, description: info.description, kind: info.kind,
        editions: info.kind === "server" ? ["java", "bedrock", "hytale"] : [],
        sizes: ["468x60", "728x90", "300x250", "1200x300"], default_size: "468x60",
        themes: ["dark", "light"], default_theme: info.defaultTheme, uses: [...info.uses],
        parameters: expect.arrayContaining(["template_key", "size", "theme", "format", "scale", "background", "hide"]),
      });
      // accent is offered only where the template draws it.
      expect([entry.key, entry.parameters.includes("accent")]).toEqual([entry.key, info.uses.includes("accent")]);
      const own = { server: ["server_uuid"], plugin: ["plugin_uuid"], market: ["site", "project", "author"] }[info.kind];
      expect([entry.key, own.every((name) => entry.parameters.includes(name))]).toEqual([entry.key, true]);
    }
  });

  test("the OpenAPI document describes both routes and the banner's parameters", async () => {
    await start();
    const document = await json(await fetch(`${server.url}/openapi/json`));
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(["/api/banner", "/api/templates"]));
    const names = document.paths["/api/banner"].get.parameters.map((parameter: { name: string }) => parameter.name);
    expect(names).toEqual(expect.arrayContaining(["server_name", "ip_address", "online_players", "max_players", "server_status", "motd_line_1", "motd_line_2", "template_key", "theme", "width", "height", "size", "format", "data_mode", "server_uuid", "plugin_uuid", "edition", "scale", "accent", "background"]));
  });
});
