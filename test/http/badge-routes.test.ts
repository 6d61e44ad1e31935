// Badges over real HTTP against a real server and database: plugin data is
// pushed with signed requests (server data as the deployed EzBanners plugin
// sends it), badges are fetched and their PNGs decoded with pngjs.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { makeBadge } from "badge-maker";
import { PNG } from "pngjs";
import { STYLE_NAMES } from "../../src/badge/styles.ts";
import { pluginUpdate, pluginUpdateBody, sendPluginUpdate } from "../support/ezbanners-client.ts";
import { decodeImage } from "../support/images.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { json, newUuid, signedRequest } from "../support/signing.ts";

let server: TestServer;
let token: string;
beforeAll(async () => {
  // Draws are budgeted per address (all of these come from 127.0.0.1); the budget has tests of its own below.
  server = await startTestServer({ PENNANT_RATE_LIMIT: "100000/60" });
  token = server.token();
});
afterAll(async () => {
  await server.close();
});

const FULL = {
  plugin: { name: "EzShops", version: "3.2.1" },
  meta: {
    alpha: { id: 12345, downloads: 12_345, latest_version: "3.2.1", rating: { average: 4.6, count: 87 } },
    beta: { id: "ezshops", downloads: 1050, followers: 99, latest_version: "3.2.1-beta.2" },
    gamma: { slug: "EzShops", downloads: 0, stars: 12, watchers: 3, latest_version: "3.2.0", license: "GPL-3.0-or-later" },
    code: { repository: "ez-plugins/EzShops", stars: 321, forks: 12, watchers: 8, open_issues: [{ id: 1 }, { id: 2 }], latest_release: "v3.2.1" },
  },
  minecraft_versions: ["1.21", "1.8.8", "1.20.4", "1.21.1"],
  server_software: ["Paper", "Folia", "Purpur", "Spigot"],
};

let pushes = 0;
async function pushPlugin(body: object, uuid = newUuid()): Promise<string> {
  // One token pushes the same body for many plugins: each push gets its own timestamp (in ms), or it
  // would carry an earlier push's signature and be refused as a replay.
  const timestamp = server.clock.now + pushes++;
  const call = { path: `/api/plugins/${uuid}/data`, token, body, timestamp, tokenHeader: "X-Plugin-Token" as const };
  const response = await fetch(signedRequest(server.url, call, server.clock.now));
  expect(response.status).toBe(200);
  return uuid;
}

interface Pixel {
  r: number;
  g: number;
  b: number;
  a: number;
}

interface Fetched {
  response: Response;
  png: PNG;
  at(x: number, y: number): Pixel;
}

async function fetchPng(path: string, headers: Record<string, string> = {}): Promise<Fetched> {
  const response = await fetch(server.url + path, { headers: { Accept: "image/png", ...headers } });
  expect(response.headers.get("content-type")).toBe("image/png");
  const png = PNG.sync.read(Buffer.from(await response.arrayBuffer()));
  const at = (x: number, y: number) => {
    const i = (y * png.width + x) * 4;
    return { r: png.data[i]!, g: png.data[i + 1]!, b: png.data[i + 2]!, a: png.data[i + 3]! };
  };
  return { response, png, at };
}

async function fetchJson(path: string): Promise<{ status: number; body: any; response: Response }> {
  const response = await fetch(server.url + path);
  return { status: response.status, body: await json(response), response };
}

const rgb = (hex: string) => ({ r: Number.parseInt(hex.slice(1, 3), 16), g: Number.parseInt(hex.slice(3, 5), 16), b: Number.parseInt(hex.slice(5, 7), 16) });
/** The palette's colours as drawn. */
const COLORS: Record<string, string> = {
  brightgreen: "#44bb00", green: "#67ac09", yellowgreen: "#95991a", yellow: "#d8b800", orange: "#ea7233", red: "#dd4343",
  blue: "#007ec6", lightgrey: "#939393", grey: "#555555",
};
const drawn = (color: string) => rgb(COLORS[color] ?? color);

function expectNear(actual: Pixel, expected: { r: number; g: number; b: number }, tolerance = 0): void {
  for (const channel of ["r", "g", "b"] as const) {
    if (Math.abs(actual[channel] - expected[channel]) > tolerance) {
      throw new Error(`pixel ${JSON.stringify(actual)} is not within ${tolerance} of ${JSON.stringify(expected)}`);
    }
  }
}

/** Pixels of a column range, all rows, that pass `test`. */
function count(fetched: Fetched, x0: number, x1: number, test: (p: Pixel) => boolean): number {
  let n = 0;
  for (let y = 0; y < fetched.png.height; y++) for (let x = x0; x < x1; x++) if (test(fetched.at(x, y))) n++;
  return n;
}

