// What the HTTP layer answers before any route's own logic: oversize bodies get
// the JSON 413 however they are sent, a wrong method on a known path is a 405
// with Allow (read from the app's routes), and a client that hangs up mid-body
// is not logged as a server error.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connect } from "node:net";
import { join } from "node:path";
import { createApp } from "../../src/serve/app.ts";
import { DRAIN_LIMIT_BYTES } from "../../src/http/body-limit.ts";
import { MAX_UPDATE_BODY_BYTES } from "../../src/http/server-routes.ts";
import { MAX_BODY_BYTES } from "../../src/http/signed-request.ts";
import { tempDir, track } from "../support/cleanup.ts";
import { RawClient } from "../support/raw-http.ts";
import { startServe } from "../support/process.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { json, newUuid } from "../support/signing.ts";

let server: TestServer;
let port: number;
beforeAll(async () => {
  server = await startTestServer();
  port = Number(new URL(server.url).port);
});
afterAll(() => server.close());

const PLUGIN = newUuid();
const POST_PATHS = ["/api/server/heartbeat", "/api/server/update", `/api/plugins/${PLUGIN}/data`];
const TWO_MIB = 2 * 1024 * 1024;

/** The headers a signed push would carry (unsigned: the size check comes first). */
const PUSH_HEADERS = { "Content-Type": "application/json", "X-Server-UUID": newUuid(), "X-Server-Token": "pn_x", "X-Timestamp": "1", "X-Signature": "00" };

async function expectTooLarge(response: Response): Promise<void> {
  expect(response.status).toBe(413);
  expect((await json(response)).error.code).toBe("payload_too_large");
}

interface RawExchange {
  /** Everything the server sent before it closed the connection. */
  received: string;
  /** The socket error the client saw, if any (EPIPE, ECONNRESET). */
  error?: string;
}

/**
 * One request over a raw socket from a Node process. With sendBytes equal to
 * size it writes the whole body before it reads the answer, as Java's
 * HttpURLConnection (the plugin's client) does; otherwise it sends only the
 * start of the body and waits for the answer.
 */
async function rawRequest(head: string, body: { size: number; sendBytes: number }): Promise<RawExchange> {
  const node = Bun.which("node");
  if (!node) throw new Error("these tests need Node.js (README: Node 20 or newer) for a raw client that reports resets");
  const child = Bun.spawn([node, join(import.meta.dir, "../support/raw-http-client.mjs"), String(port), head, String(body.size), String(body.sendBytes)], {
    stdout: "pipe",
    stderr: "inherit",
  });
  const kill = track(() => child.kill("SIGKILL"), () => child.kill("SIGKILL"));
  try {
    return JSON.parse(await new Response(child.stdout).text()) as RawExchange;
  } finally {
    await kill();
  }
}

function expectJson413(exchange: RawExchange): void {
  expect(exchange.received).toStartWith("HTTP/1.1 413");
  const bodyText = exchange.received.slice(exchange.received.indexOf("\r\n\r\n") + 4);
  expect(JSON.parse(bodyText).error.code).toBe("payload_too_large");
}

describe("oversize bodies", () => {
  test("a declared 2 MiB body to every POST route gets the JSON 413", async () => {
    for (const path of POST_PATHS) {
      await expectTooLarge(await fetch(server.url + path, { method: "POST", headers: PUSH_HEADERS, body: "a".repeat(TWO_MIB) }));
    }
  });

  test("a chunked 2 MiB body to every POST route gets the JSON 413 too", async () => {
    for (const path of POST_PATHS) {
      const body = new ReadableStream({
        start(controller) {
          controller.enqueue(new Uint8Array(TWO_MIB).fill(97));
          controller.close();
        },
      });
      await expectTooLarge(await fetch(server.url + path, { method: "POST", headers: PUSH_HEADERS, body }));
    }
  });

  test("a client that writes its whole 2 MiB body before reading still reads the JSON 413", async () => {
    for (const path of POST_PATHS) {
      for (let i = 0; i < 3; i++) {
        const exchange = await rawRequest(`POST ${path} HTTP/1.1\r\nHost: pennant\r\nContent-Type: application/json\r\n`, { size: TWO_MIB, sendBytes: TWO_MIB });
        expect(exchange.error).toBeUndefined();
        expectJson413(exchange);
      }
    }
  });

  test("a body over the drain limit gets the JSON 413 (not the transport's empty one) as soon as it is announced", async () => {
    const size = DRAIN_LIMIT_BYTES * 16;
    const exchange = await rawRequest(`POST /api/server/update HTTP/1.1\r\nHost: pennant\r\nContent-Type: application/json\r\n`, { size, sendBytes: 1024 });
    expectJson413(exchange);
  });

  test("GET routes take no body: a declared 2 MiB one gets the JSON 413 as well", async () => {
    for (const path of ["/healthz", "/api/lookup?address=127.0.0.1"]) {
      const exchange = await rawRequest(`GET ${path} HTTP/1.1\r\nHost: pennant\r\n`, { size: TWO_MIB, sendBytes: 1024 });
      expectJson413(exchange);
    }
  });

  test("a body at its route's bound is not refused by its size; one byte more is, declared or chunked", async () => {
    // An update takes four times the others' bound (the plugin relays PlaceholderAPI values it cannot shorten).
    const bounds = { "/api/server/heartbeat": MAX_BODY_BYTES, "/api/server/update": MAX_UPDATE_BODY_BYTES, [`/api/plugins/${PLUGIN}/data`]: MAX_BODY_BYTES };
    expect(Object.keys(bounds)).toEqual(POST_PATHS);
    for (const [path, bound] of Object.entries(bounds)) {
      const fits = await fetch(server.url + path, { method: "POST", headers: PUSH_HEADERS, body: " ".repeat(bound) });
      expect([path, fits.status === 413]).toEqual([path, false]);
      await fits.body?.cancel();
      await expectTooLarge(await fetch(server.url + path, { method: "POST", headers: PUSH_HEADERS, body: " ".repeat(bound + 1) }));
      const chunked = new ReadableStream({
        start(controller) {
          controller.enqueue(new Uint8Array(bound + 1).fill(32));
          controller.close();
        },
      });
      await expectTooLarge(await fetch(server.url + path, { method: "POST", headers: PUSH_HEADERS, body: chunked }));
    }
  });
});

