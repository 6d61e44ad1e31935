// GET /openapi.json is generated from the routes. Checked here: every route
// the app registers is in it with its parameters, request body, responses and
// error shapes (a route added without a description fails the check); the
// signed routes' body is the very schema their pipeline checks; what the
// routes really answer (statuses, error codes, media types, JSON bodies) is
// what the document says.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import type { TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { PLUGIN_DATA } from "../../src/http/payloads/plugin.ts";
import { HEARTBEAT, UPDATE } from "../../src/http/payloads/server.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { json, newUuid, signedRequest, type SignedCall } from "../support/signing.ts";

type Json = any;

interface Route {
  method: string;
  path: string;
  hooks?: { query?: Json; body?: Json; detail?: Json };
}

const ERROR_STATUSES = ["400", "401", "403", "404", "413", "415", "429", "503"];

let server: TestServer;
let limited: TestServer;
let doc: Json;
beforeAll(async () => {
  server = await startTestServer();
  limited = await startTestServer({ PENNANT_RATE_LIMIT: "1/60" });
  const response = await fetch(`${server.url}/openapi.json`);
  expect(response.status).toBe(200);
  doc = await response.json();
});
afterAll(async () => {
  await server.close();
  await limited.close();
});

const openApiPath = (path: string) => path.replace(/:([^/]+)/g, "{$1}");
const mediaType = (header: string | null) => (header ?? "").split(";")[0]!.trim().toLowerCase();

/** What is missing from the document for these routes: one line per problem. */
function problems(routes: readonly Route[], document: Json): string[] {
  const found: string[] = [];
  const tags = new Set((document.tags ?? []).map((tag: Json) => tag.name));
  for (const route of routes) {
    const name = `${route.method} ${route.path}`;
    const operation = document.paths?.[openApiPath(route.path)]?.[route.method.toLowerCase()];
    if (!operation) {
      found.push(`${name}: not in the document`);
      continue;
    }
    if (!operation.summary) found.push(`${name}: no summary`);
    if (!operation.tags?.length || !operation.tags.every((tag: string) => tags.has(tag))) found.push(`${name}: no declared tag`);
    const parameters = (where: string) => (operation.parameters ?? []).filter((p: Json) => p.in === where).map((p: Json) => p.name).sort();
    const pathNames = [...route.path.matchAll(/:([^/]+)/g)].map((match) => match[1]).sort();
    if (JSON.stringify(parameters("path")) !== JSON.stringify(pathNames)) found.push(`${name}: path parameters ${parameters("path")} are not ${pathNames}`);
    const queryNames = Object.keys(route.hooks?.query?.properties ?? {}).sort();
    if (JSON.stringify(parameters("query")) !== JSON.stringify(queryNames)) found.push(`${name}: query parameters ${parameters("query")} are not ${queryNames}`);
    if (route.method === "POST" && !operation.requestBody?.content?.["application/json"]?.schema) found.push(`${name}: no JSON request body`);

    const responses = Object.entries<Json>(operation.responses ?? {});
    if (!responses.some(([status, response]) => /^[23]/.test(status) && response.description)) found.push(`${name}: no success response`);
    for (const [status, response] of responses) {
      const content = Object.entries<Json>(response.content ?? {});
      if (/^2/.test(status) && (content.length === 0 || content.some(([, media]) => !media.schema))) found.push(`${name} ${status}: no content schema`);
      if (/^[45]/.test(status)) {
        if (!ERROR_STATUSES.includes(status)) found.push(`${name} ${status}: not a status the service answers with`);
        const errorJson = response.content?.["application/json"]?.schema;
        const code = errorJson?.properties?.error?.properties?.code;
        const codes = code?.anyOf?.map((option: Json) => option.const) ?? (code?.const ? [code.const] : []);
        if (errorJson && (codes.length === 0 || !errorJson.properties.error.required?.includes("message"))) found.push(`${name} ${status}: not the error shape`);
        if (!errorJson && !response.content?.["image/png"] && !response.content?.["text/html"]) found.push(`${name} ${status}: neither the error shape, an image nor a page`);
      }
    }
  }
  return found;
}