function shieldsWidth(label: string, message: string, style: string): number {
  return Number(/^<svg[^>]* width="([\d.]+)"/.exec(makeBadge({ label, message, style: style as "flat" }))![1]);
}

describe("plugin badges in every style", () => {
  let uuid: string;
  beforeAll(async () => {
    uuid = await pushPlugin(FULL);
  });

  const HEIGHTS: Record<string, number> = { flat: 20, "flat-square": 20, plastic: 18, "for-the-badge": 28, social: 20 };

  for (const style of STYLE_NAMES) {
    test(`${style}: shields' size, grey label left, message colour right, corners as drawn`, async () => {
      const badge = await fetchPng(`/shields/plugins/${uuid}/alpha-downloads.png?style=${style}`);
      expect(badge.response.status).toBe(200);
      const { width, height } = badge.png;
      expect(height).toBe(HEIGHTS[style]!);
      expect(Math.abs(width - Math.ceil(shieldsWidth("alpha dl", "12k", style)))).toBeLessThanOrEqual(2);
      const middle = Math.floor(height / 2);
      if (style === "social") {
        // Fixed light colours: the label box, the bubble, dark text.
        expectNear(badge.at(2, middle), rgb("#fcfcfc"), 30);
        expectNear(badge.at(width - 3, middle), rgb("#fafafa"), 4);
        expect(count(badge, 0, width, (p) => p.a === 255 && p.r < 0x60)).toBeGreaterThan(20);
      } else {
        // Overlays shade the colours: flat's a little, plastic's darkens towards the bottom (sampled
        // near its top, where it is lightest); flat-square and for-the-badge are exact.
        const [row, tolerance] = style === "flat" ? [middle, 16] : style === "plastic" ? [3, 24] : [middle, 0];
        expectNear(badge.at(1, row), rgb("#555555"), tolerance);
        expectNear(badge.at(width - 3, row), drawn("orange"), tolerance);
        // White text on both segments.
        expect(count(badge, 0, 30, (p) => p.r > 200 && p.g > 200 && p.b > 200)).toBeGreaterThan(10);
        expect(count(badge, width - 20, width, (p) => p.r > 200 && p.g > 200 && p.b > 200)).toBeGreaterThan(10);
      }
      const rounded = style === "flat" || style === "plastic" || style === "social";
      for (const [x, y] of [[0, 0], [width - 1, 0], [0, height - 1], [width - 1, height - 1]] as const) {
        if (rounded) expect(badge.at(x, y).a).toBeLessThan(64);
        else expect(badge.at(x, y).a).toBe(255);
      }
      // Whole-pixel widths: no half-covered first or last column (for-the-badge's 1.25 px per character are rounded).
      expect([badge.at(0, middle).a, badge.at(width - 1, middle).a]).toEqual([255, 255]);
    });
  }

  test("for-the-badge is upper case: the same text, wider than flat", async () => {
    const flat = await fetchPng(`/shields/plugins/${uuid}/code.png?style=flat-square`);
    const loud = await fetchPng(`/shields/plugins/${uuid}/code.png?style=for-the-badge`);
    expect(loud.png.width).toBeGreaterThan(flat.png.width + 30);
    expect(Math.abs(loud.png.width - Math.ceil(shieldsWidth("code", "ez-plugins/EzShops", "for-the-badge")))).toBeLessThanOrEqual(2);
  });
});

