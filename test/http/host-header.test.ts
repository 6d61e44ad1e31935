// Routing follows the request's path whatever its Host header says. Bun gives
// a request a URL built from its Host: "http://x/metrics" for a short one,
// the path alone ("/metrics") when there is none (HTTP/1.0), when it is empty
// or not a host name; Elysia reads the path at a fixed offset of an absolute
// URL. Each route is asked over a real socket with a normal Host, then with
// short, empty, invalid and absent ones: every answer is the normal one, and
// a path with a route's path at its end (a proxy's rules never see) is a 404.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { RawClient, type RawRequest, type RawResponse } from "../support/raw-http.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { REFUSAL_LOG_BUDGET } from "../../src/http/observe.ts";
import { newUuid, signedRequest, type SignedCall } from "../support/signing.ts";

let server: TestServer;
let client: RawClient;
let token: string;
const SERVER = newUuid();
const PLUGIN = newUuid();

/** How a request names its host: the Host line, or none at all (HTTP/1.0 allows that). */
interface HostForm {
  label: string;
  host: string | null;
  version?: "1.0";
}

const NORMAL: HostForm = { label: "a normal Host", host: "pennant.example.org" };
const ODD_HOSTS: HostForm[] = [
  { label: "Host: x", host: "x" },
  { label: "Host: abc", host: "abc" },
  { label: "Host: x:1", host: "x:1" },
  { label: "an empty Host", host: "" },
  { label: "no Host (HTTP/1.0)", host: null, version: "1.0" },
  { label: "Host: a/b (not a host name)", host: "a/b" },
];

interface Probe {
  name: string;
  /** A fresh request each time (a signed push is signed anew: an exact resend is a replay). */
  request(): Promise<Omit<RawRequest, "host" | "version">>;
  /** Answers that change from one request to the next compare by status and type only. */
  volatile?: boolean;
}

function get(target: string): () => Promise<Omit<RawRequest, "host" | "version">> {
  return async () => ({ method: "GET", target, headers: [] });
}

/** A signed request as the plugin sends it, one second after the previous one. */
function signed(call: Omit<SignedCall, "token">): () => Promise<Omit<RawRequest, "host" | "version">> {
  return async () => {
    server.clock.now += 1000;
    const request = signedRequest(server.url, { ...call, token }, server.clock.now);
    const url = new URL(request.url);
    const body = request.method === "GET" ? undefined : new Uint8Array(await request.arrayBuffer());
    return { method: request.method, target: url.pathname + url.search, headers: [...request.headers.entries()], body };
  };
}

const PROBES: Probe[] = [
  { name: "GET /healthz", request: get("/healthz") },
  { name: "GET /metrics", request: get("/metrics"), volatile: true },
  { name: "GET /openapi.json", request: get("/openapi.json") },
  { name: "GET /docs", request: get("/docs") },
  { name: "GET /openapi", request: get("/openapi") },
  { name: "GET /openapi/json", request: get("/openapi/json") },
  { name: "GET /", request: get("/") },
  { name: "GET /designer/designer.css", request: get("/designer/designer.css") },
  { name: "GET /designer/designer.js", request: get("/designer/designer.js") },
  { name: "GET /api/templates", request: get("/api/templates") },
  { name: "GET /api/banner (a new query: Elysia's route)", request: get(`/api/banner?server_name=${newUuid()}`) },
  { name: "GET /api/banner (a known query: the hot path)", request: get("/api/banner?server_name=Known") },
  { name: "GET /api/banner with a slash in the query", request: get("/api/banner?server_name=a/b") },
  { name: "GET /api/banner of a pushed server", request: get(`/api/banner?server_uuid=${SERVER}`) },
  { name: "GET /api/lookup", request: get("/api/lookup?address=127.0.0.1") },
  { name: "GET /api/lookup with a slash in the query", request: get("/api/lookup?address=a/b") },
  { name: "GET /shields/servers/:server_uuid/:metric", request: get(`/shields/servers/${SERVER}/players.json`) },
  { name: "GET /shields/servers/:server_uuid/:metric (image)", request: get(`/shields/servers/${SERVER}/players.png?label=a/b`) },
  { name: "GET /shields/plugins/:plugin_uuid/:metric", request: get(`/shields/plugins/${PLUGIN}/version.json`) },
  { name: "GET /api/server/status", request: signed({ method: "GET", path: "/api/server/status", serverUuid: SERVER }) },
  { name: "POST /api/server/heartbeat", request: signed({ path: "/api/server/heartbeat", serverUuid: SERVER, body: { status: "online" } }) },
  { name: "POST /api/server/update", request: signed({ path: "/api/server/update", serverUuid: SERVER, body: { name: "Hosts", stats: { online: 3, max: 10 } } }) },
  {
    name: "POST /api/plugins/:plugin_uuid/data",
    request: signed({ path: `/api/plugins/${PLUGIN}/data`, tokenHeader: "X-Plugin-Token", body: { plugin: { name: "P", version: "1.2" } } }),
  },
  { name: "a wrong method (405)", request: async () => ({ method: "DELETE", target: "/api/server/update", headers: [] }) },
  { name: "an unknown path (404)", request: get("/no/such/path") },
];

