// A Hytale lookup through the lookup service, against the stand-ins of
// test/support/hytale-peers.ts: every way asked at once, the richest answer
// kept, nothing answering offline within the deadline, the address guard, the
// default port, the caches and caps as for Java.

import { describe, expect, test } from "bun:test";
import type { Resolver } from "../../../src/lookup/dns.ts";
import { RICHER_WAIT_FLOOR_MS } from "../../../src/lookup/hytale/ask-hytale.ts";
import { LookupService, type Endpoint, type LookupSettings } from "../../../src/lookup/lookup-service.ts";
import { offline, RESULT_LIMITS, type LookupResult, type Target } from "../../../src/lookup/result.ts";
import { lookupJson } from "../../../src/lookup/view.ts";
import { askPeer, FACTS, startHytalePeer, type HytalePeerOptions } from "../../support/hytale-peers.ts";

/** Smaller than the 5 s of a real lookup, to keep the tests short. */
const DEADLINE_MS = 1_500;

function service(settings: Partial<LookupSettings> = {}): LookupService {
  return new LookupService({ allowPrivate: true, deadlineMs: DEADLINE_MS, ...settings });
}

async function lookUp(options: HytalePeerOptions, settings: Partial<LookupSettings> = {}) {
  const { answer: result, ms, peer } = await askPeer(options, (port) => service(settings).lookup({ address: `127.0.0.1:${port}`, edition: "hytale" }));
  return { result, ms, peer };
}

const EVERY_WAY: HytalePeerOptions = {
  hyquery2: { players: ["Alex", "Steve"] },
  hyquery1: { variant: "hytaleone" },
  quic: true,
  a2s: {},
  nitrado: { document: { Server: { Version: "nitrado-version", MaxPlayers: 9 }, Universe: { CurrentPlayers: 1 } } },
  ping: { version: { name: "ping-version", protocol: 1 }, players: { online: 1, max: 9 }, description: "pinged" },
};

describe("the richest answer", () => {
  test("a server answering every way reads as HyQuery v2: its MOTD, version, protocol, counts and names", async () => {
    const { result } = await lookUp(EVERY_WAY);
    expect(lookupJson(result)).toMatchObject({
      online: true, edition: "hytale", source: "hyquery2", protocol_used: null, ip_address: "127.0.0.1",
      version: { name_raw: FACTS.version, protocol: FACTS.protocol }, players: { online: 7, max: 50, list: [{ name_raw: "Alex" }, { name_raw: "Steve" }] },
      motd: { raw: FACTS.motd, clean: "Welcome to Orbis" }, error: null,
    });
  });

  test.each([
    ["hyquery1", { ...EVERY_WAY, hyquery2: undefined }],
    ["nitrado", { ...EVERY_WAY, hyquery2: undefined, hyquery1: undefined }],
    ["ping", { ...EVERY_WAY, hyquery2: undefined, hyquery1: undefined, nitrado: undefined }],
    ["a2s", { quic: true, a2s: {} }],
  ] as const)("without the richer ways, %s is the answer", async (source, options) => {
    expect((await lookUp(options)).result).toMatchObject({ online: true, source, players: { online: expect.any(Number) } });
  });

  test("an answer with the players' numbers beats a richer way's without them", async () => {
    const { result } = await lookUp({ quic: true, a2s: {}, nitrado: { document: { Server: { Version: "v", MaxPlayers: 9 } } } });
    expect(result).toMatchObject({ source: "a2s", players: { online: 7, max: 50 }, map: "orbis" });
  });

  test("the ping's answer is read as the Java code reads it (MOTD, version, protocol), marked as such", async () => {
    const { result } = await lookUp({ quic: true, ping: EVERY_WAY.ping });
    expect(lookupJson(result)).toMatchObject({ source: "ping", protocol_used: "modern", version: { name_raw: "ping-version" }, motd: { clean: "pinged" } });
  });

  test("a stock server (QUIC alone): online, the round trip, players unknown rather than 0/0, soon after its answer", async () => {
    const { result, ms } = await lookUp({ quic: true });
    expect(lookupJson(result)).toMatchObject({ online: true, source: "quic", players: null, version: null, motd: null, plugins: [], map: null, error: null });
    expect(typeof result.latencyMs).toBe("number");
    // The richer ways got their wait after QUIC answered, not the whole deadline.
    expect(ms).toBeLessThan(RICHER_WAIT_FLOOR_MS + 500);
  });

  test("a richer way answering a little after a poorer one still wins; one answering much later does not delay the answer", async () => {
    expect((await lookUp({ quic: true, hyquery1: { variant: "hyvote" }, delay: { v1: 100 } })).result.source).toBe("hyquery1");
    const late = await lookUp({ quic: true, hyquery1: { variant: "hyvote" }, delay: { v1: 1_200 } });
    expect(late.result.source).toBe("quic");
    expect(late.ms).toBeLessThan(1_000);
  });

  test("what a result keeps is capped as a Java result's is (RESULT_LIMITS)", async () => {
    const names = Array.from({ length: 30 }, (_, i) => `Player${i}`);
    const facts = { ...FACTS, version: "v".repeat(300), motd: "m".repeat(400) };
    const { result } = await lookUp({ hyquery2: { players: names, facts } });
    expect(result.version?.name).toBe("v".repeat(RESULT_LIMITS.textChars));
    expect(result.players?.sample).toEqual(names.slice(0, RESULT_LIMITS.players));
    expect(result.motd?.raw).toBe(facts.motd);
  });

  test("a way answering with a lie is set aside: the others answer", async () => {
    const { result } = await lookUp({ ...EVERY_WAY, mangle: { v2: (reply) => reply.subarray(0, 20) } });
    expect(result).toMatchObject({ online: true, source: "hyquery1" });
  });

  test("the ways still running when the answer is chosen are closed (a held Nitrado connection too)", async () => {
    const { result, peer } = await lookUp({ hyquery2: {}, nitrado: { document: {} }, delay: { nitrado: 5_000 } });
    expect(result.source).toBe("hyquery2");
    for (let i = 0; i < 50 && (await peer.nitradoOpen()) > 0; i++) await Bun.sleep(20);
    expect(await peer.nitradoOpen()).toBe(0);
  });
});

