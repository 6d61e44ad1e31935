// HyQuery / OneQuery v2 against the stand-in of test/support/hytale-peers.ts,
// written from Hyvote/hyquery docs/protocol-v2.md: the challenge, the token it
// hands (a bad one answered by nothing), the TLV records; and replies
// truncated, oversized and lying, each refused at once as a bad reply.

import { expect, test } from "bun:test";
import { askHyQuery2 } from "../../../src/lookup/hytale/hyquery-v2.ts";
import { askPeer, FACTS, type HytalePeerOptions } from "../../support/hytale-peers.ts";

const TIMEOUT_MS = 1_000;

const ask = (options: HytalePeerOptions, timeoutMs = TIMEOUT_MS) => askPeer(options, (port) => askHyQuery2({ ip: "127.0.0.1", port, timeoutMs }));

test("the challenge's token, then the players page and the basic query: MOTD, version, protocol, counts and names", async () => {
  const { answer, peer } = await ask({ hyquery2: { players: ["Alex", "Steve"] } });
  expect(answer).toEqual({
    ok: true,
    status: {
      source: "hyquery2", motd: FACTS.motd, version: FACTS.version, protocol: FACTS.protocol, players: { online: 7, max: 50 },
      sample: ["Alex", "Steve"], plugins: [], map: null, latencyMs: expect.any(Number),
    },
  });
  // This stand-in keeps one token per address, so the later family's challenge voided the
  // earlier one's token: those two queries got no reply, the later family's did.
  expect(peer.badTokens).toBe(2);
});

test.each([["ONEQUERY"], ["HYQUERY2"]] as const)("a plugin speaking only the %s family is read", async (family) => {
  const { answer } = await ask({ hyquery2: { families: [family] } });
  expect(answer).toMatchObject({ ok: true, status: { players: { online: 7, max: 50 } } });
});

test("the players list asking for authentication (the plugin's default) leaves the names out, the rest read", async () => {
  const { answer } = await ask({ hyquery2: {} });
  expect(answer).toMatchObject({ ok: true, status: { sample: [], players: { online: 7, max: 50 }, motd: FACTS.motd } });
});

test("a query whose token the server does not take gets no reply: the ask ends at its deadline, no sooner, no later", async () => {
  const { answer, ms, peer } = await ask({ hyquery2: { expectAnotherToken: true } }, 400);
  expect(answer).toMatchObject({ ok: false, reason: "timeout" });
  expect(peer.badTokens).toBe(4); // two queries after each family's challenge
  expect(ms).toBeGreaterThanOrEqual(390);
  expect(ms).toBeLessThan(1_500);
});

/** Byte offsets in a reply: the 17-byte header, then a record's 4-byte type and length. */
const PAYLOAD_LENGTH_AT = 15;
const RECORD_AT = 17;

const broken: Array<[string, HytalePeerOptions]> = [
  ["truncated", { hyquery2: {}, mangle: { v2: (reply) => reply.subarray(0, reply.length - 6) } }],
  ["oversized (past the 1400 bytes the protocol allows)", { hyquery2: {}, mangle: { v2: (reply) => Buffer.concat([reply, Buffer.alloc(1_400)]) } }],
  ["with a payload length past the packet", { hyquery2: {}, mangle: { v2: (reply) => (reply.writeUInt16LE(reply.length, PAYLOAD_LENGTH_AT), reply) } }],
  ["with a record length past the payload", { hyquery2: {}, mangle: { v2: (reply) => (reply.writeUInt16LE(900, RECORD_AT + 2), reply) } }],
  ["with more players online than any count can be", { hyquery2: { facts: { ...FACTS, online: 2_000_000_000 } } }],
  ["with a negative player maximum", { hyquery2: { facts: { ...FACTS, max: -1 } } }],
  [
    "listing more players than its page holds",
    { hyquery2: { players: ["Alex"] }, mangle: { v2: (reply) => (reply.readUInt16LE(RECORD_AT) === 2 ? (reply.writeInt32LE(1_000_000, RECORD_AT + 8), reply) : reply) } },
  ],
  [
    "with a page of more players than its total",
    { hyquery2: { players: ["Alex", "Steve"] }, mangle: { v2: (reply) => (reply.readUInt16LE(RECORD_AT) === 2 ? (reply.writeInt32LE(1, RECORD_AT + 4), reply) : reply) } },
  ],
  ["with a challenge reply longer than published", { hyquery2: {}, mangle: { v2Challenge: (reply) => Buffer.concat([reply, Buffer.alloc(64)]) } }],
  ["with a truncated challenge token", { hyquery2: {}, mangle: { v2Challenge: (reply) => reply.subarray(0, 30) } }],
];

test.each(broken)("a reply %s is refused at once as a bad reply, never thrown", async (_, options) => {
  const { answer, ms } = await ask(options);
  expect(answer).toMatchObject({ ok: false, reason: "bad_reply" });
  expect(ms).toBeLessThan(TIMEOUT_MS / 2);
});