describe("the document", () => {
  test("is OpenAPI 3.1 and describes every registered route: parameters, body, responses, error shapes", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info).toMatchObject({ title: "Pennant", version: expect.stringMatching(/^\d+\.\d+\.\d+$/) });
    const routes = server.app.routes as readonly Route[];
    expect(routes.length).toBeGreaterThanOrEqual(15);
    expect(problems(routes, doc)).toEqual([]);
    const operations = Object.values<Json>(doc.paths).flatMap((item) => Object.keys(item));
    expect(operations.length).toBe(routes.length);
  });

  test("a route added without a description fails the check", async () => {
    const other = await startTestServer();
    try {
      other.app.get("/api/undescribed/:id", () => "x");
      other.app.post("/api/undescribed", () => "x", { detail: { summary: "said, but nothing else", tags: ["service"] } });
      const document = await (await other.app.handle(new Request("http://localhost/openapi.json"))).json();
      expect(problems(other.app.routes as readonly Route[], document)).toEqual([
        "GET /api/undescribed/:id: no summary",
        "GET /api/undescribed/:id: no declared tag",
        "GET /api/undescribed/:id: no success response",
        "POST /api/undescribed: no JSON request body",
        "POST /api/undescribed: no success response",
      ]);
    } finally {
      await other.close();
    }
  });

  test("the signed routes require their headers, the plugin route X-Plugin-Token, webhooks and networks X-Signature-Version", () => {
    const required = (path: string, method: string) =>
      doc.paths[path][method].parameters.filter((p: Json) => p.in === "header" && p.required).map((p: Json) => p.name).sort();
    const server = ["x-server-token", "x-server-uuid", "x-signature", "x-timestamp"];
    expect(required("/api/server/heartbeat", "post")).toEqual(server);
    expect(required("/api/server/update", "post")).toEqual(server);
    expect(required("/api/server/status", "get")).toEqual(server);
    expect(required("/api/plugins/{plugin_uuid}/data", "post")).toEqual(["x-plugin-token", "x-signature", "x-timestamp"]);
    // Routes that take only a signature over method and path require the header that names it (issue 38).
    const overRoute = ["x-server-token", "x-server-uuid", "x-signature", "x-signature-version", "x-timestamp"];
    for (const method of ["post", "get"]) expect(required("/api/server/webhooks", method)).toEqual(overRoute);
    expect(required("/api/server/webhooks/{id}", "delete")).toEqual(overRoute);
    for (const method of ["put", "delete"]) expect(required("/api/networks/{slug}", method)).toEqual(overRoute.filter((name) => name !== "x-server-uuid"));
  });

  test("the old addresses redirect: /openapi to /docs, /openapi/json to /openapi.json", async () => {
    for (const [from, to] of [["/openapi", "/docs"], ["/openapi/json", "/openapi.json"]]) {
      const response = await fetch(`${server.url}${from}`, { redirect: "manual" });
      expect([from, response.status, response.headers.get("location")]).toEqual([from, 301, to]);
      await expectDocumented(["GET", from!], response);
      const followed = await fetch(`${server.url}${from}`);
      expect([from, followed.status]).toEqual([from, 200]);
    }
  });

  test("a signed route's body in the document is the schema its pipeline checks", () => {
    const routes = server.app.routes as readonly Route[];
    const bodyOf = (path: string) => routes.find((route) => route.method === "POST" && route.path === path)!.hooks!.body;
    expect(bodyOf("/api/server/heartbeat")).toBe(HEARTBEAT.schema);
    expect(bodyOf("/api/server/update")).toBe(UPDATE.schema);
    expect(bodyOf("/api/plugins/:plugin_uuid/data")).toBe(PLUGIN_DATA.schema);
    const documented = doc.paths["/api/server/update"].post.requestBody.content["application/json"].schema;
    expect(documented).toEqual(JSON.parse(JSON.stringify(UPDATE.schema)));
    expect(documented.anyOf.map((variant: Json) => [variant.title, variant.additionalProperties])).toEqual([
      ["ServerUpdate", true],
      ["LegacyServerUpdate", true],
    ]);
    expect(documented.anyOf[0].properties.stats.anyOf[0].properties.players.anyOf[0].properties.online.anyOf[0]).toMatchObject({
      type: "integer",
      minimum: 0,
      maximum: 1_000_000_000,
    });
  });
});

