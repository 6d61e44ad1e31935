// One way through (issue 19): every answer of every image route, whichever
// step made it (a 200 drawn now, a 200 answered again before Elysia, a 304,
// an error image, a 429, a HEAD), carries the headers of answer-headers.ts,
// and so does every answer of the app its kind calls for. The expectations
// are read from that table: a header added there is checked here on every
// answer at once.

import { afterEach, describe, expect, test } from "bun:test";
import { ANSWER_HEADERS, PUBLIC_READ_ROUTES } from "../../src/http/answer-headers.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { newUuid, signedRequest } from "../support/signing.ts";

let server: TestServer;
afterEach(async () => {
  await server?.close();
});

const IMAGE = { Accept: "image/avif,image/webp,image/png,*/*;q=0.8" };
const EVERY = Object.entries(ANSWER_HEADERS.every);
const IMAGE_ANSWER = [...EVERY, ...Object.entries(ANSWER_HEADERS.publicRead), ...Object.entries(ANSWER_HEADERS.image)];
const PUBLIC_JSON = [...EVERY, ...Object.entries(ANSWER_HEADERS.publicRead)];

type Expected = Array<[string, string]>;

/** The headers `answer` lacks or holds with another value, and any of `absent` it holds. */
function misses(answer: Response, expected: Expected, absent: Expected = []): string[] {
  const wrong = expected.filter(([name, value]) => answer.headers.get(name) !== value).map(([name]) => `${name} missing`);
  const extra = absent.filter(([name]) => answer.headers.has(name)).map(([name]) => `${name} present`);
  return [...wrong, ...extra, ...(answer.headers.get("x-request-id") ? [] : ["x-request-id missing"])];
}

async function pushPlugin(): Promise<string> {
  const uuid = newUuid();
  const call = { path: `/api/plugins/${uuid}/data`, token: server.token(), body: { meta: { alpha: { downloads: 12_345 } } }, tokenHeader: "X-Plugin-Token" as const };
  expect((await fetch(signedRequest(server.url, call, server.clock.now))).status).toBe(200);
  return uuid;
}

/** Every kind of answer of an image route at `path` (a 200 that draws; `bad`: a path that answers an error image). */
async function imageAnswers(path: string, bad: string, status: { error: number }): Promise<Record<string, Response>> {
  const get = (url: string, headers: Record<string, string> = {}, method = "GET") => fetch(server.url + url, { method, headers: { ...IMAGE, ...headers } });
  const fresh = await get(path);
  expect(fresh.status).toBe(200);
  const again = await get(path);
  const held = await get(path, { "If-None-Match": fresh.headers.get("etag")! });
  const head = await get(path, {}, "HEAD");
  const error = await get(bad);
  let limited = await get(`${path}${path.includes("?") ? "&" : "?"}label=new`);
  for (let i = 0; limited.status !== 429 && i < 5; i++) limited = await get(`${path}${path.includes("?") ? "&" : "?"}label=new${i}`);
  expect([again.status, held.status, head.status, error.status, limited.status]).toEqual([200, 304, 200, status.error, 429]);
  expect(error.headers.get("content-type")).toBe("image/png");
  expect(limited.headers.get("content-type")).toBe("image/png");
  return { "200 drawn": fresh, "200 again (first step)": again, "304": held, HEAD: head, [`${status.error} error image`]: error, "429 image": limited };
}