/** Paths whose tail is a route's path: read from the wrong offset, they would reach it. */
const SHIFTED = ["/zzzz/metrics", "/zz/api/banner?server_name=A", "/zz/healthz", "/aaaaaa/metrics", "/a?b/metrics", "/zzzzzz/api/server/update"];

beforeAll(async () => {
  server = await startTestServer();
  client = new RawClient(Number(new URL(server.url).port));
  token = server.token();
  // Data for the status, banner and badges to show.
  for (const probe of PROBES.filter(({ name }) => name.startsWith("POST"))) await ask(probe, NORMAL);
  await ask(PROBES.find(({ name }) => name.includes("the hot path"))!, NORMAL);
});
afterAll(async () => {
  client.close();
  await server.close();
});

async function ask(probe: Probe, form: HostForm): Promise<RawResponse> {
  return client.exchange({ ...(await probe.request()), host: form.host, version: form.version }, 10_000);
}

/** What must not depend on the Host: status, type, cache validator and body (status and type for a volatile answer). */
function essence(response: RawResponse, volatile = false) {
  const type = response.headers.get("content-type");
  return {
    status: response.status,
    type,
    location: response.headers.get("location"),
    ...(volatile ? {} : { etag: response.headers.get("etag"), body: Buffer.from(response.body).toString("latin1") }),
  };
}

describe("the Host header does not move routing", () => {
  for (const form of ODD_HOSTS) {
    test(`with ${form.label}, every route answers as with a normal Host`, async () => {
      for (const probe of PROBES) {
        // The odd one first: a new banner query reaches Elysia's route with it.
        const odd = await ask(probe, form);
        const normal = await ask(probe, NORMAL);
        expect({ probe: probe.name, ...essence(odd, probe.volatile) }).toEqual({ probe: probe.name, ...essence(normal, probe.volatile) });
        expect({ probe: probe.name, status: normal.status }).not.toEqual({ probe: probe.name, status: 500 });
      }
    });
  }

  test("a route's path after a prefix is a 404 whatever the Host", async () => {
    for (const form of [NORMAL, ...ODD_HOSTS]) {
      for (const target of SHIFTED) {
        const response = await ask({ name: target, request: get(target) }, form);
        const body = JSON.parse(Buffer.from(response.body).toString("utf8"));
        expect({ host: form.label, target, status: response.status, code: body.error?.code }).toEqual({ host: form.label, target, status: 404, code: "not_found" });
      }
    }
  });

  test("a request with an odd Host is logged with its real path", async () => {
    server.clock.now += REFUSAL_LOG_BUDGET.windowSeconds * 1000; // the 404s above spent this client's log lines
    const before = server.logs().length;
    for (const form of ODD_HOSTS) await ask({ name: "unknown", request: get("/zzzz/metrics") }, form);
    const lines = () => server.logs().slice(before).filter((line) => line.status !== undefined);
    for (let waited = 0; waited < 2000 && lines().length < ODD_HOSTS.length; waited += 5) await Bun.sleep(5);
    expect(lines().map((line) => [line.route, line.status, line.path])).toEqual(ODD_HOSTS.map(() => ["unmatched", 404, "/zzzz/metrics"]));
  });
});
