// SVG badges over real HTTP against a real server and database: every
// metric's .svg in every style is what shields' badge-maker writes for the
// label, message and colours its .json names; headers, ETag and 304 as the
// PNGs; errors as SVG badges; hostile labels read back as text.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { makeBadge } from "badge-maker";
import { PLUGIN_METRICS } from "../../src/badge/plugin-metrics.ts";
import { SERVER_METRICS } from "../../src/badge/server-metrics.ts";
import { STYLE_NAMES, type StyleName } from "../../src/badge/styles.ts";
import { elementsOf, parseXml, textOf, withNormalizedIds, type XmlElement } from "../badge/support/svg-tree.ts";
import { pluginUpdate, pluginUpdateBody, sendPluginUpdate } from "../support/ezbanners-client.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { json, newUuid, signedRequest } from "../support/signing.ts";

let server: TestServer;
let plugin: string;
let serverUuid: string;

/** Each server's token (a new one per call of token()): one owns every plugin pushed there. */
const tokens = new Map<TestServer, string>();
let pushes = 0;
async function pushPlugin(target: TestServer, body: object, uuid = newUuid()): Promise<string> {
  const token = tokens.get(target) ?? target.token();
  tokens.set(target, token);
  // A timestamp of its own per push, or a second push of one body would replay the first's signature.
  const call = { path: `/api/plugins/${uuid}/data`, token, body, tokenHeader: "X-Plugin-Token" as const, timestamp: target.clock.now + pushes++ };
  expect((await fetch(signedRequest(target.url, call, target.clock.now))).status).toBe(200);
  return uuid;
}

beforeAll(async () => {
  server = await startTestServer({ PENNANT_RATE_LIMIT: "100000/60" });
  plugin = await pushPlugin(server, {
    plugin: { name: "EzShops", version: "3.2.1" },
    meta: {
      alpha: { id: 12345, downloads: 12_345, latest_version: "3.2.1", rating: { average: 4.6, count: 87 } },
      beta: { id: "ezshops", downloads: 1050, followers: 99, latest_version: "3.2.1-beta.2" },
      gamma: { slug: "EzShops", downloads: 0, stars: 12, watchers: 3, latest_version: "3.2.0", license: "GPL-3.0-or-later" },
      code: { repository: "ez-plugins/EzShops", stars: 321, forks: 12, watchers: 8, open_issues: [{ id: 1 }], latest_release: "v3.2.1" },
    },
    minecraft_versions: ["1.21", "1.8.8", "1.20.4"],
    server_software: ["Paper", "Folia"],
  });
  serverUuid = newUuid();
  const update = pluginUpdate(server.url, server.token(), serverUuid, pluginUpdateBody({ onlinePlayers: 3 }), server.clock.now);
  expect((await sendPluginUpdate(update)).status).toBe(200);
});
afterAll(async () => {
  await server.close();
});

async function fetchSvg(target: TestServer, path: string, headers: Record<string, string> = {}): Promise<{ response: Response; svg: string; tree: XmlElement }> {
  const response = await fetch(target.url + path, { headers });
  expect(response.headers.get("content-type")).toBe("image/svg+xml");
  const svg = await response.text();
  return { response, svg, tree: parseXml(svg) };
}

/** badge-maker's SVG of what the badge's endpoint JSON says it shows. */
async function shieldsOf(path: string, style: StyleName): Promise<XmlElement> {
  const response = await fetch(`${server.url}${path.replace(".svg", ".json")}`);
  const body = (await json(response)) as { label: string; message: string; color: string; labelColor?: string };
  const colors = body.labelColor === undefined ? {} : { labelColor: body.labelColor };
  return parseXml(makeBadge({ label: body.label, message: body.message, color: body.color, ...colors, style }));
}