describe("every answer of every image route carries the shared headers", () => {
  test("banners", async () => {
    // Two requests pass before the cached ones; the budget runs out on the fifth.
    server = await startTestServer({ PENNANT_RATE_LIMIT: "5/60" });
    const answers = await imageAnswers("/api/banner?server_name=Headers", "/api/banner?size=1x1", { error: 400 });
    for (const [kind, answer] of Object.entries(answers)) expect({ kind, misses: misses(answer, IMAGE_ANSWER) }).toEqual({ kind, misses: [] });
  });

  test("badges, plugin and server", async () => {
    // Draws spend the budget: the badge, then the 404 badge; the next new look is refused.
    server = await startTestServer({ PENNANT_RATE_LIMIT: "2/60" });
    const plugin = await pushPlugin();
    for (const path of [`/shields/plugins/${plugin}/downloads.png`, `/shields/servers/${newUuid()}/players.png`]) {
      const bad = path.replace("downloads", "nope").replace("players", "nope");
      // An unknown server's badge is a 404 image of its own: its 200s come from a known plugin.
      const answers = path.includes("/servers/") ? { "404 image": await fetch(server.url + path, { headers: IMAGE }) } : await imageAnswers(path, bad, { error: 404 });
      for (const [kind, answer] of Object.entries(answers)) expect({ path, kind, misses: misses(answer, IMAGE_ANSWER) }).toEqual({ path, kind, misses: [] });
    }
  });

  test("the pages' charts and card", async () => {
    server = await startTestServer({ PENNANT_RATE_LIMIT: "5/60" });
    const uuid = newUuid();
    const push = { path: "/api/server/update", token: server.token(), serverUuid: uuid, body: { name: "Headers", status: "online", stats: { players: { online: 1, max: 5 } } } };
    expect((await fetch(signedRequest(server.url, push, server.clock.now))).status).toBe(200);
    for (const file of ["chart.png", "chart.svg", "og.png"]) {
      server.clock.now += 61_000;
      const answers = await imageAnswers(`/s/${uuid}/${file}`, `/s/${newUuid()}/${file}`, { error: 404 });
      for (const [kind, answer] of Object.entries(answers)) expect({ file, kind, misses: misses(answer, IMAGE_ANSWER) }).toEqual({ file, kind, misses: [] });
    }
  });

  test("a 500 image of a record that cannot be read", async () => {
    server = await startTestServer();
    server.db.$client.close();
    for (const path of [`/shields/plugins/${newUuid()}/downloads.png`, `/api/banner?data_mode=plugin&server_uuid=${newUuid()}`]) {
      const answer = await fetch(server.url + path, { headers: IMAGE });
      expect([path, answer.status, misses(answer, IMAGE_ANSWER)]).toEqual([path, 500, []]);
    }
  });
});

describe("every other answer carries those its kind calls for", () => {
  test("public reads as JSON (banner errors, badge JSON, lookups, templates): any web page may read them", async () => {
    server = await startTestServer({ PENNANT_RATE_LIMIT: "4/60" });
    const plugin = await pushPlugin();
    const json = [
      await fetch(`${server.url}/shields/plugins/${plugin}/downloads.json`),
      await fetch(`${server.url}/shields/plugins/${newUuid()}/downloads.json`),
      await fetch(`${server.url}/api/templates`),
      await fetch(`${server.url}/api/banner?size=1x1`),
      await fetch(`${server.url}/api/lookup?address=10.0.0.1`),
      await fetch(`${server.url}/api/lookup`),
      await fetch(`${server.url}/api/banner`),
      await fetch(`${server.url}/api/lookup?address=10.0.0.1`),
    ];
    expect(json.map((answer) => answer.status)).toEqual([200, 404, 200, 400, 200, 400, 200, 429]);
    for (const answer of json) expect({ url: answer.url, misses: misses(answer, PUBLIC_JSON) }).toEqual({ url: answer.url, misses: [] });
  });

  test("the signed API, /metrics, /healthz, the designer page, the public pages and unknown paths: the answer's own headers, not the public ones", async () => {
    server = await startTestServer();
    const call = { path: `/api/plugins/${newUuid()}/data`, token: server.token(), body: { plugin: { name: "Headers" } }, tokenHeader: "X-Plugin-Token" as const };
    const answers = [
      await fetch(signedRequest(server.url, call, server.clock.now)),
      await fetch(signedRequest(server.url, { ...call, signature: "0".repeat(64) }, server.clock.now)),
      await fetch(`${server.url}/metrics`),
      await fetch(`${server.url}/healthz`),
      await fetch(`${server.url}/`),
      await fetch(`${server.url}/designer/designer.js`),
      await fetch(`${server.url}/s/${newUuid()}`),
      await fetch(`${server.url}/page/page.css`),
      await fetch(`${server.url}/no/such/path`),
      await fetch(`${server.url}/api/banner`, { method: "POST" }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 401, 200, 200, 200, 200, 404, 200, 404, 405]);
    const notPublic: Expected = [...Object.entries(ANSWER_HEADERS.publicRead), ...Object.entries(ANSWER_HEADERS.image)];
    for (const answer of answers) expect({ url: answer.url, misses: misses(answer, EVERY, notPublic) }).toEqual({ url: answer.url, misses: [] });
  });

  test("the public routes named are the app's own", async () => {
    server = await startTestServer();
    const routes = new Set(server.app.routes.filter((route) => route.method === "GET").map((route) => route.path));
    for (const route of PUBLIC_READ_ROUTES) expect({ route, served: routes.has(route) }).toEqual({ route, served: true });
  });
});
