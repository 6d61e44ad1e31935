// The QUIC probe against a stand-in answering Version Negotiation as RFC 9000
// sections 5.2.2, 6 and 17.2.1 describe (test/support/hytale-peers.ts): online
// and the round trip only; and answers truncated, oversized and lying.

import { expect, test } from "bun:test";
import { checkVersionNegotiation, probeQuic, quicProbe, QUIC_PROBE_BYTES } from "../../../src/lookup/hytale/quic-probe.ts";
import { askPeer, versionNegotiation, type HytalePeerOptions } from "../../support/hytale-peers.ts";

const TIMEOUT_MS = 1_000;

const ask = (options: HytalePeerOptions) => askPeer(options, (port) => probeQuic({ ip: "127.0.0.1", port, timeoutMs: TIMEOUT_MS }));

test("a Version Negotiation says online and the round trip, nothing else", async () => {
  const { answer } = await ask({ quic: true });
  expect(answer).toEqual({
    ok: true,
    status: { source: "quic", motd: null, version: null, protocol: null, players: null, sample: [], plugins: [], map: null, latencyMs: expect.any(Number) },
  });
});

test("the probe is a long header of a reserved version, 1200 bytes long (servers drop shorter ones)", () => {
  const probe = quicProbe();
  expect(probe.packet.length).toBe(QUIC_PROBE_BYTES);
  expect(probe.packet[0]! & 0xc0).toBe(0xc0);
  expect(probe.version & 0x0f0f0f0f).toBe(0x0a0a0a0a);
  expect(versionNegotiation(Buffer.from(probe.packet))).not.toBeNull();
  expect(versionNegotiation(Buffer.from(probe.packet.subarray(0, 1199)))).toBeNull();
});

test("an answer that does not echo the probe's ids, or offers the version refused, is not believed", () => {
  const probe = quicProbe();
  const answer = versionNegotiation(Buffer.from(probe.packet))!;
  expect(() => checkVersionNegotiation(answer, probe)).not.toThrow();
  expect(() => checkVersionNegotiation(answer, quicProbe())).toThrow(/another packet/);
  expect(() => checkVersionNegotiation(versionNegotiation(Buffer.from(probe.packet), [1, probe.version])!, probe)).toThrow(/refused/);
});

const broken: Array<[string, HytalePeerOptions]> = [
  ["truncated inside its ids", { quic: true, mangle: { quic: (reply) => reply.subarray(0, 10) } }],
  ["with a version list cut mid-version", { quic: true, mangle: { quic: (reply) => reply.subarray(0, reply.length - 1) } }],
  ["with no version listed", { quic: true, mangle: { quic: (reply) => reply.subarray(0, reply.length - 4) } }],
  ["oversized", { quic: true, mangle: { quic: (reply) => Buffer.concat([reply, Buffer.alloc(1_200)]) } }],
  ["with an id length past the packet", { quic: true, mangle: { quic: (reply) => ((reply[5] = 200), reply) } }],
  ["of another version than 0", { quic: true, mangle: { quic: (reply) => ((reply[4] = 1), reply) } }],
];

test.each(broken)("an answer %s is refused at once as a bad reply", async (_, options) => {
  const { answer, ms } = await ask(options);
  expect(answer).toMatchObject({ ok: false, reason: "bad_reply" });
  expect(ms).toBeLessThan(TIMEOUT_MS / 2);
});