describe("offline, bounded", () => {
  test("nothing answering any way is offline within the deadline", async () => {
    const { result, ms, peer } = await lookUp({});
    expect(result).toMatchObject({ online: false, edition: "hytale", source: null, error: { code: "timeout" } });
    expect(ms).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
    expect(ms).toBeLessThan(DEADLINE_MS + 500);
    expect(peer.seen).toEqual({ v2: 0, v1: 0, quic: 0, a2s: 0, nitrado: 0 });
  });

  test("a server whose only answer is a lie is offline with the lie's reason (the other ways waited for until the deadline)", async () => {
    const { result, ms } = await lookUp({ hyquery1: { variant: "hyvote" }, mangle: { v1: (reply) => reply.subarray(0, 12) } });
    expect(result).toMatchObject({ online: false, error: { code: "bad_reply" } });
    expect(ms).toBeLessThan(DEADLINE_MS + 500);
  });

  test("the answer is cached: a second lookup asks nothing", async () => {
    const peer = await startHytalePeer({ hyquery2: {}, quic: true });
    const lookups = service();
    const first = await lookups.lookup({ address: `127.0.0.1:${peer.port}`, edition: "hytale" });
    const seen = { ...peer.seen };
    const second = await lookups.lookup({ address: `127.0.0.1:${peer.port}`, edition: "hytale" });
    expect(second).toEqual(first);
    expect(peer.seen).toEqual(seen);
  });

  test("lookups of one server at once beyond the per-target cap answer busy", async () => {
    const peer = await startHytalePeer({ quic: true });
    const lookups = service({ maxPerTarget: 1 });
    const [a, b] = await Promise.all([
      lookups.lookup({ address: `127.0.0.1:${peer.port}`, edition: "hytale" }),
      lookups.lookup({ address: `localhost:${peer.port}`, edition: "hytale" }),
    ]);
    expect([a, b].map((result) => result.error?.code ?? "answered").sort()).toEqual(["answered", "busy"]);
  });
});

describe("the address guard", () => {
  test("private addresses are refused as for Java: nothing is sent, any way", async () => {
    const peer = await startHytalePeer(EVERY_WAY);
    const result = await service({ allowPrivate: false }).lookup({ address: `127.0.0.1:${peer.port}`, edition: "hytale" });
    expect(result).toMatchObject({ online: false, edition: "hytale", error: { code: "blocked_address" } });
    expect(peer.seen).toEqual({ v2: 0, v1: 0, quic: 0, a2s: 0, nitrado: 0 });
    expect(peer.ping?.connections).toBe(0);
  });

  test("a name is resolved once, to a public address, asked on 5520 by default, without SRV", async () => {
    const asked: string[] = [];
    const resolver: Resolver = {
      async addresses(host) {
        asked.push(host);
        return ["10.0.0.9", "8.8.4.4"];
      },
      async srv(name) {
        asked.push(name);
        return [];
      },
    };
    class Unconnected extends LookupService {
      readonly contacted: Endpoint[] = [];
      protected override async ping(target: Target, endpoint: Endpoint): Promise<LookupResult> {
        this.contacted.push(endpoint);
        return offline(target, "timeout", "not contacted");
      }
    }
    const lookups = new Unconnected({ resolver });
    const result = await lookups.lookup({ address: "play.example.com", edition: "hytale" });
    expect(lookups.contacted).toEqual([{ ip: "8.8.4.4", port: 5520, hostname: "play.example.com" }]);
    expect(asked).toEqual(["play.example.com"]);
    expect(result).toMatchObject({ edition: "hytale", port: 5520 });
  });
});
