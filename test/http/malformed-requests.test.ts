// No input reaches a 500. A Host that makes no URL ("%2f": Bun builds
// "http://%2f/path", which no URL parser takes), odd methods on known paths,
// broken targets: each is a 4xx with the JSON error shape, never Bun's
// development error page (50 KB of source and absolute paths) and never a
// stack trace in the log. And what errors there are reach the log through
// the refusal log's budget: a client that repeats one bad request without
// end writes a bounded log.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { lastResortAnswer } from "../../src/http/error-handling.ts";
import { REFUSAL_LOG_BUDGET } from "../../src/http/observe.ts";
import { ThrottledLog } from "../../src/http/throttled-log.ts";
import { RawClient, type RawRequest, type RawResponse } from "../support/raw-http.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

let server: TestServer;
let client: RawClient;

beforeAll(async () => {
  server = await startTestServer();
  client = new RawClient(Number(new URL(server.url).port));
});
afterAll(async () => {
  client.close();
  await server.close();
});

/** Hosts Bun puts in a URL that no parser takes (others, such as "a b", it leaves out: host-header.test.ts). */
const UNPARSABLE_HOSTS = ["%2f", "%", "[::1", "a%zz", "a:b:c", "[x]", "a:99999", "a:x"];
const TARGETS = ["/nothing", "/healthz", "/api/banner?server_name=A", "/shields/servers/x/players.png", "/api/server/update"];
const METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"];

function text(response: RawResponse): string {
  return Buffer.from(response.body).toString("utf8");
}

/** A 4xx whose body, when it has one, is the JSON error shape: no HTML, no source, no path of this machine. */
function expectClearRefusal(label: string, response: RawResponse, method: string) {
  expect({ label, status: response.status >= 400 && response.status < 500 }).toEqual({ label, status: true });
  const body = text(response);
  expect({ label, leaks: /<html|bunfallback|\/work\/|node_modules|\.ts:\d/i.test(body) }).toEqual({ label, leaks: false });
  if (method === "HEAD" || body.length === 0) return;
  expect({ label, type: response.headers.get("content-type") }).toEqual({ label, type: "application/json;charset=utf-8" });
  expect(typeof JSON.parse(body).error?.code).toBe("string");
}

async function ask(request: RawRequest): Promise<RawResponse> {
  return client.exchange(request, 10_000);
}

describe("malformed requests are refused clearly", () => {
  test("a Host no URL can be made of is a 400 invalid_host on every path and method", async () => {
    for (const host of UNPARSABLE_HOSTS) {
      for (const target of TARGETS) {
        for (const method of METHODS) {
          const response = await ask({ method, target, headers: [], host });
          const label = `${method} ${target} Host: ${host}`;
          expectClearRefusal(label, response, method);
          if (method !== "HEAD") expect({ label, code: JSON.parse(text(response)).error.code }).toEqual({ label, code: "invalid_host" });
        }
      }
    }
  });

  test("wrong methods and odd targets with a normal Host are 4xx with the JSON error", async () => {
    const targets = ["/healthz", "/metrics", "/", "/api/templates", "/api/lookup?address=a", "/docs", "/%", "/%zz", "/a%00b", "//", "/./healthz", "/healthz/..", "/\x7f"];
    for (const target of targets) {
      // (A method Bun does not know, "FOO", has its connection closed by Bun before Pennant sees it.)
      for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
        const response = await ask({ method, target, headers: [["Content-Length", "0"]] });
        expectClearRefusal(`${method} ${target}`, response, method);
      }
    }
  });

  test("the log stays bounded: no stack trace, and at most the refusal budget's lines for one client", async () => {
    server.clock.now += REFUSAL_LOG_BUDGET.windowSeconds * 1000;
    const before = server.logs().length;
    for (let i = 0; i < 200; i++) await ask({ method: "GET", target: `/nothing/${i}`, headers: [], host: "%2f" });
    for (let i = 0; i < 200; i++) await ask({ method: "POST", target: "/healthz", headers: [["Content-Length", "0"]] });
    const lines = server.logs().slice(before);
    expect(lines.filter((line) => line.stack !== undefined || line.level === "error")).toEqual([]);
    // perClient lines, plus the first of each other error code.
    expect(lines.length).toBeLessThanOrEqual(REFUSAL_LOG_BUDGET.perClient + 3);
  });
});

describe("Bun's development error page is never served", () => {
  test("the server runs in production mode whatever NODE_ENV says (bun test sets it to test)", () => {
    expect(process.env.NODE_ENV).not.toBe("production");
    expect(server.app.server!.development).toBe(false);
  });

  test("a failure outside every hook is the JSON 500, and one log line a minute", async () => {
    const lines: string[] = [];
    let now = 0;
    const answer = lastResortAnswer(new ThrottledLog(60_000, () => now, (line) => lines.push(line)));
    for (let i = 0; i < 50; i++) {
      const response = answer(new TypeError(`Invalid URL at /work/secret/${i}.ts`));
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({ error: { code: "internal", message: "internal server error" } });
    }
    now += 60_000;
    answer(new TypeError("again"));
    expect(lines.length).toBe(2);
    expect(lines[1]).toContain("49 more");
  });
});