describe("a wrong method on a known path", () => {
  async function expectWrongMethod(method: string, path: string, allow: string): Promise<void> {
    const response = await fetch(server.url + path, { method });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe(allow);
    const body = await json(response);
    expect(body.error.code).toBe("method_not_allowed");
    expect(body.error.message).toContain(allow);
  }

  test("is a 405 naming the allowed methods in Allow and in the JSON error", async () => {
    await expectWrongMethod("GET", "/api/server/update", "POST");
    await expectWrongMethod("PUT", "/api/server/heartbeat", "POST");
    await expectWrongMethod("DELETE", `/api/plugins/${PLUGIN}/data`, "POST");
    await expectWrongMethod("POST", "/api/server/status", "GET, HEAD");
    await expectWrongMethod("POST", "/healthz", "GET, HEAD");
    await expectWrongMethod("PATCH", "/api/lookup", "GET, HEAD");
  });

  test("every registered route answers a method it does not take with 405, its own method allowed", async () => {
    const { routes } = await createApp({ config: server.config, store: server.store, now: Date.now });
    expect(routes.length).toBeGreaterThan(5);
    for (const route of routes) {
      const path = route.path.replaceAll(/:[^/]+/g, newUuid());
      const response = await fetch(server.url + path, { method: "PATCH" });
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")!.split(", ")).toContain(route.method);
      await response.body?.cancel();
    }
  });

  test("a method the path takes is never refused as a wrong one: a #fragment sent along is a 404", async () => {
    // Found by fuzzing: "GET /healthz#frag" answered 405 "this endpoint takes GET, HEAD".
    const client = new RawClient(port);
    try {
      for (const [method, target] of [["GET", "/healthz#frag"], ["HEAD", "/api/banner#"], ["POST", "/api/server/update#x"]] as const) {
        const response = await client.exchange({ method, target, headers: [] }, 5_000);
        expect(response.status).toBe(404);
      }
      const wrong = await client.exchange({ method: "PUT", target: "/healthz#frag", headers: [] }, 5_000);
      expect(wrong.status).toBe(405);
    } finally {
      client.close();
    }
  });

  test("unknown paths stay 404, also near a known one", async () => {
    for (const path of ["/api/nothing", "/api/server/update/extra", `/api/plugins/${PLUGIN}`, "/api/server/update/"]) {
      const response = await fetch(server.url + path, { method: "PUT" });
      expect(response.status).toBe(404);
      expect((await json(response)).error.code).toBe("not_found");
    }
  });
});

describe("a client that hangs up mid-upload", () => {
  test("is not logged as an error by `serve`", async () => {
    const serve = await startServe({ PENNANT_DB: `${tempDir("transport")}/pennant.db` });
    try {
      const { port: servePort } = new URL(serve.url);
      for (let i = 0; i < 5; i++) {
        await new Promise<void>((resolve) => {
          const socket = connect(Number(servePort), "127.0.0.1", () => {
            socket.write(
              "POST /api/server/update HTTP/1.1\r\nHost: pennant\r\nContent-Type: application/json\r\n" +
                `X-Server-UUID: ${newUuid()}\r\nContent-Length: 10000\r\n\r\n{"name":"half`,
            );
            setTimeout(() => {
              socket.destroy();
              resolve();
            }, 50);
          });
        });
      }
      // The server has seen every hang-up once it answers a later request on a new connection.
      expect((await fetch(serve.url + "/healthz")).status).toBe(200);
      await Bun.sleep(200);
      expect(serve.stderr()).toBe("");
    } finally {
      await serve.kill();
    }
  });
});