describe("every metric of spec 4.6", () => {
  let uuid: string;
  beforeAll(async () => {
    uuid = await pushPlugin(FULL);
  });

  const EXPECTED: Array<[metric: string, label: string, message: string, color: string]> = [
    ["version", "version", "v3.2.1", "blue"],
    ["downloads", "downloads", "13k", "brightgreen"], // 12,345 + 1,050 + 0
    ["rating", "rating", "4.6/5 (87)", "brightgreen"],
    ["status", "status", "active", "brightgreen"],
    ["minecraft-versions", "minecraft", "1.8-1.21", "blue"],
    ["server-software", "software", "Paper/Folia+2", "blue"],
    ["alpha", "alpha", "12345", "orange"],
    ["code", "code", "ez-plugins/EzShops", "#24292f"],
    ["beta", "beta", "ezshops", "green"],
    ["gamma", "gamma", "EzShops", "blue"],
    ["alpha-downloads", "alpha dl", "12k", "orange"],
    ["beta-downloads", "beta dl", "1.1k", "green"],
    ["beta-followers", "followers", "99", "green"],
    ["gamma-downloads", "gamma dl", "0", "blue"],
    ["gamma-stars", "stars", "12", "blue"],
    ["gamma-watchers", "watchers", "3", "blue"],
    ["alpha-version", "alpha", "v3.2.1", "blue"],
    ["beta-version", "beta", "v3.2.1-beta.2", "orange"],
    ["gamma-version", "gamma", "v3.2.0", "blue"],
    ["code-release", "release", "v3.2.1", "blue"],
    ["code-stars", "stars", "321", "blue"],
    ["code-forks", "forks", "12", "blue"],
    ["code-watchers", "watchers", "8", "blue"],
    ["code-issues", "issues", "2 open", "green"],
    ["license", "license", "GPL-3.0", "orange"],
  ];

  for (const [metric, label, message, color] of EXPECTED) {
    test(`${metric}: ${label} | ${message}`, async () => {
      const { status, body } = await fetchJson(`/shields/plugins/${uuid}/${metric}.json`);
      expect(status).toBe(200);
      expect(body).toEqual({ schemaVersion: 1, label, message, color });
      const badge = await fetchPng(`/shields/plugins/${uuid}/${metric}.png?style=flat-square`);
      expect(badge.response.status).toBe(200);
      expectNear(badge.at(badge.png.width - 2, 10), drawn(color));
      expect(Math.abs(badge.png.width - shieldsWidth(label, message, "flat-square"))).toBeLessThanOrEqual(2);
    });
  }

  test("values never sent show the metric's fallback, N/A in light grey, with 200", async () => {
    const bare = await pushPlugin({ plugin: { name: "Bare" } });
    for (const [metric, label] of EXPECTED) {
      if (metric === "status") continue;
      const { status, body } = await fetchJson(`/shields/plugins/${bare}/${metric}.json`);
      expect({ metric, status, body }).toEqual({ metric, status: 200, body: { schemaVersion: 1, label, message: "N/A", color: "lightgrey" } });
    }
    const badge = await fetchPng(`/shields/plugins/${bare}/code-stars.png?style=flat-square`);
    expect(badge.response.status).toBe(200);
    expectNear(badge.at(badge.png.width - 2, 10), drawn("lightgrey"));
  });

  test("status turns inactive 24 hours after the last push", async () => {
    const quiet = await pushPlugin({ plugin: { name: "Quiet" } });
    const saved = server.clock.now;
    try {
      server.clock.now += 24 * 3600 * 1000;
      expect((await fetchJson(`/shields/plugins/${quiet}/status.json`)).body).toMatchObject({ message: "active" });
      server.clock.now += 1;
      expect((await fetchJson(`/shields/plugins/${quiet}/status.json`)).body).toMatchObject({ message: "inactive", color: "lightgrey" });
    } finally {
      server.clock.now = saved;
    }
  });

  test("the licence comes from gamma first, then from the repository; rating and ids in their variant spellings", async () => {
    const other = await pushPlugin({
      meta: {
        gamma: { license: "Unspecified", project_slug: "ez-shops" },
        code: { license: { key: "mit", name: "MIT License", spdx_id: "MIT" }, repo: "ez/shops", open_issues_count: 40 },
        alpha: { resource_id: "9876", rating: 2.5, rating_count: 1200 },
        beta: { project_id: "AbCd" },
      },
    });
    const read = async (metric: string) => (await fetchJson(`/shields/plugins/${other}/${metric}.json`)).body;
    expect(await read("license")).toMatchObject({ message: "MIT", color: "green" });
    expect(await read("rating")).toMatchObject({ message: "2.5/5 (1.2k)", color: "yellow" });
    expect(await read("alpha")).toMatchObject({ message: "9876" });
    expect(await read("beta")).toMatchObject({ message: "AbCd" });
    expect(await read("gamma")).toMatchObject({ message: "ez-shops" });
    expect(await read("code")).toMatchObject({ message: "ez/shops" });
    expect(await read("code-issues")).toMatchObject({ message: "40 open", color: "yellow" });
  });
});

describe("not found", () => {
  test("an unknown plugin is a 404 'plugin | not found' badge, and a JSON error for .json", async () => {
    const badge = await fetchPng(`/shields/plugins/${newUuid()}/downloads.png?style=flat-square`);
    expect(badge.response.status).toBe(404);
    expect(badge.response.headers.get("access-control-allow-origin")).toBe("*");
    expect(badge.png.width).toBe(shieldsWidth("plugin", "not found", "flat-square"));
    expectNear(badge.at(badge.png.width - 2, 10), drawn("red"));
    const { status, body } = await fetchJson(`/shields/plugins/${newUuid()}/downloads.json`);
    expect(status).toBe(404);
    expect(body.error.code).toBe("unknown_plugin");
  });

  test("an unknown metric is a 404 badge whatever the plugin; the JSON error names the metrics", async () => {
    const uuid = await pushPlugin({ plugin: { name: "Known" } });
    for (const metric of ["downloadz", "constructor", "__proto__", "toString", "DOWNLOADS"]) {
      const badge = await fetchPng(`/shields/plugins/${uuid}/${metric}.png?style=flat-square`);
      expect(badge.response.status).toBe(404);
      expect(badge.png.width).toBe(shieldsWidth("metric", "not found", "flat-square"));
    }
    const { status, body } = await fetchJson(`/shields/plugins/${uuid}/nope.json`);
    expect(status).toBe(404);
    expect(body.error.code).toBe("unknown_metric");
    expect(body.error.message).toContain("minecraft-versions");
  });

  test("a file that is neither .png, .svg nor .json is a 404 badge too", async () => {
    const uuid = await pushPlugin({ plugin: { name: "Known" } });
    expect((await fetchPng(`/shields/plugins/${uuid}/downloads.gif`)).response.status).toBe(404);
    expect((await fetchPng(`/shields/plugins/${uuid}/downloads`)).response.status).toBe(404);
  });
});

