// Random and hostile input on every signed endpoint: properly signed bodies of
// every JSON shape, broken headers and odd methods must all end in a 2xx or a
// 4xx with the JSON error shape, never a 500.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/server.ts";
import { json, newUuid, signedRequest } from "../support/signing.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

/** A small deterministic generator, so a failure reproduces. */
function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const KEYS = ["name", "status", "stats", "players", "online", "max", "tps", "motd", "version", "plugin", "meta", "data",
  "minecraft_versions", "server_software", "alpha", "code", "stars", "open_issues", "__proto__", "constructor", "x"];

function randomJson(next: () => number, depth: number): unknown {
  const pick = Math.floor(next() * (depth > 5 ? 6 : 8));
  switch (pick) {
    case 0: return null;
    case 1: return next() < 0.5;
    case 2: return [0, -1, 1.5, 1e300, -1e-300, 2 ** 53, 42][Math.floor(next() * 7)];
    case 3: return ["", "online", "§a§lHi", "\u0000", "x".repeat(Math.floor(next() * 5000)), "中文", "1.21"][Math.floor(next() * 7)];
    case 4: case 5: return Array.from({ length: Math.floor(next() * 4) }, () => randomJson(next, depth + 1));
    default: return Object.fromEntries(Array.from({ length: Math.floor(next() * 5) }, () => [KEYS[Math.floor(next() * KEYS.length)]!, randomJson(next, depth + 1)]));
  }
}

async function expectHandled(response: Response): Promise<void> {
  expect(response.status).toBeLessThan(500);
  if (response.status >= 400) {
    const body = await json(response);
    expect(typeof body.error.code).toBe("string");
  }
}

describe("hostile input", () => {
  test("300 random signed bodies across the endpoints never cause a 500", async () => {
    const next = rng(20261122);
    const token = server.token();
    const paths = ["/api/server/heartbeat", "/api/server/update", `/api/plugins/${newUuid()}/data`];
    for (let i = 0; i < 300; i++) {
      const path = paths[i % paths.length]!;
      const body = JSON.stringify(randomJson(next, 0));
      server.clock.now += 1000; // a fresh timestamp each time, so none is a replay
      const request = signedRequest(server.url, {
        path,
        token,
        body,
        serverUuid: newUuid(),
        tokenHeader: path.startsWith("/api/plugins") ? "X-Plugin-Token" : "X-Server-Token",
      }, server.clock.now);
      await expectHandled(await fetch(request));
    }
  });

  test("prototype keys in bodies do not reach objects' prototypes", async () => {
    const token = server.token();
    const body = '{"meta":{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}}},"stats":{"__proto__":5}}';
    const response = await fetch(signedRequest(server.url, { path: `/api/plugins/${newUuid()}/data`, token, body, tokenHeader: "X-Plugin-Token" }, server.clock.now));
    await expectHandled(response);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  const oddHeaders: Array<[string, Record<string, string>]> = [
    ["an empty token", { "X-Server-Token": "" }],
    ["a huge timestamp", { "X-Timestamp": "9".repeat(40) }],
    ["a negative timestamp", { "X-Timestamp": "-5" }],
    ["a fractional timestamp", { "X-Timestamp": "1700000000.5" }],
    ["a non-ASCII token", { "X-Server-Token": "tøken-with-ünïcode-chars" }],
    ["a signature with spaces", { "X-Signature": " ".repeat(64) }],
    ["a content type with only parameters", { "Content-Type": ";charset=utf-8" }],
  ];
  for (const [label, headers] of oddHeaders) {
    test(`${label} is a 4xx`, async () => {
      const request = signedRequest(server.url, { path: "/api/server/heartbeat", token: server.token(), serverUuid: newUuid(), headers }, server.clock.now);
      const response = await fetch(request);
      expect(response.status).toBeGreaterThanOrEqual(400);
      await expectHandled(response);
    });
  }

  test("wrong methods and unknown paths are 4xx JSON", async () => {
    for (const [method, path] of [["GET", "/api/server/update"], ["DELETE", "/api/server/status"], ["PUT", "/api/plugins/x/data"], ["GET", "/%ff%fe"]] as const) {
      const response = await fetch(server.url + path, { method });
      expect(response.status).toBeGreaterThanOrEqual(400);
      await expectHandled(response);
    }
  });

  test("an empty POST body is invalid JSON, not a crash", async () => {
    const response = await fetch(signedRequest(server.url, { path: "/api/server/update", token: server.token(), serverUuid: newUuid(), body: "" }, server.clock.now));
    expect(response.status).toBe(400);
  });
});
