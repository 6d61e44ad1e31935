// One JSON log line per request, found by the X-Request-Id every answer
// carries: what it holds, at which level, what it never holds (tokens,
// signatures, bodies), and that a client cannot make the log grow without end.

import { afterEach, describe, expect, test } from "bun:test";
import { connect } from "node:net";
import { REFUSAL_LOG_BUDGET } from "../../src/http/observe.ts";
import { MAX_FIELD_CHARS } from "../../src/log.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { newUuid, signedRequest } from "../support/signing.ts";

let server: TestServer;
afterEach(async () => {
  await server?.close();
});

/** The line of one request: written just after its answer, so waited for (a safety bound, not a speed test). */
async function lineOf(response: Response): Promise<Record<string, any>> {
  const id = response.headers.get("x-request-id");
  expect(id).toBeTruthy();
  for (let waited = 0; waited < 2000; waited += 5) {
    const line = server.logs().find((entry) => entry.request_id === id && entry.status !== undefined);
    if (line) return line;
    await Bun.sleep(5);
  }
  throw new Error(`no log line for request ${id}`);
}

/** Whether a request's line was written, once a later request's line is there (lines come in order). */
async function wasLogged(response: Response): Promise<boolean> {
  const id = response.headers.get("x-request-id");
  await lineOf(await fetch(`${server.url}/no-such-path-marker`, { method: "POST" }));
  return server.logs().some((entry) => entry.request_id === id);
}

const UUID = "0b7e3c8e-1d2f-4a5b-9c6d-7e8f9a0b1c2d";
const SECRET_BODY = { name: "Body-Text-Never-Logged", stats: { motd: "motd-never-logged" } };

function update(token: string, extra: { signature?: string; serverUuid?: string } = {}): Promise<Response> {
  return fetch(signedRequest(server.url, { path: "/api/server/update", token, serverUuid: UUID, body: SECRET_BODY, ...extra }, server.clock.now));
}