describe("a path whose UUID is malformed", () => {
  const PROBLEMS: Array<[raw: string, problem: string]> = [
    ["not-a-uuid", '"n" at character 1'],
    ["123e4567-e89b-12d3-a456-42661417400", "31 hex digits"],
    ["123e4567e89b12d3a456426614174000", "lacks its dashes"],
    ["123e4567-e89b12d3-a456-4266-14174000", "dashes out of place"],
    ["123e4567-e89b-12d3-a456-42661417400g", '"g" at character 36'],
    // Not valid percent-encoding: Elysia hands no decoded value, the path's own text is named.
    ["%z", '"%" at character 1'],
  ];

  for (const [subject, metric] of [["plugin", "version"], ["server", "players"]] as const) {
    test(`${subject}: 400 invalid_${subject}_uuid naming what is wrong, unlike a well-formed unknown UUID (404)`, async () => {
      for (const [raw, problem] of PROBLEMS) {
        const { status, body, response } = await fetchJson(`/shields/${subject}s/${raw}/${metric}.json`);
        expect({ raw, status, code: body.error?.code }).toEqual({ raw, status: 400, code: `invalid_${subject}_uuid` });
        expect(body.error.message).toContain(`${subject} UUID "${raw}"`);
        expect(body.error.message).toContain(problem);
        expect(response.headers.get("access-control-allow-origin")).toBe("*");
      }
      // Malformed comes first: an unknown metric under it is still the UUID's fault.
      expect((await fetchJson(`/shields/${subject}s/not-a-uuid/nope.json`)).body.error.code).toBe(`invalid_${subject}_uuid`);
      const unknown = await fetchJson(`/shields/${subject}s/${newUuid()}/${metric}.json`);
      expect({ status: unknown.status, code: unknown.body.error.code }).toEqual({ status: 404, code: `unknown_${subject}` });
    });

    test(`${subject}: the .png is a 400 '${subject} | invalid uuid' badge in red`, async () => {
      const badge = await fetchPng(`/shields/${subject}s/not-a-uuid/${metric}.png?style=flat-square`);
      expect(badge.response.status).toBe(400);
      expect(badge.response.headers.get("access-control-allow-origin")).toBe("*");
      expect(badge.png.width).toBe(shieldsWidth(subject, "invalid uuid", "flat-square"));
      expectNear(badge.at(badge.png.width - 2, 10), drawn("red"));
      expect((await fetchPng(`/shields/${subject}s/${newUuid()}/${metric}.png`)).response.status).toBe(404);
    });
  }

  test("a long malformed value is shown cut, never whole", async () => {
    const raw = "x".repeat(300);
    const { status, body } = await fetchJson(`/shields/plugins/${raw}/version.json`);
    expect(status).toBe(400);
    expect(body.error.message).not.toContain(raw);
    expect(body.error.message.length).toBeLessThan(300);
  });
});