describe("every metric in every style, as badge-maker writes it", () => {
  const paths = [
    ...[...PLUGIN_METRICS.keys()].map((metric) => `/shields/plugins/\${plugin}/${metric}.svg`),
    ...[...SERVER_METRICS.keys()].map((metric) => `/shields/servers/\${server}/${metric}.svg`),
  ];
  for (const style of STYLE_NAMES) {
    test(style, async () => {
      for (const template of paths) {
        const path = `${template.replace("${plugin}", plugin).replace("${server}", serverUuid)}?style=${style}`;
        const { response, tree } = await fetchSvg(server, path);
        expect({ path, status: response.status }).toEqual({ path, status: 200 });
        expect(withNormalizedIds(tree)).toEqual(withNormalizedIds(await shieldsOf(path, style)));
      }
    });
  }

  test("label, color and labelColor as shields reads them", async () => {
    const path = `/shields/plugins/${plugin}/downloads.svg?label=${encodeURIComponent("my label")}&color=ff69b4&labelColor=informational`;
    const { tree } = await fetchSvg(server, path);
    expect(withNormalizedIds(tree)).toEqual(withNormalizedIds(await shieldsOf(path, "flat")));
    const fills = elementsOf(tree).filter((element) => element.name === "rect").map((rect) => rect.attributes.fill);
    expect(fills).toContain("#ff69b4");
    expect(fills).toContain("#007ec6");
  });
});