describe("request log", () => {
  test("an accepted push: info, route, status, duration, client, server UUID; no token, signature or body", async () => {
    server = await startTestServer();
    const token = server.token();
    const response = await update(token);
    expect(response.status).toBe(200);
    const line = await lineOf(response);
    expect(line).toMatchObject({
      level: "info",
      msg: "POST /api/server/update 200",
      method: "POST",
      route: "/api/server/update",
      status: 200,
      client: "127.0.0.1",
      uuid: UUID,
    });
    expect(typeof line.ms).toBe("number");
    expect(Date.parse(line.time)).toBeGreaterThan(0);
    const text = JSON.stringify(server.logs());
    for (const secret of [token, "Body-Text-Never-Logged", "motd-never-logged", response.headers.get("x-signature") ?? token]) {
      expect(text).not.toContain(secret);
    }
  });

  test("a refused push is a warning naming the error code, never the signature it carried", async () => {
    server = await startTestServer();
    const token = server.token();
    const signature = "ab".repeat(32);
    const response = await update(token, { signature });
    expect(response.status).toBe(401);
    const line = await lineOf(response);
    expect(line).toMatchObject({ level: "warn", route: "/api/server/update", status: 401, code: "bad_signature", uuid: UUID });
    const text = JSON.stringify(server.logs());
    expect(text).not.toContain(signature);
    expect(text).not.toContain(token);
  });

  test("plugin pushes are logged by route template and plugin UUID, never the raw path", async () => {
    server = await startTestServer();
    const token = server.token();
    const plugin = newUuid();
    const response = await fetch(
      signedRequest(server.url, { path: `/api/plugins/${plugin}/data`, token, tokenHeader: "X-Plugin-Token", body: { plugin: { name: "P" } } }, server.clock.now),
    );
    expect(response.status).toBe(200);
    expect(await lineOf(response)).toMatchObject({ level: "info", route: "/api/plugins/:plugin_uuid/data", uuid: plugin });
    expect((await lineOf(response)).path).toBeUndefined();
  });

  test("successful reads are debug lines: not written at the default level, written at debug", async () => {
    server = await startTestServer();
    expect(await wasLogged(await fetch(`${server.url}/healthz`))).toBe(false);
    await server.close();
    server = await startTestServer({ PENNANT_LOG_LEVEL: "debug" });
    expect(await lineOf(await fetch(`${server.url}/healthz`))).toMatchObject({ level: "debug", route: "/healthz", status: 200 });
  });

  test("PENNANT_LOG_LEVEL=warn keeps refusals and drops accepted pushes", async () => {
    server = await startTestServer({ PENNANT_LOG_LEVEL: "warn" });
    const token = server.token();
    expect(await wasLogged(await update(token))).toBe(false);
    expect((await lineOf(await update(token, { signature: "00".repeat(32) }))).level).toBe("warn");
  });

  test("an unknown path is logged with its path cut short and route 'unmatched'; a wrong method with the route", async () => {
    server = await startTestServer();
    const long = `/wp-login.php/${"a".repeat(5000)}`;
    const line = await lineOf(await fetch(`${server.url}${long}?q=${"b".repeat(3000)}`));
    expect(line).toMatchObject({ level: "info", route: "unmatched", status: 404, code: "not_found" });
    expect(line.path.startsWith("/wp-login.php/aaa")).toBe(true);
    expect(line.path.length).toBeLessThanOrEqual(128);
    expect(JSON.stringify(line).length).toBeLessThan(1000);
    expect(await lineOf(await fetch(`${server.url}/api/server/update`))).toMatchObject({ route: "/api/server/update", status: 405 });
  });

  test("a 413 refused before any route runs is logged and counted too", async () => {
    server = await startTestServer();
    const response = await fetch(`${server.url}/api/server/update`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Server-UUID": UUID },
      body: "x".repeat(300_000),
    });
    expect(response.status).toBe(413);
    expect(await lineOf(response)).toMatchObject({ status: 413, code: "payload_too_large", route: "/api/server/update" });
  });

  test("every answer carries a fresh request id; one from the client counts only behind a trusted proxy", async () => {
    server = await startTestServer();
    const ids = new Set<string>();
    for (const path of ["/healthz", "/nowhere", "/api/lookup"]) {
      const response = await fetch(`${server.url}${path}`, { headers: { "X-Request-Id": "client-chosen" } });
      ids.add(response.headers.get("x-request-id")!);
    }
    expect(ids.size).toBe(3);
    expect(ids.has("client-chosen")).toBe(false);
    await server.close();

    server = await startTestServer({ PENNANT_TRUST_PROXY: "on" });
    const forwarded = await fetch(`${server.url}/nowhere`, { headers: { "X-Request-Id": "nginx-7f3a9c" } });
    expect(forwarded.headers.get("x-request-id")).toBe("nginx-7f3a9c");
    const hostile = await fetch(`${server.url}/nowhere`, { headers: { "X-Request-Id": `bad id ${"x".repeat(100)}` } });
    expect(hostile.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  test("every kind of answer carries one request id, the one of its log line: images, 304s, HEAD, JSON, pages, refusals", async () => {
    server = await startTestServer({ PENNANT_LOG_LEVEL: "debug", PENNANT_RATE_LIMIT: "2/60" });
    const banner = `${server.url}/api/banner?server_name=Ids`;
    const first = await fetch(banner);
    const etag = first.headers.get("etag")!;
    const answers: Array<[string, Response]> = [
      ["an image (a Response from the route)", first],
      ["a 304", await fetch(banner, { headers: { "If-None-Match": etag } })],
      ["a 429 (the budget of 2 is spent)", await fetch(banner)],
      ["HEAD", await fetch(`${server.url}/api/templates`, { method: "HEAD" })],
      ["JSON from an object", await fetch(`${server.url}/api/templates`)],
      ["the API page (a static Response)", await fetch(`${server.url}/openapi`)],
      ["a 404", await fetch(`${server.url}/nowhere`)],
      ["a 405", await fetch(`${server.url}/api/server/update`)],
      ["a 413 before any route", await fetch(`${server.url}/api/server/update`, { method: "POST", body: "x".repeat(300_000) })],
    ];
    expect(first.status).toBe(200);
    expect(answers.map(([, response]) => response.status)).toEqual([200, 304, 429, 200, 200, 200, 404, 405, 413]);
    const ids = new Set<string>();
    for (const [what, response] of answers) {
      const id = response.headers.get("x-request-id");
      expect({ what, id }).toEqual({ what, id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
      ids.add(id!);
      if (response.status !== 304 && response.status !== 429 && response.headers.get("content-length") !== null) await response.arrayBuffer();
    }
    expect(ids.size).toBe(answers.length);
    // The API page is one Response kept for every request: each answer still has its own single id.
    const again = (await fetch(`${server.url}/openapi`)).headers.get("x-request-id");
    expect(again).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids.has(again!)).toBe(false);
    for (const [what, response] of answers) expect({ what, logged: (await lineOf(response)).status }).toEqual({ what, logged: response.status });
  });

  test("request ids are unique across many requests and across apps", async () => {
    server = await startTestServer();
    const ids = new Set<string>();
    for (let i = 0; i < 200; i++) ids.add((await fetch(`${server.url}/healthz`)).headers.get("x-request-id")!);
    expect(ids.size).toBe(200);
    const other = await startTestServer();
    try {
      const theirs = (await fetch(`${other.url}/healthz`)).headers.get("x-request-id")!;
      expect(ids.has(theirs)).toBe(false);
      expect(theirs.slice(0, 24)).not.toBe([...ids][0]!.slice(0, 24));
    } finally {
      await other.close();
    }
  });

  test("client addresses follow PENNANT_TRUST_PROXY and are left out with PENNANT_LOG_CLIENT_IP=off", async () => {
    server = await startTestServer({ PENNANT_TRUST_PROXY: "on" });
    const viaProxy = await fetch(`${server.url}/nowhere`, { headers: { "X-Forwarded-For": "198.51.100.7" } });
    expect((await lineOf(viaProxy)).client).toBe("198.51.100.7");
    await server.close();

    server = await startTestServer({ PENNANT_LOG_CLIENT_IP: "off" });
    const line = await lineOf(await fetch(`${server.url}/nowhere`));
    expect(line.client).toBeUndefined();
    expect(JSON.stringify(server.logs())).not.toContain("127.0.0.1");
  });

  test("a client sending bad requests without end gets a bounded number of lines per window", async () => {
    server = await startTestServer();
    const sent = REFUSAL_LOG_BUDGET.perClient * 3;
    for (let i = 0; i < sent; i++) await fetch(`${server.url}/nowhere-${i}`);
    await Bun.sleep(50);
    const refusals = server.logs().filter((line) => line.status === 404);
    expect(refusals.length).toBe(REFUSAL_LOG_BUDGET.perClient);
    expect(refusals.at(-1)!.note).toMatch(/further refused requests from this client are not logged for \d+ s/);
    // Another client still gets its lines.
    await server.close();
    server = await startTestServer({ PENNANT_TRUST_PROXY: "on" });
    for (let i = 0; i < sent; i++) await fetch(`${server.url}/x`, { headers: { "X-Forwarded-For": "198.51.100.1" } });
    expect((await lineOf(await fetch(`${server.url}/x`, { headers: { "X-Forwarded-For": "198.51.100.2" } }))).client).toBe("198.51.100.2");
    // And the window ends: the first client is heard again.
    server.clock.now += REFUSAL_LOG_BUDGET.windowSeconds * 1000;
    expect((await lineOf(await fetch(`${server.url}/x`, { headers: { "X-Forwarded-For": "198.51.100.1" } }))).client).toBe("198.51.100.1");
  });

  test("past its budget, a client's first refusal with each other error code is still logged, once", async () => {
    server = await startTestServer({ PENNANT_TRUST_PROXY: "on" });
    const from = (ip: string) => ({ headers: { "X-Forwarded-For": ip } });
    const plugin = "198.51.100.7";
    for (let i = 0; i < REFUSAL_LOG_BUDGET.perClient * 2; i++) await fetch(`${server.url}/nowhere-${i}`, from(plugin));
    // A plugin whose pushes were refused for one reason now meets another: both the
    // first 405 and the first bad signature are in the log, their repeats are not.
    const wrongMethod = () => fetch(`${server.url}/api/server/update`, from(plugin));
    const badSignature = () =>
      fetch(signedRequest(server.url, { path: "/api/server/update", token: server.token(), serverUuid: UUID, body: {}, signature: "00".repeat(32), headers: { "X-Forwarded-For": plugin } }, server.clock.now));
    const firstWrongMethod = await wrongMethod();
    expect(firstWrongMethod.status).toBe(405);
    expect(await lineOf(firstWrongMethod)).toMatchObject({ client: plugin, code: "method_not_allowed", note: expect.stringMatching(/^the first with this error code; others from this client are not logged for \d+ s$/) });
    expect(await wasLogged(await wrongMethod())).toBe(false);
    const firstBadSignature = await badSignature();
    expect(firstBadSignature.status).toBe(401);
    expect(await lineOf(firstBadSignature)).toMatchObject({ client: plugin, code: "bad_signature" });
    expect(await wasLogged(await badSignature())).toBe(false);
    expect(await wasLogged(await fetch(`${server.url}/nowhere-again`, from(plugin)))).toBe(false);
    const lines = server.logs().filter((line) => line.client === plugin);
    expect(lines.length).toBe(REFUSAL_LOG_BUDGET.perClient + 2);
    expect(lines[REFUSAL_LOG_BUDGET.perClient - 1]!.note).toMatch(/further refused requests from this client are not logged for \d+ s, except the first with each other error code/);
  });

  test("lines held back are counted exactly: the next window starts with a line saying how many, as /metrics does", async () => {
    server = await startTestServer({ PENNANT_TRUST_PROXY: "on" });
    const flooder = { headers: { "X-Forwarded-For": "203.0.113.9" } };
    const sent = REFUSAL_LOG_BUDGET.perClient + 30;
    for (let i = 0; i < sent; i++) await fetch(`${server.url}/nowhere-${i}`, flooder);
    await lineOf(await fetch(`${server.url}/marker`)); // another client's line: every line before it is written
    const windowStart = server.clock.now;
    server.clock.now += REFUSAL_LOG_BUDGET.windowSeconds * 1000;
    const next = await fetch(`${server.url}/nowhere`, flooder);
    await lineOf(next);
    const summary = server.logs().find((line) => line.count !== undefined);
    expect(summary).toMatchObject({
      level: "warn",
      msg: "30 refused requests were not logged",
      count: 30,
      from: new Date(windowStart).toISOString(),
      to: new Date(windowStart + REFUSAL_LOG_BUDGET.windowSeconds * 1000).toISOString(),
    });
    // Written just before the line of the refusal that began the new window.
    const lines = server.logs();
    expect(lines[lines.findIndex((line) => line.count !== undefined) + 1]!.request_id).toBe(next.headers.get("x-request-id"));
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toMatch(/^pennant_log_lines_suppressed_total 30$/m);
  });

  test("refusals from many addresses get a bounded number of lines in all, each line bounded", async () => {
    server = await startTestServer({ PENNANT_TRUST_PROXY: "on" });
    const extra = 50;
    const addresses = Array.from({ length: REFUSAL_LOG_BUDGET.total + extra }, (_, i) => `10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`);
    const longPath = `/wp-admin/${"a".repeat(2000)}`;
    // Each address's first refusal, in waves of 20 at once.
    for (let wave = 0; wave < addresses.length; wave += 20) {
      await Promise.all(addresses.slice(wave, wave + 20).map((ip) => fetch(`${server.url}${longPath}`, { headers: { "X-Forwarded-For": ip } })));
    }
    // A line is decided just after its answer, when the request is counted in /metrics: wait until all are.
    const counted = `pennant_http_requests_total{method="GET",route="unmatched",status="404"} ${addresses.length}`;
    for (let waited = 0; waited < 5000 && !(await (await fetch(`${server.url}/metrics`)).text()).includes(counted); waited += 10) await Bun.sleep(10);
    const written = server.logs().filter((line) => line.status === 404);
    expect(written.length).toBe(REFUSAL_LOG_BUDGET.total);
    expect(written.at(-1)!.note).toMatch(/^further refused requests from any client are not logged for \d+ s$/);
    const longest = Math.max(...written.map((line) => JSON.stringify(line).length));
    expect(longest).toBeLessThan(1024);
    // Yet nothing is lost from sight: the next window begins with how many were not written.
    server.clock.now += REFUSAL_LOG_BUDGET.windowSeconds * 1000;
    await lineOf(await fetch(`${server.url}/nowhere`));
    expect(server.logs().find((line) => line.count !== undefined)).toMatchObject({ count: extra });
  });

  test("a client that hangs up mid-body is a debug line, status 499", async () => {
    server = await startTestServer({ PENNANT_LOG_LEVEL: "debug" });
    const { port } = new URL(server.url);
    await new Promise<void>((resolve) => {
      const socket = connect(Number(port), "127.0.0.1", () => {
        socket.write(
          `POST /api/server/update HTTP/1.1\r\nHost: p\r\nContent-Type: application/json\r\nX-Server-UUID: ${UUID}\r\nContent-Length: 1000\r\n\r\n{"na`,
        );
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 50);
      });
    });
    for (let waited = 0; waited < 2000 && !server.logs().some((line) => line.status === 499); waited += 5) await Bun.sleep(5);
    const line = server.logs().find((entry) => entry.route === "/api/server/update");
    expect(line).toMatchObject({ level: "debug", status: 499 });
    expect(server.logs().some((entry) => entry.level === "error" || entry.level === "warn")).toBe(false);
  });

  test("an unexpected failure is one error line with the request id and a bounded stack; the client sees a plain 500", async () => {
    server = await startTestServer();
    // A database that lost a table: nothing a check foresees.
    server.db.$client.run("DROP TABLE servers");
    const response = await update(server.token());
    expect(response.status).toBe(500);
    expect(await response.text()).toBe('{"error":{"code":"internal","message":"internal server error"}}');
    const id = response.headers.get("x-request-id");
    await lineOf(response);
    const failure = server.logs().find((line) => line.msg === "unexpected error");
    expect(failure).toMatchObject({ level: "error", request_id: id });
    expect(failure!.error).toContain("no such table");
    expect(failure!.stack.length).toBeLessThanOrEqual(4096);
    expect(failure!.error.length).toBeLessThanOrEqual(MAX_FIELD_CHARS);
    expect(await lineOf(response)).toMatchObject({ level: "error", status: 500, code: "internal" });
  });
});
