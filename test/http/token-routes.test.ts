// A token's own records over real HTTP (src/http/token-routes.ts): its
// servers with the pushes refused in the last day, a server's detail and
// chart, its plugins and networks. A token sees only what it owns: another
// token's server answers exactly as a UUID nobody pushed. Only signatures over
// method and path are taken.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/server.ts";
import { newUuid, signedRequest, type SignedCall } from "../support/signing.ts";

let server: TestServer;
const a = { token: "", lobby: newUuid(), survival: newUuid(), plugin: newUuid() };
const b = { token: "", server: newUuid(), plugin: newUuid() };
let serverOnly = "";

function send(call: SignedCall): Promise<Response> {
  return fetch(signedRequest(server.url, call, server.clock.now));
}

const get = (path: string, token: string, more: Partial<SignedCall> = {}) => send({ method: "GET", path, token, ...more });

async function body(response: Response, status = 200): Promise<any> {
  const text = await response.text();
  expect([status, response.status, text.slice(0, 300)]).toEqual([status, response.status, text.slice(0, 300)]);
  expect(response.status).toBe(status);
  return JSON.parse(text);
}

beforeAll(async () => {
  server = await startTestServer();
  a.token = server.token();
  b.token = server.token();
  serverOnly = server.token("server");
  const pushes: SignedCall[] = [
    { path: "/api/server/update", token: a.token, serverUuid: a.lobby, body: { name: "Lobby", status: "online", address: "play.example.net", stats: { players: { online: 4, max: 20 }, motd: "§aWelcome\n§7to the lobby", version: "Paper 1.21.4" } } },
    { path: "/api/server/update", token: a.token, serverUuid: a.survival, body: { name: "Survival", status: "online", stats: { players: { online: 6, max: 30 } } } },
    { path: `/api/plugins/${a.plugin}/data`, token: a.token, tokenHeader: "X-Plugin-Token", body: { plugin: { name: "EzShops", version: "3.2.1" }, stats: { shops: 12 }, meta: { beta: { downloads: 1500 } } } },
    { path: "/api/server/update", token: b.token, serverUuid: b.server, body: { name: "B's server", status: "online" } },
    { path: `/api/plugins/${b.plugin}/data`, token: b.token, tokenHeader: "X-Plugin-Token", body: { plugin: { name: "B's plugin" } } },
  ];
  for (const call of pushes) expect((await send(call)).status).toBe(200);
  server.clock.now += 1000;
  // Refused: a's plugin pushing for b's server (authenticated, not_owner), and a push naming a's lobby with a bad signature (not authenticated).
  expect((await send({ path: "/api/server/update", token: a.token, serverUuid: b.server, body: { name: "Mine?" } })).status).toBe(403);
  expect((await send({ path: "/api/server/update", token: a.token, serverUuid: a.lobby, body: {}, signature: "0".repeat(64) })).status).toBe(401);
  expect((await send({ method: "PUT", path: "/api/networks/hub", token: a.token, body: { name: "Hub", servers: [a.lobby, a.survival] } })).status).toBe(200);
  expect((await send({ method: "PUT", path: "/api/networks/bee", token: b.token, body: { name: "Bee", servers: [b.server] } })).status).toBe(200);
  // The refusals are counted in memory and written every 5 s (refusal-tally.ts).
  for (let waited = 0; (await server.store.refusals.list(0)).length < 2 && waited < 100; waited++) await Bun.sleep(100);
}, 30_000);

afterAll(async () => {
  await server.close();
});

describe("GET /api/token/servers", () => {
  test("lists the token's servers only, each with the pushes naming it refused in the last day; the token's refused pushes elsewhere after them", async () => {
    const listed = await body(await get("/api/token/servers", a.token));
    expect(listed.servers.map((row: any) => row.uuid).sort()).toEqual([a.lobby, a.survival].sort());
    const lobby = listed.servers.find((row: any) => row.uuid === a.lobby);
    expect(lobby).toMatchObject({
      name: "Lobby", status: "online", players: { online: 4, max: 20 }, version: "Paper 1.21.4", motd: ["Welcome", "to the lobby"], address: "play.example.net",
      page_enabled: true, refused: 1, refusals: [{ code: "bad_signature", count: 1, by: "unauthenticated" }],
    });
    expect(lobby.last_push).toBe(new Date(server.clock.now - 1000).toISOString());
    expect(listed.refused_elsewhere).toEqual([{ server_uuid: b.server, refusals: [{ code: "not_owner", count: 1, last_at: expect.any(String), by: "this_token" }] }]);
    // b sees the refusal of a push naming its server, never by which token.
    const other = await body(await get("/api/token/servers", b.token));
    expect(other.servers.map((row: any) => [row.uuid, row.refusals])).toEqual([[b.server, [{ code: "not_owner", count: 1, last_at: expect.any(String), by: "another_token" }]]]);
    expect(other.refused_elsewhere).toEqual([]);
    expect(JSON.stringify(other)).not.toContain(a.lobby);
  });

  test("takes signatures over method and path only, from a token it knows", async () => {
    expect((await body(await get("/api/token/servers", a.token, { scheme: "standard" }), 401)).error.code).toBe("bad_signature");
    // A signature over another path is refused.
    const call = { method: "GET" as const, path: "/api/token/networks", token: a.token };
    const elsewhere = signedRequest(server.url, call, server.clock.now);
    const moved = await fetch(`${server.url}/api/token/servers`, { headers: elsewhere.headers });
    expect((await body(moved, 401)).error.code).toBe("bad_signature");
    expect((await body(await get("/api/token/servers", "pn_no-such-token-0123456789"), 401)).error.code).toBe("unknown_token");
    expect((await body(await fetch(`${server.url}/api/token/servers`), 401)).error.code).toBe("missing_headers");
  });
});

