// A2S_INFO on the game port + 1 against a stand-in written from Valve's
// "Server queries" page (test/support/hytale-peers.ts), with and without its
// challenge; and replies truncated, oversized, split and lying.

import { expect, test } from "bun:test";
import { askA2sInfo } from "../../../src/lookup/hytale/a2s-info.ts";
import { askPeer, FACTS, type HytalePeerOptions } from "../../support/hytale-peers.ts";

const TIMEOUT_MS = 1_000;

const ask = (options: HytalePeerOptions) => askPeer(options, (port) => askA2sInfo({ ip: "127.0.0.1", port: port + 1, timeoutMs: TIMEOUT_MS }));

test("the info reply: players, maximum, map and version", async () => {
  const { answer, peer } = await ask({ a2s: {} });
  expect(answer).toEqual({
    ok: true,
    status: { source: "a2s", motd: null, version: FACTS.version, protocol: null, players: { online: 7, max: 50 }, sample: [], plugins: [], map: "orbis", latencyMs: expect.any(Number) },
  });
  expect(peer.seen.a2s).toBe(1);
});

test("a server asking for a challenge first is asked again with it", async () => {
  const { answer, peer } = await ask({ a2s: { challenge: true } });
  expect(answer).toMatchObject({ ok: true, status: { players: { online: 7, max: 50 } } });
  expect(peer.seen.a2s).toBe(2);
});

/** The name's NUL: after the header (4), type (1) and protocol (1), then the name. */
const nameEnd = 6 + Buffer.byteLength(FACTS.name);

const broken: Array<[string, HytalePeerOptions]> = [
  ["truncated (its version never ends)", { a2s: {}, mangle: { a2s: (reply) => reply.subarray(0, reply.length - 3) } }],
  ["cut before its counts", { a2s: {}, mangle: { a2s: (reply) => reply.subarray(0, nameEnd + 4) } }],
  ["oversized", { a2s: {}, mangle: { a2s: (reply) => Buffer.concat([reply, Buffer.alloc(1_500)]) } }],
  ["split in packets (header -2)", { a2s: {}, mangle: { a2s: (reply) => ((reply[0] = 0xfe), reply) } }],
  ["of another type", { a2s: {}, mangle: { a2s: (reply) => ((reply[4] = 0x44), reply) } }],
];

test.each(broken)("a reply %s is refused at once as a bad reply", async (_, options) => {
  const { answer, ms } = await ask(options);
  expect(answer).toMatchObject({ ok: false, reason: "bad_reply" });
  expect(ms).toBeLessThan(TIMEOUT_MS / 2);
});

test("a second challenge instead of the info is refused, not followed", async () => {
  const again = Buffer.from([0xff, 0xff, 0xff, 0xff, 0x41, 1, 2, 3, 4]);
  const { answer, peer } = await ask({ a2s: { challenge: true }, mangle: { a2s: () => again } });
  expect(answer).toMatchObject({ ok: false, reason: "bad_reply" });
  expect(peer.seen.a2s).toBe(2);
});
