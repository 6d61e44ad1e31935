// Nitrado Query over HTTPS on the game port + 3, against a stand-in with a
// self-signed certificate made by openssl (test/support/hytale-peers.ts),
// written from nitrado/hytale-plugin-query's README and QueryResponseV1.java:
// its Accept type, its sections present only when granted, both forms of its
// Players; gamedig issue #755's count read as 0 avoided; bodies truncated,
// oversized and lying refused.

import { expect, test } from "bun:test";
import { askNitrado, NITRADO_MAX_BODY_BYTES } from "../../../src/lookup/hytale/nitrado-query.ts";
import { askPeer, NITRADO_TYPE, startHytalePeer, type HytalePeerOptions } from "../../support/hytale-peers.ts";

const TIMEOUT_MS = 2_000;

/** The plugin's 1.1 answer with every section granted. */
const EVERYTHING = {
  Basic: { Name: "Orbis", Version: "2026.01.24-6e2d4fc36", MaxPlayers: 100, CurrentPlayers: 2, Address: "play.example.com:5520" },
  Server: { Name: "Orbis", Version: "2026.01.24-6e2d4fc36", Revision: "6e2d4fc3", Patchline: "release", ProtocolVersion: 1, ProtocolHash: "34f4", MaxPlayers: 100 },
  Universe: { CurrentPlayers: 2, DefaultWorld: "default" },
  Players: [
    { Name: "Alex", UUID: "e5c4ef9a-6281-406e-8a71-21028279f547", World: "default" },
    { Name: "Steve", UUID: "0b5a1c22-1c8b-4d1e-9d3b-5b7f5e5d0a11", World: "default" },
  ],
  Plugins: { "Nitrado:Query": { Version: "1.1.0", Loaded: true, Enabled: true, State: "ENABLED" }, "Nitrado:WebServer": { Version: "1.2.0", Loaded: false } },
};

const ask = (nitrado: HytalePeerOptions["nitrado"], hostname = "127.0.0.1") =>
  askPeer({ nitrado }, (port) => askNitrado({ ip: "127.0.0.1", port: port + 3, hostname, timeoutMs: TIMEOUT_MS }));

test("every section granted: version, protocol, counts, names, plugins and the default world, over self-signed TLS", async () => {
  const { answer, peer } = await ask({ document: EVERYTHING }, "play.example.com");
  expect(answer).toEqual({
    ok: true,
    status: {
      source: "nitrado", motd: null, version: "2026.01.24-6e2d4fc36", protocol: 1, players: { online: 2, max: 100 }, sample: ["Alex", "Steve"],
      plugins: [{ name: "Nitrado:Query", version: "1.1.0" }, { name: "Nitrado:WebServer", version: "1.2.0" }], map: "default", latencyMs: expect.any(Number),
    },
  });
  expect(peer.nitradoRequests).toEqual([{ host: `play.example.com:${peer.port + 3}`, accept: NITRADO_TYPE }]);
});

test("the 1.0 form, Players keyed by UUID, reads the same names", async () => {
  const players = Object.fromEntries(EVERYTHING.Players.map((player) => [player.UUID, player]));
  const { answer } = await ask({ document: { ...EVERYTHING, Players: players } });
  expect(answer).toMatchObject({ ok: true, status: { sample: ["Alex", "Steve"] } });
});

test("Universe not granted: the players online are Basic's, else the names listed, never 0 (gamedig #755)", async () => {
  const { Universe: _, ...withoutUniverse } = EVERYTHING;
  expect((await ask({ document: withoutUniverse })).answer).toMatchObject({ ok: true, status: { players: { online: 2, max: 100 } } });
  const { Basic: __, ...serverAndPlayers } = withoutUniverse;
  expect((await ask({ document: serverAndPlayers })).answer).toMatchObject({ ok: true, status: { players: { online: 2, max: 100 }, map: null } });
});

test("only Server granted: the version and maximum known, the players online unknown, so no counts at all", async () => {
  const { answer } = await ask({ document: { Server: EVERYTHING.Server } });
  expect(answer).toMatchObject({ ok: true, status: { version: "2026.01.24-6e2d4fc36", players: null, sample: [], plugins: [] } });
});

test("a WebServer with TLS off (Tls.Insecure, as LGSL #271 advises) is read over plain HTTP", async () => {
  const { answer, peer } = await ask({ document: EVERYTHING, plain: true });
  expect(answer).toMatchObject({ ok: true, status: { players: { online: 2, max: 100 } } });
  expect(peer.seen.nitrado).toBe(1);
});

test.each([[401], [302], [406]])("an answer %p (nothing granted, a login redirect, not acceptable) is a refusal, not followed", async (status) => {
  const { answer, peer } = await ask({ document: {}, status });
  expect(answer).toMatchObject({ ok: false, reason: "refused" });
  expect(peer.seen.nitrado).toBe(1);
});

const broken: Array<[string, unknown]> = [
  ["truncated", JSON.stringify(EVERYTHING).slice(0, 100)],
  ["oversized", JSON.stringify({ ...EVERYTHING, Padding: "x".repeat(NITRADO_MAX_BODY_BYTES) })],
  ["not an object", "[1, 2, 3]"],
  ["with a negative count", { ...EVERYTHING, Universe: { CurrentPlayers: -1 } }],
  ["with a count above any", { ...EVERYTHING, Server: { MaxPlayers: 5_000_000_000 } }],
  ["with a count that is text", { ...EVERYTHING, Basic: { CurrentPlayers: "2" }, Universe: undefined }],
];

test.each(broken)("an answer %s is refused as a bad reply", async (_, document) => {
  const { answer, ms } = await ask({ document });
  expect(answer).toMatchObject({ ok: false, reason: "bad_reply" });
  expect(ms).toBeLessThan(TIMEOUT_MS / 2);
});

test("nothing listening on the port: refused at once", async () => {
  const peer = await startHytalePeer({});
  expect(await askNitrado({ ip: "127.0.0.1", port: peer.port + 3, hostname: "127.0.0.1", timeoutMs: TIMEOUT_MS })).toMatchObject({ ok: false, reason: "refused" });
});
