// The designer page over real HTTP: what GET / serves, the headers that keep it
// to its own origin, and the assets it names. The page at work in a real
// browser is test/browser/designer.test.ts.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { PLUGIN_METRICS } from "../../src/badge/plugin-metrics.ts";
import { SERVER_METRICS } from "../../src/badge/server-metrics.ts";
import { STYLE_NAMES } from "../../src/badge/styles.ts";
import { BACKGROUND_PRESETS } from "../../src/banner/backgrounds.ts";
import { BANNER_ELEMENTS } from "../../src/banner/model.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { json } from "../support/signing.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

async function page(): Promise<{ response: Response; html: string }> {
  const response = await fetch(`${server.url}/`);
  return { response, html: await response.text() };
}

/** The src and href of the page's script and stylesheet, in document order. */
const assetPaths = (html: string) => [...html.matchAll(/<(?:script|link rel="stylesheet")[^>]* (?:src|href)="([^"]+)"/g)].map((match) => match[1]!);

test("GET / is the designer page, under a Content-Security-Policy that allows this origin only", async () => {
  const { response, html } = await page();
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
  expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  expect(html).toContain("<title>Pennant designer</title>");
  const policy = Object.fromEntries(
    response.headers.get("content-security-policy")!.split(";").map((part) => {
      const [name, ...sources] = part.trim().split(/\s+/);
      return [name, sources.join(" ")];
    }),
  );
  expect(policy).toMatchObject({
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "connect-src": "'self'",
    "frame-ancestors": "'none'",
  });
});

test("the page's script and stylesheet are served from this server under versioned URLs", async () => {
  const { html } = await page();
  const paths = assetPaths(html);
  expect(paths).toEqual([expect.stringMatching(/^\/designer\/designer\.css\?v=\w+$/), expect.stringMatching(/^\/designer\/designer\.js\?v=\w+$/)]);
  const types = { css: "text/css; charset=utf-8", js: "text/javascript; charset=utf-8" };
  for (const path of paths) {
    const response = await fetch(server.url + path);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe(types[path.includes(".css") ? "css" : "js"]);
    expect(response.headers.get("cache-control")).toBe("public, max-age=86400");
    expect((await response.text()).length).toBeGreaterThan(1000);
  }
});

test("nothing on the page comes from elsewhere and nothing runs inline", async () => {
  const { html } = await page();
  const [styles, script] = await Promise.all(assetPaths(html).map((path) => fetch(server.url + path).then((response) => response.text())));
  for (const text of [html, styles!, script!]) expect(text).not.toMatch(/https?:\/\/|["'(]\/\//);
  // Inline handlers and inline scripts would need 'unsafe-inline'; the inline blocks are JSON data.
  expect(html).not.toMatch(/\son[a-z]+=/i);
  expect([...html.matchAll(/<script([^>]*)>/g)].map((match) => match[1])).toEqual([
    expect.stringContaining(" src="),
    ' type="application/json" id="banner-choices"',
    ' type="application/json" id="badge-choices"',
  ]);
});

/** The JSON data block `id` on the page. */
const dataBlock = (html: string, id: string) => JSON.parse(new RegExp(`<script type="application/json" id="${id}">(.*?)</script>`, "s").exec(html)![1]!);

test("the badge choices on the page are the badge module's metrics and styles, with the heights shields gives the styles, and the ranges of uptime and peak", async () => {
  const { html } = await page();
  expect(dataBlock(html, "badge-choices")).toEqual({
    pluginMetrics: [...PLUGIN_METRICS.keys()],
    serverMetrics: [...SERVER_METRICS.keys()],
    styles: [...STYLE_NAMES],
    heights: { flat: 20, "flat-square": 20, plastic: 18, "for-the-badge": 28, social: 20 },
    rangedMetrics: ["uptime", "peak"],
    ranges: ["24h", "7d", "30d", "1y"],
    defaultRange: "7d",
  });
});

test("the banner choices on the page: GET /api/templates' list, each theme's own accent and background, the background presets, the parts to leave out", async () => {
  const { html } = await page();
  const choices = dataBlock(html, "banner-choices");
  expect(choices.templates).toEqual(await (await fetch(`${server.url}/api/templates`)).json());
  // The themes' colours as src/banner/theme.ts has them (the first stop of the background's gradient).
  expect(choices.themeColors).toEqual({ light: { accent: "#0369a1", background: "#f8fafc" }, dark: { accent: "#38bdf8", background: "#0f172a" } });
  expect(choices.backgrounds).toEqual(BACKGROUND_PRESETS);
  expect(choices.hideable).toEqual({ server: [...BANNER_ELEMENTS], plugin: ["version", "status", "icon"], market: ["version", "icon"] });
});

test("POST / is refused with 405", async () => {
  const response = await fetch(`${server.url}/`, { method: "POST" });
  expect(response.status).toBe(405);
  expect((await json(response)).error.code).toBe("method_not_allowed");
});