describe("numbers as a person reads them", () => {
  /** A plugin whose meta is `meta` (raw JSON text, so that -0 can be sent); the badge's message. */
  async function shown(meta: string, metric: string): Promise<{ message: string; color: string }> {
    const uuid = newUuid();
    const call = { path: `/api/plugins/${uuid}/data`, token, body: `{"meta":${meta}}`, tokenHeader: "X-Plugin-Token" as const };
    expect((await fetch(signedRequest(server.url, call, server.clock.now))).status).toBe(200);
    const { status, body } = await fetchJson(`/shields/plugins/${uuid}/${metric}.json`);
    expect(status).toBe(200);
    return { message: body.message, color: body.color };
  }

  const COUNTS: Array<[sent: string, message: string]> = [
    ["1e-7", "0"], ["0.4", "0"], ["0.5", "1"], ["-0", "0"], ["3", "3"], ["12.7", "13"], ["999.4", "999"], ["999.5", "1k"],
    ["1049", "1k"], ["1050", "1.1k"], ["123456789", "123M"], ["1e15", "1P"], ["999999999999999", "1P"],
  ];

  test("counts are whole: rounded, then compact, from 10^-7 to the 10^15 bound", async () => {
    for (const [sent, message] of COUNTS) {
      expect({ sent, ...(await shown(`{"code":{"stars":${sent}}}`, "code-stars")) }).toEqual({ sent, message, color: "blue" });
    }
  });

  test("a colour follows the count shown: 10^-7 downloads read 0 and are red, 10^-7 open issues read 0 and are brightgreen", async () => {
    expect(await shown('{"alpha":{"downloads":1e-7}}', "downloads")).toEqual({ message: "0", color: "red" });
    expect(await shown('{"alpha":{"downloads":9.6}}', "downloads")).toEqual({ message: "10", color: "yellowgreen" });
    expect(await shown('{"code":{"open_issues_count":1e-7}}', "code-issues")).toEqual({ message: "0 open", color: "brightgreen" });
  });

  test("ratings keep one decimal, votes are whole", async () => {
    expect((await shown('{"alpha":{"rating":{"average":1e-7,"count":0.4}}}', "rating")).message).toBe("0.0/5 (0)");
    expect((await shown('{"alpha":{"rating":{"average":4.96,"count":1e15}}}', "rating")).message).toBe("5.0/5 (1P)");
  });

  test("ids sent as numbers are written out in plain digits, never with an exponent", async () => {
    expect((await shown('{"alpha":{"id":1e-7}}', "alpha")).message).toBe("0.0000001");
    expect((await shown('{"alpha":{"id":1e15}}', "alpha")).message).toBe("1000000000000000");
    expect((await shown('{"beta":{"id":-0}}', "beta")).message).toBe("0");
  });
});

describe("query parameters", () => {
  let uuid: string;
  beforeAll(async () => {
    uuid = await pushPlugin(FULL);
  });
  const base = () => `/shields/plugins/${uuid}/alpha-downloads`;

  test("label, color and labelColor, in each form shields takes", async () => {
    for (const [query, expected] of [
      ["color=ff69b4", "#ff69b4"], ["color=f0a", "#ff00aa"], ["color=success", "#44bb00"], ["color=rgb(10,20,30)", "#0a141e"],
      ["color=pink", "#ffc0cb"], ["colorB=blue", "#007ec6"],
    ] as const) {
      const badge = await fetchPng(`${base()}.png?style=flat-square&${query}`);
      expectNear(badge.at(badge.png.width - 2, 10), rgb(expected));
    }
    const labelled = await fetchPng(`${base()}.png?style=flat-square&label=hello%20world&labelColor=blue`);
    expectNear(labelled.at(1, 10), rgb("#007ec6"));
    expect(labelled.png.width).toBe(shieldsWidth("hello world", "12k", "flat-square"));
    const { body } = await fetchJson(`${base()}.json?label=hello&color=ff69b4&labelColor=blue&style=plastic`);
    expect(body).toEqual({ schemaVersion: 1, label: "hello", message: "12k", color: "#ff69b4", labelColor: "blue", style: "plastic" });
  });

  test("an empty label leaves only the message segment", async () => {
    const badge = await fetchPng(`${base()}.png?style=flat-square&label=`);
    expect(badge.png.width).toBe(shieldsWidth("", "12k", "flat-square"));
    expectNear(badge.at(1, 10), drawn("orange"));
  });

  test("light backgrounds get dark text", async () => {
    const badge = await fetchPng(`${base()}.png?style=flat-square&color=white`);
    const { width } = badge.png;
    expect(count(badge, width - 20, width, (p) => p.r < 0x80)).toBeGreaterThan(10);
    expect(count(badge, width - 20, width, (p) => p.r > 0xf0 && p.g > 0xf0)).toBeGreaterThan(100);
  });

  test("invalid values fall back to the defaults, never an error", async () => {
    const plain = await fetchPng(`${base()}.png`);
    for (const query of [
      "color=notacolor", "color=%23zz", "labelColor=12", "style=round", "scale=3", "scale=0", "scale=2.0", `label=${"x".repeat(65)}`,
      "cacheSeconds=-5", "cacheSeconds=soon", "color=", "style=",
    ]) {
      const badge = await fetchPng(`${base()}.png?${query}`);
      expect({ query, status: badge.response.status }).toEqual({ query, status: 200 });
      expect({ query, etag: badge.response.headers.get("etag") }).toEqual({ query, etag: plain.response.headers.get("etag") });
    }
    expect((await fetchJson(`${base()}.json?color=nope&style=nope`)).body).toEqual({ schemaVersion: 1, label: "alpha dl", message: "12k", color: "orange" });
  });

  test("scale=2: the same badge at twice the pixels", async () => {
    const one = await fetchPng(`${base()}.png?style=flat-square`);
    const two = await fetchPng(`${base()}.png?style=flat-square&scale=2`);
    expect(two.png.width).toBe(2 * one.png.width);
    expect(two.png.height).toBe(40);
    expectNear(two.at(3, 20), rgb("#555555"));
    expectNear(two.at(2 * one.png.width - 3, 20), drawn("orange"));
    // The split between the segments sits at twice its place.
    let split = 0;
    while (one.at(split, 2).r === 0x55) split++;
    expectNear(two.at(2 * split - 1, 2), rgb("#555555"));
    expectNear(two.at(2 * split, 2), drawn("orange"));
  });
});

