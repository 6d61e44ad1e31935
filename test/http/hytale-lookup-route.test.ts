// GET /api/lookup?edition=hytale, black-box: a real server (private lookups
// allowed by its environment, as an operator would) and the Hytale stand-ins
// of test/support/hytale-peers.ts.

import { afterEach, expect, test } from "bun:test";
import { FACTS, startHytalePeer } from "../support/hytale-peers.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { json } from "../support/signing.ts";

let server: TestServer;
afterEach(() => server.close());

test("edition=hytale answers the richest way's JSON, with edition and source", async () => {
  const peer = await startHytalePeer({ hyquery2: {}, quic: true });
  server = await startTestServer({ PENNANT_LOOKUP_PRIVATE: "on" });
  const response = await fetch(`${server.url}/api/lookup?address=127.0.0.1:${peer.port}&edition=hytale`);
  expect(response.status).toBe(200);
  expect(await json(response)).toMatchObject({
    online: true, edition: "hytale", source: "hyquery2", protocol_used: null, port: peer.port,
    version: { name_raw: FACTS.version, protocol: FACTS.protocol }, players: { online: 7, max: 50, list: [] }, motd: { raw: FACTS.motd }, icon: null, error: null,
  });
});

test("a stock server (QUIC only) reads online with its players unknown, null, never 0/0", async () => {
  const peer = await startHytalePeer({ quic: true });
  server = await startTestServer({ PENNANT_LOOKUP_PRIVATE: "on" });
  const body = await json(await fetch(`${server.url}/api/lookup?address=127.0.0.1:${peer.port}&edition=hytale`));
  expect(body).toMatchObject({ online: true, source: "quic", players: null, version: null, motd: null });
});

test("Hytale's default port is 5520; a private address is refused as for Java; an unknown edition is a 400 naming the three", async () => {
  server = await startTestServer();
  const blocked = await json(await fetch(`${server.url}/api/lookup?address=127.0.0.1&edition=hytale`));
  expect(blocked).toMatchObject({ online: false, edition: "hytale", port: 5520, source: null, error: { code: "blocked_address" } });
  const refused = await fetch(`${server.url}/api/lookup?address=127.0.0.1&edition=pocket`);
  expect(refused.status).toBe(400);
  expect((await json(refused)).error.message).toContain("java, bedrock or hytale");
});