describe("GET /api/token/servers/{uuid} and its chart", () => {
  test("the token's server: as listed, with uptime and peak of every range, its links and snippets", async () => {
    const detail = await body(await get(`/api/token/servers/${a.lobby}`, a.token));
    expect(detail).toMatchObject({ uuid: a.lobby, name: "Lobby", status: "online", links: { page: `/s/${a.lobby}`, designer: `/#server_uuid=${a.lobby}` } });
    expect(Object.keys(detail.ranges)).toEqual(["24h", "7d", "30d", "1y"]);
    expect(detail.ranges["24h"]).toEqual({ uptime: expect.any(Number), peak: 4 });
    const titles = detail.snippets.map((group: any) => group.title);
    expect(titles).toEqual(expect.arrayContaining(["Banner", "Badge: players", "Badge: status", "Badge: uptime"]));
    expect(JSON.stringify(detail.snippets)).toContain(`/api/banner?data_mode=plugin&server_uuid=${a.lobby}`);
  });

  test("another token's server answers exactly as a UUID nobody pushed; a malformed UUID is a 400", async () => {
    for (const path of [(uuid: string) => `/api/token/servers/${uuid}`, (uuid: string) => `/api/token/servers/${uuid}/chart.svg`]) {
      const others = await get(path(b.server), a.token);
      const nobodys = await get(path(newUuid()), a.token);
      expect([others.status, nobodys.status]).toEqual([404, 404]);
      expect(await others.json()).toEqual(await nobodys.json());
    }
    expect((await body(await get("/api/token/servers/not-a-uuid", a.token), 400)).error.code).toBe("invalid_server_uuid");
  });

  test("the chart is the page's SVG in the size asked, its page on or off", async () => {
    const wide = await get(`/api/token/servers/${a.lobby}/chart.svg`, a.token);
    expect([wide.status, wide.headers.get("content-type"), wide.headers.get("cache-control")]).toEqual([200, "image/svg+xml", "private, no-store"]);
    expect(wide.headers.get("content-security-policy")).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(await wide.text()).toStartWith('<svg xmlns="http://www.w3.org/2000/svg" width="800" height="280"');
    expect((await send({ method: "PUT", path: "/api/server/page", token: a.token, serverUuid: a.lobby, body: { enabled: false } })).status).toBe(200);
    expect((await fetch(`${server.url}/s/${a.lobby}/chart.svg`)).status).toBe(404);
    const small = await get(`/api/token/servers/${a.lobby}/chart.svg?range=7d&size=small`, a.token);
    expect(small.status).toBe(200);
    expect(await small.text()).toStartWith('<svg xmlns="http://www.w3.org/2000/svg" width="320" height="120"');
    expect((await body(await get(`/api/token/servers/${a.lobby}`, a.token))).page_enabled).toBe(false);
    expect((await body(await get(`/api/token/servers/${a.lobby}/chart.svg?range=2w`, a.token), 400)).error.code).toBe("invalid_range");
    expect((await body(await get(`/api/token/servers/${a.lobby}/chart.svg?size=huge`, a.token), 400)).error.code).toBe("invalid_request");
    server.clock.now += 1000;
    expect((await send({ method: "PUT", path: "/api/server/page", token: a.token, serverUuid: a.lobby, body: { enabled: true } })).status).toBe(200);
  });
});

describe("GET /api/token/plugins and /api/token/networks", () => {
  test("plugins: the token's only, with the numbers pushed and each badge's value and snippets; a server token has none to read", async () => {
    const listed = await body(await get("/api/token/plugins", a.token, { tokenHeader: "X-Plugin-Token" }));
    expect(listed.plugins).toHaveLength(1);
    const [plugin] = listed.plugins;
    expect(plugin).toMatchObject({ uuid: a.plugin, name: "EzShops", version: "3.2.1", active: true, stats: { shops: 12 } });
    const downloads = plugin.metrics.find((metric: any) => metric.metric === "beta-downloads");
    expect(downloads).toMatchObject({ message: "1.5k", badge: `/shields/plugins/${a.plugin}/beta-downloads.svg` });
    expect(downloads.snippets.map((snippet: any) => snippet.syntax)).toEqual(["HTML", "Markdown", "BBCode"]);
    expect(plugin.metrics.map((metric: any) => metric.metric)).not.toContain("gamma-stars");
    expect((await body(await get("/api/token/plugins", serverOnly, { tokenHeader: "X-Plugin-Token" }), 403)).error.code).toBe("wrong_scope");
  });

  test("networks: the token's only, each with its members and the total its banner shows", async () => {
    const listed = await body(await get("/api/token/networks", a.token));
    expect(listed.networks).toEqual([{
      slug: "hub",
      name: "Hub",
      servers: [
        { uuid: a.lobby, name: "Lobby", status: "online", players: { online: 4, max: 20 } },
        { uuid: a.survival, name: "Survival", status: "online", players: { online: 6, max: 30 } },
      ],
      total: { servers: 2, online: 2, players: { online: 10, max: 50 } },
      links: { page: "/n/hub", banner: "/api/banner?data_mode=network&network=hub" },
    }]);
    expect((await body(await get("/api/token/networks", b.token))).networks.map((network: any) => network.slug)).toEqual(["bee"]);
  });
});
