// HyQuery v1's basic query against stand-ins of both published variants
// (test/support/hytale-peers.ts): HytaleOne's (query-js src/protocol.ts, GameQ
// PR #763: u16 port, protocol fields) and Hyvote's (HyQueryProtocol.java: i32
// port, none); and replies truncated, oversized and lying.

import { expect, test } from "bun:test";
import { askHyQuery1, parseHyQuery1Reply } from "../../../src/lookup/hytale/hyquery-v1.ts";
import { askPeer, FACTS, v1Reply, type HytalePeerOptions } from "../../support/hytale-peers.ts";

const TIMEOUT_MS = 1_000;

const ask = (options: HytalePeerOptions) => askPeer(options, (port) => askHyQuery1({ ip: "127.0.0.1", port, timeoutMs: TIMEOUT_MS }));

test("HytaleOne's variant: MOTD, counts, version and protocol version", async () => {
  const { answer } = await ask({ hyquery1: { variant: "hytaleone" } });
  expect(answer).toEqual({
    ok: true,
    status: { source: "hyquery1", motd: FACTS.motd, version: FACTS.version, protocol: FACTS.protocol, players: { online: 7, max: 50 }, sample: [], plugins: [], map: null, latencyMs: expect.any(Number) },
  });
});

test("Hyvote's variant (a 32-bit port, no protocol fields): the same, protocol unknown", async () => {
  const { answer } = await ask({ hyquery1: { variant: "hyvote" } });
  expect(answer).toMatchObject({ ok: true, status: { motd: FACTS.motd, version: FACTS.version, protocol: null, players: { online: 7, max: 50 } } });
});

test("each variant is told by where its reading ends, whatever the port and version say", () => {
  for (const port of [0, 5520, 65_535]) {
    // The last: read as HytaleOne's, Hyvote's i32 port and this version would give a protocol and hash, and bytes after them.
    for (const version of ["", "v", "2026.01.24-6e2d4fc36", "ab\u0001\u0000cdef"]) {
      const facts = { ...FACTS, version };
      expect(parseHyQuery1Reply(v1Reply("hytaleone", facts, port), 1).protocol).toBe(FACTS.protocol);
      expect(parseHyQuery1Reply(v1Reply("hyvote", facts, port), 1)).toMatchObject({ protocol: null, version });
    }
  }
});

/** Where the MOTD's length is: magic (8), type (1), then the name behind its 2-byte length. */
const motdLengthAt = 8 + 1 + 2 + Buffer.byteLength(FACTS.name);

const broken: Array<[string, HytalePeerOptions]> = [
  ["truncated", { hyquery1: { variant: "hytaleone" }, mangle: { v1: (reply) => reply.subarray(0, reply.length - 3) } }],
  ["with bytes after its end", { hyquery1: { variant: "hyvote" }, mangle: { v1: (reply) => Buffer.concat([reply, Buffer.of(1)]) } }],
  ["oversized", { hyquery1: { variant: "hytaleone" }, mangle: { v1: (reply) => Buffer.concat([reply, Buffer.alloc(5_000)]) } }],
  ["with a MOTD length past the packet", { hyquery1: { variant: "hytaleone" }, mangle: { v1: (reply) => (reply.writeUInt16LE(60_000, motdLengthAt), reply) } }],
  ["with a negative player count", { hyquery1: { variant: "hyvote", facts: { ...FACTS, online: -5 } } }],
  ["with a maximum above any count", { hyquery1: { variant: "hytaleone", facts: { ...FACTS, max: 2_000_000_000 } } }],
  ["of another type", { hyquery1: { variant: "hytaleone" }, mangle: { v1: (reply) => ((reply[8] = 1), reply) } }],
];

test.each(broken)("a reply %s is refused at once as a bad reply", async (_, options) => {
  const { answer, ms } = await ask(options);
  expect(answer).toMatchObject({ ok: false, reason: "bad_reply" });
  expect(ms).toBeLessThan(TIMEOUT_MS / 2);
});