describe("answers as the PNGs'", () => {
  test("image/svg+xml, CORS, Cache-Control by metric and cacheSeconds", async () => {
    const { response } = await fetchSvg(server, `/shields/plugins/${plugin}/downloads.svg`);
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    // Opened on its own, an SVG may run no script whatever it held.
    expect(response.headers.get("content-security-policy")).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(response.headers.get("cache-control")).toBe("public, max-age=900, s-maxage=900");
    const longer = await fetchSvg(server, `/shields/plugins/${plugin}/downloads.svg?cacheSeconds=7200`);
    expect(longer.response.headers.get("cache-control")).toBe("public, max-age=7200, s-maxage=7200");
  });

  test("a strong ETag of its own (not the PNG's) and 304 when held; scale changes nothing in an SVG", async () => {
    const path = `/shields/plugins/${plugin}/version.svg`;
    const first = await fetchSvg(server, path);
    const etag = first.response.headers.get("etag")!;
    expect(etag).toMatch(/^"[^"]+"$/);
    expect((await fetch(`${server.url}${path.replace(".svg", ".png")}`)).headers.get("etag")).not.toBe(etag);
    const again = await fetch(server.url + path, { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get("cache-control")).toBe("public, max-age=300, s-maxage=300");
    expect((await again.arrayBuffer()).byteLength).toBe(0);
    const scaled = await fetchSvg(server, `${path}?scale=2`);
    expect(scaled.response.headers.get("etag")).toBe(etag);
    expect(scaled.svg).toBe(first.svg);
  });

  test("a push that moves the value moves the ETag", async () => {
    const uuid = await pushPlugin(server, { meta: { alpha: { downloads: 5 } } });
    const before = (await fetchSvg(server, `/shields/plugins/${uuid}/alpha-downloads.svg`)).response.headers.get("etag")!;
    await pushPlugin(server, { meta: { alpha: { downloads: 50_000 } } }, uuid);
    server.clock.now += 2_000; // past the reuse of the URL's answer (badge-routes.ts)
    const after = await fetchSvg(server, `/shields/plugins/${uuid}/alpha-downloads.svg`, { "If-None-Match": before });
    expect(after.response.status).toBe(200);
    expect(textOf(after.tree)).toContain("50k");
  });
});

describe("errors as SVG badges", () => {
  const texts = (tree: XmlElement) => elementsOf(tree).filter((element) => element.name === "text").map(textOf);

  test("unknown plugin, server and metric: 404 'not found' badges; a malformed UUID: 400 'invalid uuid'", async () => {
    for (const [path, status, label, message] of [
      [`/shields/plugins/${newUuid()}/downloads.svg`, 404, "plugin", "not found"],
      [`/shields/servers/${newUuid()}/players.svg?style=social`, 404, "Server", "not found"],
      [`/shields/plugins/${plugin}/nope.svg?style=for-the-badge`, 404, "METRIC", "NOT FOUND"],
      [`/shields/servers/not-a-uuid/players.svg`, 400, "server", "invalid uuid"],
    ] as const) {
      const { response, tree } = await fetchSvg(server, path, { Accept: "*/*" });
      expect({ path, status: response.status }).toEqual({ path, status });
      expect(tree.attributes["aria-label"]).toBe(`${label}: ${message}`);
      expect(texts(tree)).toContain(message);
    }
  });

  test("a new look beyond the draw budget: a 429 'rate limited' SVG, not kept", async () => {
    const limited = await startTestServer({ PENNANT_RATE_LIMIT: "2/60" });
    try {
      const uuid = await pushPlugin(limited, { meta: { alpha: { downloads: 10 } } });
      for (const label of ["a", "b"]) expect((await fetch(`${limited.url}/shields/plugins/${uuid}/downloads.svg?label=${label}`)).status).toBe(200);
      const refused = await fetchSvg(limited, `/shields/plugins/${uuid}/downloads.svg?label=c`);
      expect(refused.response.status).toBe(429);
      expect(refused.response.headers.get("cache-control")).toBe("no-store");
      expect(refused.tree.attributes["aria-label"]).toBe("badge: rate limited");
      expect(refused.response.headers.get("content-security-policy")).toBe("default-src 'none'; style-src 'unsafe-inline'");
      // Held ones are served past it.
      expect((await fetch(`${limited.url}/shields/plugins/${uuid}/downloads.svg?label=a`)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe("hostile labels", () => {
  test("markup in a label is text in the SVG, in every style", async () => {
    for (const label of ["<script>alert(1)</script>", "\"><svg onload=alert(1)>", "]]>&amp;'", "a\u0000\u0008b"]) {
      for (const style of STYLE_NAMES) {
        const { response, tree } = await fetchSvg(server, `/shields/plugins/${plugin}/downloads.svg?style=${style}&label=${encodeURIComponent(label)}`);
        expect(response.status).toBe(200);
        const names = new Set(elementsOf(tree).map((element) => element.name));
        expect(names.has("script")).toBe(false);
        for (const element of elementsOf(tree)) expect(Object.keys(element.attributes).filter((name) => name.startsWith("on"))).toEqual([]);
      }
    }
    const { tree } = await fetchSvg(server, `/shields/plugins/${plugin}/downloads.svg?label=${encodeURIComponent("<script>alert(1)</script>")}`);
    expect(tree.attributes["aria-label"]).toStartWith("<script>alert(1)</script>: ");
  });
});

describe("written on the answering thread, charged as a draw", () => {
  const LARGEST_BANNER = "/api/banner?server_name=Large&size=1200x300&scale=2&format=webp";

  test("an SVG is answered while the only render thread is held by a drawing: it waits in no queue", async () => {
    const held: Array<() => void> = [];
    const busy = await startTestServer({ PENNANT_RENDER_THREADS: "1" }, { holdDraws: () => new Promise<void>((resolve) => held.push(resolve)) });
    try {
      const uuid = await pushPlugin(busy, { meta: { alpha: { downloads: 10 } } });
      const banner = fetch(busy.url + LARGEST_BANNER);
      for (let i = 0; i < 400 && held.length === 0; i++) await Bun.sleep(5);
      expect(held.length).toBe(1);
      const { response } = await fetchSvg(busy, `/shields/plugins/${uuid}/downloads.svg?label=new`);
      expect(response.status).toBe(200);
      expect(held.length).toBe(1);
      held.shift()!();
      expect((await banner).status).toBe(200);
    } finally {
      await busy.close();
    }
  });

  test("a new SVG spends a unit of PENNANT_DRAW_BUDGET: refused once a large banner spent it all", async () => {
    const spent = await startTestServer({ PENNANT_DRAW_BUDGET: "207/60" });
    try {
      const uuid = await pushPlugin(spent, { meta: { alpha: { downloads: 10 } } });
      expect((await fetch(spent.url + LARGEST_BANNER)).status).toBe(200); // 206 units
      expect((await fetchSvg(spent, `/shields/plugins/${uuid}/downloads.svg?label=one`)).response.status).toBe(200);
      const refused = await fetchSvg(spent, `/shields/plugins/${uuid}/downloads.svg?label=two`);
      expect(refused.response.status).toBe(429);
      expect(refused.tree.attributes["aria-label"]).toBe("badge: rate limited");
    } finally {
      await spent.close();
    }
  });
});
