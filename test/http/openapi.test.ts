import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/server.ts";
import { json } from "../support/signing.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

test("the OpenAPI document lists the signed endpoints", async () => {
  const response = await fetch(`${server.url}/openapi/json`);
  expect(response.status).toBe(200);
  const document = await json(response);
  expect(document.info.title).toBe("Pennant");
  for (const path of ["/api/server/heartbeat", "/api/server/update", "/api/server/status", "/api/plugins/{plugin_uuid}/data"]) {
    expect(Object.keys(document.paths)).toContain(path);
  }
});