describe("caching", () => {
  let uuid: string;
  beforeAll(async () => {
    uuid = await pushPlugin(FULL);
  });

  test("Cache-Control by metric class, lengthened (never shortened) by cacheSeconds", async () => {
    const maxAge = async (path: string) => (await fetch(server.url + path)).headers.get("cache-control");
    expect(await maxAge(`/shields/plugins/${uuid}/status.png`)).toBe("public, max-age=60, s-maxage=60");
    expect(await maxAge(`/shields/plugins/${uuid}/downloads.png`)).toBe("public, max-age=900, s-maxage=900");
    expect(await maxAge(`/shields/plugins/${uuid}/version.json`)).toBe("public, max-age=300, s-maxage=300");
    expect(await maxAge(`/shields/plugins/${uuid}/license.png`)).toBe("public, max-age=3600, s-maxage=3600");
    expect(await maxAge(`/shields/plugins/${uuid}/downloads.png?cacheSeconds=7200`)).toBe("public, max-age=7200, s-maxage=7200");
    expect(await maxAge(`/shields/plugins/${uuid}/downloads.png?cacheSeconds=10`)).toBe("public, max-age=900, s-maxage=900");
    expect(await maxAge(`/shields/plugins/${uuid}/downloads.png?cacheSeconds=999999999`)).toBe("public, max-age=86400, s-maxage=86400");
  });

  test("a strong ETag from what is drawn: 304 when held, shared by URLs that draw the same, new when the value changes", async () => {
    const first = await fetch(`${server.url}/shields/plugins/${uuid}/alpha-downloads.png`);
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await fetch(`${server.url}/shields/plugins/${uuid}/alpha-downloads.png`, { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get("access-control-allow-origin")).toBe("*");
    expect(again.headers.get("cache-control")).toBe("public, max-age=900, s-maxage=900");
    expect((await again.arrayBuffer()).byteLength).toBe(0);
    // Another plugin with the same count, and a query naming the default colour: the same image.
    const twin = await pushPlugin({ meta: { alpha: { downloads: 12_400 } } });
    expect((await fetch(`${server.url}/shields/plugins/${twin}/alpha-downloads.png?color=orange`)).headers.get("etag")).toBe(etag);
    // The value moves: a new ETag, and the old one no longer gets a 304.
    await pushPlugin({ meta: { alpha: { downloads: 99_999 } } }, twin);
    const moved = await fetch(`${server.url}/shields/plugins/${twin}/alpha-downloads.png`, { headers: { "If-None-Match": etag } });
    expect(moved.status).toBe(200);
    expect(moved.headers.get("etag")).not.toBe(etag);
  });

  test("endpoint JSON has its own ETag and 304, and CORS", async () => {
    const first = await fetch(`${server.url}/shields/plugins/${uuid}/version.json`);
    expect(first.headers.get("access-control-allow-origin")).toBe("*");
    expect(first.headers.get("content-type")).toBe("application/json");
    const again = await fetch(`${server.url}/shields/plugins/${uuid}/version.json`, { headers: { "If-None-Match": first.headers.get("etag")! } });
    expect(again.status).toBe(304);
  });
});

describe("the draw budget", () => {
  test("only draws spend it: cached badges and 304s are served past it, new looks get a 429 badge", async () => {
    const limited = await startTestServer({ PENNANT_RATE_LIMIT: "3/60" });
    try {
      const plugin = newUuid();
      const call = { path: `/api/plugins/${plugin}/data`, token: limited.token(), body: FULL, tokenHeader: "X-Plugin-Token" as const };
      expect((await fetch(signedRequest(limited.url, call, limited.clock.now))).status).toBe(200);
      const get = (query: string, headers: Record<string, string> = {}) =>
        fetch(`${limited.url}/shields/plugins/${plugin}/downloads.png?${query}`, { headers: { Accept: "image/png", ...headers } });
      const etags: string[] = [];
      for (const label of ["a", "b", "c"]) {
        const response = await get(`label=${label}`);
        expect(response.status).toBe(200);
        etags.push(response.headers.get("etag")!);
      }
      // Drawn already: served from the cache, as often as asked.
      for (let i = 0; i < 10; i++) expect((await get("label=a")).status).toBe(200);
      expect((await get("label=b", { "If-None-Match": etags[1]! })).status).toBe(304);
      // A new look is a draw: refused, with a badge saying so.
      const refused = await get("label=d");
      expect(refused.status).toBe(429);
      expect(refused.headers.get("content-type")).toBe("image/png");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(refused.headers.get("cache-control")).toBe("no-store");
      const png = PNG.sync.read(Buffer.from(await refused.arrayBuffer()));
      expect(png.width).toBe(Math.ceil(shieldsWidth("badge", "rate limited", "flat")));
      // A client holding that very badge (its ETag comes from what it shows, so any server gives the
      // same) gets its 304 without a draw, budget or not.
      const twin = await pushPlugin(FULL);
      const held = (await fetch(`${server.url}/shields/plugins/${twin}/downloads.png?label=d`)).headers.get("etag")!;
      expect((await get("label=d", { "If-None-Match": held })).status).toBe(304);
      // Endpoint JSON never draws: not limited.
      expect((await fetch(`${limited.url}/shields/plugins/${plugin}/downloads.json?label=e`)).status).toBe(200);
      // The window passes: drawing again.
      limited.clock.now += 61_000;
      expect((await get("label=d")).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  test("requests that join a draw in flight spend nothing: the badge budget is spent once per draw", async () => {
    const held: Array<() => void> = [];
    const limited = await startTestServer({ PENNANT_RATE_LIMIT: "2/60" }, { holdDraws: () => new Promise<void>((resolve) => held.push(resolve)) });
    try {
      const plugin = newUuid();
      const call = { path: `/api/plugins/${plugin}/data`, token: limited.token(), body: FULL, tokenHeader: "X-Plugin-Token" as const };
      expect((await fetch(signedRequest(limited.url, call, limited.clock.now))).status).toBe(200);
      const get = (label: string) => fetch(`${limited.url}/shields/plugins/${plugin}/downloads.png?label=${label}`, { headers: { Accept: "image/png" } });
      const badgeHits = async () => {
        const metrics = await (await fetch(`${limited.url}/metrics`)).text();
        return Number(/^pennant_cache_hits_total\{cache="badge_images"\} (\d+)$/m.exec(metrics)?.[1] ?? 0);
      };
      const first = get("a");
      while (held.length === 0) await Bun.sleep(5);
      // Three more while the first is held in its draw: each joins it (a cache hit) or, spending, may be refused.
      let settled = 0;
      const joined = [get("a"), get("a"), get("a")].map((answer) => answer.finally(() => settled++));
      while (settled === 0 && (await badgeHits()) < 3) await Bun.sleep(5);
      held.shift()!();
      expect([(await first).status, ...(await Promise.all(joined)).map((answer) => answer.status)]).toEqual([200, 200, 200, 200]);
      // One draw, one unit of two: a new look still draws, the next is refused.
      const next = get("b");
      while (held.length === 0) await Bun.sleep(5);
      held.shift()!();
      expect((await next).status).toBe(200);
      expect((await get("c")).status).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

describe("server badges", () => {
  test("players, status, version and TPS from the EzBanners plugin's update; offline once stale", async () => {
    const uuid = newUuid();
    const update = pluginUpdate(server.url, token, uuid, pluginUpdateBody({ onlinePlayers: 3 }), server.clock.now);
    expect((await sendPluginUpdate(update)).status).toBe(200);
    const read = async (metric: string) => (await fetchJson(`/shields/servers/${uuid}/${metric}.json`)).body;
    expect(await read("players")).toEqual({ schemaVersion: 1, label: "players", message: "3/50", color: "brightgreen" });
    expect(await read("status")).toEqual({ schemaVersion: 1, label: "status", message: "online", color: "brightgreen" });
    expect(await read("version")).toEqual({ schemaVersion: 1, label: "version", message: "1.21.4", color: "blue" });
    expect(await read("tps")).toEqual({ schemaVersion: 1, label: "tps", message: "19.97", color: "brightgreen" });
    const badge = await fetchPng(`/shields/servers/${uuid}/status.png?style=flat-square`);
    expectNear(badge.at(badge.png.width - 2, 10), drawn("brightgreen"));

    const saved = server.clock.now;
    try {
      server.clock.now += (server.config.staleAfterSeconds + 1) * 1000;
      expect(await read("status")).toMatchObject({ message: "offline", color: "red" });
      expect(await read("players")).toMatchObject({ message: "offline", color: "lightgrey" });
      expect(await read("tps")).toMatchObject({ message: "offline" });
      expect(await read("version")).toMatchObject({ message: "1.21.4" });
      const stale = await fetchPng(`/shields/servers/${uuid}/status.png?style=flat-square`);
      expectNear(stale.at(stale.png.width - 2, 10), drawn("red"));
    } finally {
      server.clock.now = saved;
    }
  });

  /** A server pushed with the modern update body: online, with the player counts given (max may be left out). */
  async function pushPlayers(players: { online: number; max?: number }, tps?: number): Promise<string> {
    const uuid = newUuid();
    // The name makes each body its own (one signature is accepted once, whatever the UUID).
    const body = { name: uuid, status: "online", stats: { players, ...(tps === undefined ? {} : { tps }) } };
    const call = { path: "/api/server/update", token, serverUuid: uuid, body };
    expect((await fetch(signedRequest(server.url, call, server.clock.now))).status).toBe(200);
    return uuid;
  }
  const players = async (uuid: string) => (await fetchJson(`/shields/servers/${uuid}/players.json`)).body.message;

  test("players: compact counts; a max of 0 or none reads as banners read it, 20 or the online count if higher", async () => {
    expect(await players(await pushPlayers({ online: 3, max: 50 }))).toBe("3/50");
    expect(await players(await pushPlayers({ online: 1234, max: 2000 }))).toBe("1.2k/2k");
    // Above the maximum is real (operators join full servers): shown as the game shows it.
    expect(await players(await pushPlayers({ online: 52, max: 50 }))).toBe("52/50");
    expect(await players(await pushPlayers({ online: 1_000_000_000, max: 0 }))).toBe("1G/1G");
    expect(await players(await pushPlayers({ online: 3, max: 0 }))).toBe("3/20");
    expect(await players(await pushPlayers({ online: 0, max: 0 }))).toBe("0/20");
    expect(await players(await pushPlayers({ online: 3 }))).toBe("3/20");
    expect(await players(await pushPlayers({ online: 25 }))).toBe("25/25");
  });

  test("players: a banner of the same record shows the same count", async () => {
    const uuid = await pushPlayers({ online: 1_000_000_000, max: 0 });
    const get = async (query: string) => {
      const response = await fetch(`${server.url}/api/banner?template_key=card&size=300x250&${query}`, { headers: { Accept: "image/png" } });
      expect(response.status).toBe(200);
      return decodeImage(response);
    };
    const pushed = await get(`data_mode=plugin&server_uuid=${uuid}&server_name=Same`);
    const same = await get("server_name=Same&online_players=1000000000&max_players=1000000000");
    const zero = await get("server_name=Same&online_players=1000000000&max_players=1");
    expect(pushed.data).toEqual(same.data);
    expect(pushed.data).not.toEqual(zero.data);
  });

  test("tps: at most two decimals, never an exponent", async () => {
    for (const [tps, message] of [[1e-7, "0"], [0.004, "0"], [19.999, "20"], [19.5, "19.5"], [1000, "1000"]] as const) {
      const uuid = await pushPlayers({ online: 1 }, tps);
      expect({ tps, message: (await fetchJson(`/shields/servers/${uuid}/tps.json`)).body.message }).toEqual({ tps, message });
    }
  });

  test("an unknown server or metric is a 404 badge", async () => {
    const unknown = await fetchPng(`/shields/servers/${newUuid()}/players.png?style=flat-square`);
    expect(unknown.response.status).toBe(404);
    expect(unknown.png.width).toBe(shieldsWidth("server", "not found", "flat-square"));
    expect((await fetchJson(`/shields/servers/${newUuid()}/players.json`)).body.error.code).toBe("unknown_server");
    expect((await fetchJson(`/shields/servers/${newUuid()}/downloads.json`)).body.error.code).toBe("unknown_metric");
  });
});

describe("hostile input", () => {
  test("huge values, odd characters and long labels keep the badge bounded", async () => {
    const uuid = await pushPlugin({ meta: { alpha: { id: "\u2e3b".repeat(4000) }, beta: { id: "é🎉漢字\u0000\u202e" } } });
    const wide = await fetchPng(`/shields/plugins/${uuid}/alpha.png?scale=2`);
    expect(wide.response.status).toBe(200);
    expect(wide.png.width).toBeLessThanOrEqual(4096);
    for (const path of [`/shields/plugins/${uuid}/beta.png`, `/shields/plugins/${uuid}/beta.png?label=${encodeURIComponent("漢字 🎉 \u0007")}&style=for-the-badge`]) {
      expect((await fetchPng(path)).response.status).toBe(200);
    }
  });

  test("other methods are 405", async () => {
    const response = await fetch(`${server.url}/shields/plugins/${newUuid()}/downloads.png`, { method: "POST" });
    expect(response.status).toBe(405);
  });
});
