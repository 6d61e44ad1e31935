// stats= and numbers= end to end: a plugin pushes its counters over the
// signed API, GET /api/banner draws the ones chosen, in the order chosen, in
// the number style chosen; each image is compared with the template's drawing
// of the data it must show. Bad lists are a 400 naming the parameter.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { BannerOptions, PluginBannerData } from "../../src/banner/model.ts";
import { renderBanner } from "../../src/banner/templates/index.ts";
import { decodeImage, differingPixels } from "../support/images.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { json, newUuid, signedRequest } from "../support/signing.ts";

let server: TestServer;
const uuid = newUuid();
const STATS = { servers: 1342, players: 18_234, shops: 7, worlds: 12 };

beforeAll(async () => {
  server = await startTestServer({ PENNANT_RATE_LIMIT: "100000/60" });
  const body = { plugin: { name: "EzShops", version: "3.2.1" }, stats: STATS, meta: {} };
  const push = signedRequest(server.url, { path: `/api/plugins/${uuid}/data`, token: server.token("plugin"), body, tokenHeader: "X-Plugin-Token" }, server.clock.now);
  expect((await fetch(push)).status).toBe(200);
});
afterAll(async () => {
  await server.close();
});

const OPTIONS: BannerOptions = { size: { width: 728, height: 90 }, theme: "dark", scale: 1 };

function banner(query: string, accept = "image/png,image/*"): Promise<Response> {
  return fetch(`${server.url}/api/banner?template_key=plugin-stats&plugin_uuid=${uuid}&size=728x90${query}`, { headers: { Accept: accept } });
}

/** The banner of `query` against the template's drawing of `counters`: 0 when they are the same image. */
async function differenceFrom(query: string, counters: PluginBannerData["counters"], numbers: PluginBannerData["numbers"] = "compact"): Promise<number> {
  const response = await banner(query);
  expect([query, response.status]).toEqual([query, 200]);
  const expected: PluginBannerData = { name: "EzShops", version: "3.2.1", counters, numbers, active: true };
  return differingPixels(await decodeImage(response), renderBanner("plugin-stats", expected, OPTIONS));
}

describe("stats=", () => {
  test("without it: the first three counters pushed, in push order", async () => {
    expect(await differenceFrom("", [["servers", 1342], ["players", 18_234], ["shops", 7]])).toBe(0);
  });

  test("chooses the counters and their order; a name given twice counts once; spaces around names are dropped", async () => {
    expect(await differenceFrom("&stats=worlds,servers", [["worlds", 12], ["servers", 1342]])).toBe(0);
    expect(await differenceFrom("&stats=shops, players ,shops", [["shops", 7], ["players", 18_234]])).toBe(0);
    // Not the same image as another order: the order is drawn.
    expect(await differenceFrom("&stats=worlds,servers", [["servers", 1342], ["worlds", 12]])).toBeGreaterThan(0);
  });

  test("a name the record does not have is drawn as a dash in its place", async () => {
    expect(await differenceFrom("&stats=servers,downloads", [["servers", 1342], ["downloads", null]])).toBe(0);
  });

  test("a bad list is a 400 naming stats, as JSON or as an image that says so", async () => {
    const bad = ["servers,,players", ",servers", "a,b,c,d", "x".repeat(65), "servers,%01"];
    for (const value of bad) {
      const response = await banner(`&stats=${value}`, "application/json");
      const body = await json(response);
      expect([value, response.status, body.error.code, body.error.message]).toEqual([value, 400, "invalid_request", expect.stringContaining("stats")]);
    }
    const image = await banner("&stats=a,b,c,d");
    expect([image.status, image.headers.get("content-type")]).toEqual([400, "image/png"]);
  });
});

describe("numbers=", () => {
  test("compact by default, full on request; anything else is a 400", async () => {
    expect(await differenceFrom("&numbers=compact", [["servers", 1342], ["players", 18_234], ["shops", 7]])).toBe(0);
    expect(await differenceFrom("&numbers=FULL", [["servers", 1342], ["players", 18_234], ["shops", 7]], "full")).toBe(0);
    expect(await differenceFrom("&numbers=full", [["servers", 1342], ["players", 18_234], ["shops", 7]])).toBeGreaterThan(0);
    const response = await banner("&numbers=exact", "application/json");
    expect([response.status, (await json(response)).error.message]).toEqual([400, expect.stringContaining("numbers")]);
  });
});
