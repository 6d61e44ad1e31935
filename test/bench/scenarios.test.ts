// The HTTP benches' requests (bench/http/scenarios.mjs), sent to a real
// server: each kind gets the status the bench counts on. A signed update the
// server refused would make the "signed updates per second" a rate of 401s.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { randomUUID } from "node:crypto";
import { MIX, expectedStatuses, scenarioRequests, signedUpdate, type ScenarioParams, type ScenarioRequest } from "../../bench/http/scenarios.mjs";
import { GifReader } from "omggif";
import { readWebpChunks } from "../../src/render/encode/animated-webp.ts";
import { writePluginPush } from "../../src/store/plugins.ts";
import { sqliteCreateToken } from "../../src/store/tokens.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

let server: TestServer;
let params: ScenarioParams;

beforeAll(async () => {
  // Legacy signatures off: only the standard scheme of docs/signed-api.md (timestamp + "." + body) may pass.
  server = await startTestServer({ PENNANT_RATE_LIMIT: "1000/60", PENNANT_LEGACY_SIGNATURES: "off" });
  const servers = [0, 1].map(() => ({ token: server.token("server"), uuid: randomUUID() }));
  const plugin = sqliteCreateToken(server.db, { hash: "b".repeat(64), scope: "plugin", label: "bench", now: server.clock.now });
  const pluginUuid = randomUUID();
  server.db.transaction((tx) => writePluginPush(tx, { uuid: pluginUuid, tokenId: plugin.id, now: server.clock.now, maxPerToken: 1, fields: { meta: { alpha: { downloads: 12_345 } } } }));
  params = { run: "test", servers, pluginUuid, popular: 3 };
});
afterAll(() => server.close());

/** The next request of an entry, built the way autocannon builds it (defaults, then setupRequest). */
function next(entry: ScenarioRequest): ScenarioRequest {
  const request: ScenarioRequest = { method: "GET", path: "/", headers: {}, ...entry };
  return entry.setupRequest ? entry.setupRequest(request) : request;
}

async function send(request: ScenarioRequest): Promise<Response> {
  const response = await fetch(server.url + request.path, { method: request.method, headers: request.headers, body: request.body });
  await response.arrayBuffer();
  return response;
}

async function statusesOf(kind: string, times: number, extra: ScenarioParams = {}): Promise<number[]> {
  const [entry] = scenarioRequests(kind, { ...params, ...extra });
  const statuses: number[] = [];
  for (let i = 0; i < times; i++) statuses.push((await send(next(entry!))).status);
  return statuses;
}