/** The route a request reached, and its TypeBox schema for an answer (status, media type). */
function documentedSchema(method: string, path: string, status: number, type: string): TSchema | undefined {
  const route = (server.app.routes as readonly Route[]).find((candidate) => candidate.method === method && candidate.path === path)!;
  const content = route.hooks?.detail?.responses?.[status]?.content ?? {};
  const key = Object.keys(content).find((candidate) => mediaType(candidate) === type);
  return key === undefined ? undefined : content[key].schema;
}

interface Probe {
  label: string;
  route: [method: string, path: string];
  request: () => Promise<Response>;
  status: number;
}

function signed(call: Omit<SignedCall, "token"> & { token?: string }, target = server): Promise<Response> {
  return fetch(signedRequest(target.url, { token: call.token ?? target.token(), ...call }, target.clock.now));
}

describe("what the routes answer is what the document says", () => {
  const uuid = newUuid();
  const plugin = newUuid();
  const update = { name: "Doc", status: "online", stats: { players: { online: 2, max: 9 }, tps: 20, motd: "§aHi", version: "1.21.4" } };
  const get = (path: string, headers: Record<string, string> = {}, on: "server" | "limited" = "server") => () =>
    fetch((on === "server" ? server : limited).url + path, { headers });
  // The push and the status read share a token: made on first use (the server starts in beforeAll).
  let ownerToken: string | undefined;
  const owner = () => (ownerToken ??= server.token());
  /** The server `uuid`, pushed once by owner() (the page probes may run alone). */
  let pushedOnce: Promise<Response> | undefined;
  const owned = () => (pushedOnce ??= signed({ path: "/api/server/update", serverUuid: uuid, body: update, token: owner() }));

  const probes: Probe[] = [
    { label: "a push", route: ["POST", "/api/server/update"], status: 200, request: () => owned() },
    { label: "a heartbeat", route: ["POST", "/api/server/heartbeat"], status: 200, request: () => signed({ path: "/api/server/heartbeat", serverUuid: newUuid(), body: {} }) },
    { label: "plugin data", route: ["POST", "/api/plugins/:plugin_uuid/data"], status: 200, request: () => signed({ path: `/api/plugins/${plugin}/data`, tokenHeader: "X-Plugin-Token", body: { plugin: { name: "P", version: "1.0" } } }) },
    { label: "no headers", route: ["POST", "/api/server/update"], status: 401, request: () => fetch(`${server.url}/api/server/update`, { method: "POST", headers: { "Content-Type": "application/json", "X-Server-UUID": newUuid() }, body: "{}" }) },
    { label: "a bad signature", route: ["POST", "/api/server/heartbeat"], status: 401, request: () => signed({ path: "/api/server/heartbeat", serverUuid: newUuid(), body: {}, signature: "ab".repeat(32) }) },
    { label: "a bad server UUID", route: ["POST", "/api/server/update"], status: 400, request: () => signed({ path: "/api/server/update", serverUuid: "nope", body: update }) },
    { label: "invalid JSON", route: ["POST", "/api/server/update"], status: 400, request: () => signed({ path: "/api/server/update", serverUuid: newUuid(), body: "{oops" }) },
    { label: "a body out of bounds", route: ["POST", "/api/server/update"], status: 400, request: () => signed({ path: "/api/server/update", serverUuid: newUuid(), body: { stats: { tps: -1 } } }) },
    { label: "text/plain", route: ["POST", "/api/server/update"], status: 415, request: () => signed({ path: "/api/server/update", serverUuid: newUuid(), body: update, headers: { "Content-Type": "text/plain" } }) },
    { label: "a body over the limit", route: ["POST", "/api/server/heartbeat"], status: 413, request: () => signed({ path: "/api/server/heartbeat", serverUuid: newUuid(), body: { name: "x".repeat(70_000) } }) },
    { label: "a plugin token on a server route", route: ["POST", "/api/server/update"], status: 403, request: () => signed({ path: "/api/server/update", serverUuid: newUuid(), body: update, token: server.token("plugin") }) },
    { label: "a bad plugin UUID", route: ["POST", "/api/plugins/:plugin_uuid/data"], status: 400, request: () => signed({ path: "/api/plugins/nope/data", tokenHeader: "X-Plugin-Token", body: {} }) },
    { label: "the status read", route: ["GET", "/api/server/status"], status: 200, request: () => signed({ method: "GET", path: "/api/server/status", serverUuid: uuid, token: owner() }) },
    { label: "an unknown server's status", route: ["GET", "/api/server/status"], status: 404, request: () => signed({ method: "GET", path: "/api/server/status", serverUuid: newUuid() }) },
    { label: "a lookup", route: ["GET", "/api/lookup"], status: 200, request: get("/api/lookup?address=127.0.0.1") },
    { label: "a lookup without an address", route: ["GET", "/api/lookup"], status: 400, request: get("/api/lookup") },
    { label: "a lookup over the budget", route: ["GET", "/api/lookup"], status: 429, request: async () => (await get("/api/lookup?address=127.0.0.1", {}, "limited")(), get("/api/lookup?address=127.0.0.1", {}, "limited")()) },
    { label: "a banner", route: ["GET", "/api/banner"], status: 200, request: get("/api/banner?format=webp") },
    { label: "a banner's 304", route: ["GET", "/api/banner"], status: 304, request: async () => get("/api/banner", { "If-None-Match": (await get("/api/banner")()).headers.get("etag")! })() },
    { label: "a bad banner query", route: ["GET", "/api/banner"], status: 400, request: get("/api/banner?theme=blue") },
    { label: "a bad banner query for an <img>", route: ["GET", "/api/banner"], status: 400, request: get("/api/banner?theme=blue", { Accept: "image/png" }) },
    { label: "the templates", route: ["GET", "/api/templates"], status: 200, request: get("/api/templates") },
    { label: "a server badge", route: ["GET", "/shields/servers/:server_uuid/:metric"], status: 200, request: get(`/shields/servers/${uuid}/players.png`) },
    { label: "a server badge's JSON", route: ["GET", "/shields/servers/:server_uuid/:metric"], status: 200, request: get(`/shields/servers/${uuid}/players.json?style=plastic&labelColor=blue`) },
    { label: "an unknown plugin's badge", route: ["GET", "/shields/plugins/:plugin_uuid/:metric"], status: 404, request: get(`/shields/plugins/${newUuid()}/version.png`) },
    { label: "an unknown plugin's badge JSON", route: ["GET", "/shields/plugins/:plugin_uuid/:metric"], status: 404, request: get(`/shields/plugins/${newUuid()}/version.json`) },
    {
      label: "a badge draw over the budget",
      route: ["GET", "/shields/servers/:server_uuid/:metric"],
      status: 429,
      request: async () => {
        const pushed = newUuid();
        expect((await signed({ path: "/api/server/heartbeat", serverUuid: pushed, body: { name: "L" } }, limited)).status).toBe(200);
        await get(`/shields/servers/${pushed}/status.png?label=a`, {}, "limited")();
        return get(`/shields/servers/${pushed}/status.png?label=b`, {}, "limited")();
      },
    },
    { label: "a server's page", route: ["GET", "/s/:server_uuid"], status: 200, request: async () => (await owned(), get(`/s/${uuid}`)()) },
    { label: "a server's page's 304", route: ["GET", "/s/:server_uuid"], status: 304, request: async () => get(`/s/${uuid}`, { "If-None-Match": (await (await owned(), get(`/s/${uuid}`))()).headers.get("etag")! })() },
    { label: "a page that is not there", route: ["GET", "/s/:server_uuid"], status: 404, request: get(`/s/${newUuid()}`) },
    { label: "a page of an unknown range", route: ["GET", "/s/:server_uuid"], status: 400, request: async () => (await owned(), get(`/s/${uuid}?range=2w`)()) },
    { label: "a page over the budget", route: ["GET", "/s/:server_uuid"], status: 429, request: async () => (await get(`/s/${newUuid()}`, {}, "limited")(), get(`/s/${newUuid()}`, {}, "limited")()) },
    { label: "a widget", route: ["GET", "/s/:server_uuid/widget"], status: 200, request: async () => (await owned(), get(`/s/${uuid}/widget`)()) },
    { label: "a chart's SVG", route: ["GET", "/s/:server_uuid/chart.svg"], status: 200, request: async () => (await owned(), get(`/s/${uuid}/chart.svg`)()) },
    { label: "a chart's PNG", route: ["GET", "/s/:server_uuid/chart.png"], status: 200, request: async () => (await owned(), get(`/s/${uuid}/chart.png?theme=dark`)()) },
    { label: "a chart of no page, for an <img>", route: ["GET", "/s/:server_uuid/chart.png"], status: 404, request: get(`/s/${newUuid()}/chart.png`, { Accept: "image/png" }) },
    { label: "a chart of no page", route: ["GET", "/s/:server_uuid/chart.svg"], status: 404, request: get(`/s/${newUuid()}/chart.svg`) },
    { label: "a card", route: ["GET", "/s/:server_uuid/og.png"], status: 200, request: async () => (await owned(), get(`/s/${uuid}/og.png`)()) },
    { label: "a network's page", route: ["GET", "/n/:slug"], status: 404, request: get("/n/none") },
    { label: "the pages' stylesheet", route: ["GET", "/page/page.css"], status: 200, request: get("/page/page.css") },
    { label: "the pages' script", route: ["GET", "/page/page.js"], status: 200, request: get("/page/page.js") },
    { label: "a page switch", route: ["PUT", "/api/server/page"], status: 200, request: async () => (await owned(), signed({ method: "PUT", path: "/api/server/page", serverUuid: uuid, body: { enabled: true }, token: owner() })) },
    { label: "a page switch of another's server", route: ["PUT", "/api/server/page"], status: 404, request: () => signed({ method: "PUT", path: "/api/server/page", serverUuid: newUuid(), body: { enabled: false } }) },
    { label: "a page switch that is no switch", route: ["PUT", "/api/server/page"], status: 400, request: () => signed({ method: "PUT", path: "/api/server/page", serverUuid: newUuid(), body: { enabled: "off" } }) },
    { label: "the token's servers", route: ["GET", "/api/token/servers"], status: 200, request: async () => (await owned(), signed({ method: "GET", path: "/api/token/servers", token: owner() })) },
    { label: "a token's server", route: ["GET", "/api/token/servers/:server_uuid"], status: 200, request: async () => (await owned(), signed({ method: "GET", path: `/api/token/servers/${uuid}`, token: owner() })) },
    { label: "another token's server", route: ["GET", "/api/token/servers/:server_uuid"], status: 404, request: async () => (await owned(), signed({ method: "GET", path: `/api/token/servers/${uuid}` })) },
    { label: "a token's server's chart", route: ["GET", "/api/token/servers/:server_uuid/chart.svg"], status: 200, request: async () => (await owned(), signed({ method: "GET", path: `/api/token/servers/${uuid}/chart.svg?size=small`, token: owner() })) },
    { label: "a chart of a bad range", route: ["GET", "/api/token/servers/:server_uuid/chart.svg"], status: 400, request: () => signed({ method: "GET", path: `/api/token/servers/${uuid}/chart.svg?range=2w`, token: owner() }) },
    { label: "the token's plugins", route: ["GET", "/api/token/plugins"], status: 200, request: () => signed({ method: "GET", path: "/api/token/plugins", tokenHeader: "X-Plugin-Token", token: owner() }) },
    { label: "the token's networks", route: ["GET", "/api/token/networks"], status: 200, request: () => signed({ method: "GET", path: "/api/token/networks", token: owner() }) },
    { label: "a test delivery of no server", route: ["POST", "/api/server/webhooks/:id/test"], status: 404, request: () => signed({ path: `/api/server/webhooks/${newUuid()}/test`, serverUuid: newUuid(), body: {} }) },
    { label: "the console", route: ["GET", "/console"], status: 200, request: get("/console") },
    { label: "the console's script", route: ["GET", "/console/console.js"], status: 200, request: get("/console/console.js") },
    { label: "health", route: ["GET", "/healthz"], status: 200, request: get("/healthz") },
    { label: "metrics", route: ["GET", "/metrics"], status: 200, request: get("/metrics") },
    { label: "metrics through a proxy", route: ["GET", "/metrics"], status: 403, request: get("/metrics", { "X-Forwarded-For": "203.0.113.9" }) },
    { label: "this document", route: ["GET", "/openapi.json"], status: 200, request: get("/openapi.json") },
    { label: "the docs page", route: ["GET", "/docs"], status: 200, request: get("/docs") },
  ];

  for (const probe of probes) {
    test(`${probe.label}: ${probe.route.join(" ")} ${probe.status}`, async () => {
      const response = await probe.request();
      expect(response.status).toBe(probe.status);
      await expectDocumented(probe.route, response);
    });
  }

  test("serving requests changes no schema: a document generated now is the one generated before any request", async () => {
    const later = await startTestServer();
    try {
      expect(await (await fetch(`${later.url}/openapi.json`)).json()).toEqual(doc);
    } finally {
      await later.close();
    }
  });

  test("a locked database: a push and /healthz answer 503 as documented", async () => {
    const token = server.token();
    const lock = new Database(server.dbPath);
    lock.run("BEGIN EXCLUSIVE");
    try {
      const push = await signed({ path: "/api/server/update", serverUuid: newUuid(), body: update, token });
      expect(push.status).toBe(503);
      await expectDocumented(["POST", "/api/server/update"], push);
    } finally {
      lock.run("ROLLBACK");
      lock.close();
    }
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(503);
    await expectDocumented(["GET", "/healthz"], health);
  });
});

/** The answer's status and media type are documented for its route, and its JSON fits the documented schema. */
async function expectDocumented([method, path]: [string, string], response: Response): Promise<void> {
  const operation = doc.paths[openApiPath(path)][method.toLowerCase()];
  const documented = operation.responses[String(response.status)];
  expect([method, path, response.status, documented !== undefined]).toEqual([method, path, response.status, true]);
  if (response.status === 304 || response.status === 301) {
    expect(documented.content).toBeUndefined();
    return;
  }
  const type = mediaType(response.headers.get("content-type"));
  expect([response.status, Object.keys(documented.content).map(mediaType)]).toEqual([response.status, expect.arrayContaining([type])]);
  if (type !== "application/json") return;
  const body = await json(response);
  const schema = documentedSchema(method, path, response.status, type)!;
  expect([response.status, body, Value.Check(schema, body)]).toEqual([response.status, body, true]);
}