describe("bench requests against a real server", () => {
  test("signed updates are accepted, every one (each is new to the replay guard), over every token", async () => {
    expect(await statusesOf("signed update", 6)).toEqual([200, 200, 200, 200, 200, 200]);
  });

  test("what makes a signed update new: its run tag and counter (the same pair at the same second is a duplicate)", async () => {
    const at = server.clock.now;
    const server0 = params.servers![0]!;
    const post = (n: number, run: string) => send(signedUpdate(server0, n, at, { run }));
    expect((await post(0, "replay")).status).toBe(200);
    expect((await post(0, "replay")).headers.get("x-duplicate")).toBe("true");
    expect((await post(1, "replay")).status).toBe(200);
    expect((await post(0, "replay-2")).status).toBe(200);
  });

  test("a bad signature is a 401, a bad size a 400", async () => {
    expect(await statusesOf("bad signature", 2)).toEqual([401, 401]);
    expect(await statusesOf("bad banner query", 1)).toEqual([400]);
  });

  test("banners and badges are images; distinct banners are new URLs, cycled ones repeat", async () => {
    const [entry] = scenarioRequests("distinct banner", { ...params, cycle: 2 });
    const paths = [next(entry!), next(entry!), next(entry!)].map((r) => r.path);
    expect(new Set(paths).size).toBe(2);
    expect(paths[2]).toBe(paths[0]);
    for (const kind of ["cached banner", "distinct banner", "badge"]) {
      const response = await send(next(scenarioRequests(kind, params)[0]!));
      expect([kind, response.status, response.headers.get("content-type")]).toEqual([kind, 200, "image/png"]);
    }
  });

  test("distinct banners with looks: every size in each format and scale in turn, each new; distinct badges new in every style", async () => {
    const [banner] = scenarioRequests("distinct banner", { ...params, run: "looks", sizes: ["468x60", "728x90"], looks: [{ format: "png" }, { format: "webp", scale: 2 }] });
    const answers = [];
    for (let i = 0; i < 4; i++) {
      const request = next(banner!);
      const response = await send(request);
      answers.push([response.status, response.headers.get("content-type"), /size=(\w+)/.exec(request.path!)![1], /scale=(\d)/.exec(request.path!)?.[1] ?? "1"]);
    }
    expect(answers).toEqual([[200, "image/png", "468x60", "1"], [200, "image/png", "728x90", "1"], [200, "image/webp", "468x60", "2"], [200, "image/webp", "728x90", "2"]]);
    const [badge] = scenarioRequests("distinct badge", { ...params, run: "badges" });
    const badges = Array.from({ length: 6 }, () => next(badge!));
    expect(new Set(badges.map((r) => r.path)).size).toBe(6);
    for (const request of badges) {
      const response = await send(request);
      expect([response.status, response.headers.get("content-type")]).toEqual([200, "image/png"]);
    }
  });

  test("animated looks: each an animation of the most frames a manual banner has (stats 9, motd 6), as GIF and WebP", async () => {
    const looks = [{ format: "gif", animate: "stats" }, { format: "webp", animate: "motd", scale: 2 }] as const;
    const [banner] = scenarioRequests("distinct banner", { ...params, run: "animated", looks: [...looks] });
    const answers = [];
    for (let i = 0; i < looks.length; i++) {
      const response = await fetch(server.url + next(banner!).path, { headers: { Accept: "image/png" } });
      const bytes = new Uint8Array(await response.arrayBuffer());
      const type = response.headers.get("content-type");
      const frames = type === "image/gif" ? new GifReader(bytes).numFrames() : readWebpChunks(bytes).filter((chunk) => chunk.fourcc === "ANMF").length;
      answers.push([response.status, type, frames]);
    }
    expect(answers).toEqual([[200, "image/gif", 9], [200, "image/webp", 6]]);
  });

  test("with the images' ETags, the If-None-Match kinds are 304s", async () => {
    const etag = async (kind: string) => (await send(next(scenarioRequests(kind, params)[0]!))).headers.get("etag")!;
    const etags = { banner: await etag("cached banner"), badge: await etag("badge") };
    expect(await statusesOf("banner, If-None-Match", 1, { etags })).toEqual([304]);
    expect(await statusesOf("badge, If-None-Match", 1, { etags })).toEqual([304]);
  });

  test("one pass of the mix: every kind gets the status it expects, counted under its kind", async () => {
    const counts: Record<string, Record<string, number>> = {};
    const etags = { banner: (await send(next(scenarioRequests("cached banner", params)[0]!))).headers.get("etag")!, badge: (await send(next(scenarioRequests("badge", params)[0]!))).headers.get("etag")! };
    const entries = scenarioRequests("mixed", { ...params, popular: 1, run: "mix", etags }, counts);
    expect(entries).toHaveLength(MIX.length);
    for (const entry of entries) entry.onResponse!((await send(next(entry))).status);
    for (const [kind, statuses] of Object.entries(counts)) {
      expect([kind, Object.keys(statuses).map(Number)]).toEqual([kind, expectedStatuses(kind)]);
    }
    expect(Object.values(counts).reduce((sum, s) => sum + Object.values(s).reduce((a, b) => a + b, 0), 0)).toBe(MIX.length);
  });
});
