// GET /api/lookup against a real DNS server (the resolver is pointed at it) and
// real status servers on loopback: SRV targets tried in turn, then the plain
// name, within the lookup's deadline; and names whose SRV target is blocked
// reading exactly like names that do not resolve.

import { afterEach, describe, expect, test } from "bun:test";
import { dnsResolver } from "../../src/lookup/dns.ts";
import { LookupService, type LookupSettings } from "../../src/lookup/lookup-service.ts";
import { startDnsPeer, type DnsRecords } from "../support/dns-peer.ts";
import { startCountingPeer, type CountingPeer, type PeerBehaviour } from "../support/java-peers.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { json } from "../support/signing.ts";

const opened: Array<{ close(): unknown }> = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((peer) => peer.close()));
});

async function peer(behaviour: PeerBehaviour, port = 0, host = "127.0.0.1"): Promise<CountingPeer> {
  const started = await startCountingPeer(behaviour, {}, port, host);
  opened.push(started);
  return started;
}

/** A port on 127.0.0.1 that refuses connections: a peer's, closed again. */
async function refusingPort(): Promise<number> {
  const closed = await startCountingPeer("modern");
  await closed.close();
  return closed.port;
}

/**
 * A peer on port 25565 (where the plain name is asked) of an address of its own in
 * 127.0.0.0/8, so that it never meets a real server or another test on 127.0.0.1.
 */
async function peerOnGamePort(): Promise<{ peer: CountingPeer; ip: string }> {
  for (let attempt = 1; ; attempt++) {
    const ip = `127.${1 + Math.floor(Math.random() * 254)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`;
    try {
      return { peer: await peer("modern", 25565, ip), ip };
    } catch (error) {
      if (attempt === 5) throw error;
    }
  }
}

/** The app, its lookups asking the DNS peer serving `zone`. */
async function serverWithDns(zone: Record<string, DnsRecords>, settings: Partial<LookupSettings> = {}): Promise<TestServer> {
  const dns = await startDnsPeer(zone);
  opened.push(dns);
  const server = await startTestServer({}, { lookup: new LookupService({ resolver: dnsResolver([dns.server]), ...settings }) });
  opened.push(server);
  return server;
}

async function lookup(server: TestServer, address: string): Promise<any> {
  const response = await fetch(`${server.url}/api/lookup?address=${encodeURIComponent(address)}`);
  expect(response.status).toBe(200);
  return json(response);
}

function srv(...targets: Array<[string, number]>): DnsRecords {
  // Listed in reverse, with the first in order having the lowest priority: the order comes from the records.
  return { srv: targets.map(([target, port], i) => ({ priority: i, weight: 0, port, target })).reverse() };
}

describe("SRV targets in turn, then the plain name", () => {
  test("the first SRV target refuses: the second answers, and srv_record names it", async () => {
    const second = await peer("modern");
    const server = await serverWithDns(
      { "_minecraft._tcp.mc.test": srv(["one.test", await refusingPort()], ["two.test", second.port]), "one.test": { a: ["127.0.0.1"] }, "two.test": { a: ["127.0.0.1"] } },
      { allowPrivate: true },
    );
    const body = await lookup(server, "mc.test");
    expect(body).toMatchObject({ online: true, host: "mc.test", port: 25565, ip_address: "127.0.0.1", srv_record: { host: "two.test", port: second.port }, error: null });
    expect(second.connections).toBeGreaterThan(0);
  });

  test("the first SRV target accepts and never answers: the second answers within the 5 s deadline", async () => {
    const silent = await peer("silent");
    const second = await peer("modern");
    const server = await serverWithDns(
      { "_minecraft._tcp.mc.test": srv(["one.test", silent.port], ["two.test", second.port]), "one.test": { a: ["127.0.0.1"] }, "two.test": { a: ["127.0.0.1"] } },
      { allowPrivate: true }, // the default deadline, 5 s
    );
    const started = performance.now();
    const body = await lookup(server, "mc.test");
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(body).toMatchObject({ online: true, srv_record: { host: "two.test", port: second.port } });
    expect(silent.connections).toBeGreaterThan(0);
  }, 10_000);

  test("every SRV target fails: the plain name answers on port 25565, srv_record null", async () => {
    const { peer: plain, ip } = await peerOnGamePort();
    const silent = await peer("silent");
    const server = await serverWithDns(
      {
        "_minecraft._tcp.mc.test": srv(["one.test", await refusingPort()], ["gone.test", 25570], ["three.test", silent.port]),
        "one.test": { a: ["127.0.0.1"] },
        "three.test": { a: ["127.0.0.1"] },
        "mc.test": { a: [ip] },
      },
      { allowPrivate: true, deadlineMs: 2_000 },
    );
    const body = await lookup(server, "mc.test");
    expect(body).toMatchObject({ online: true, host: "mc.test", port: 25565, ip_address: ip, srv_record: null, protocol_used: "modern" });
    expect(silent.connections).toBeGreaterThan(0);
    expect(plain.connections).toBeGreaterThan(0);
  });

  test("nothing answers: the first failure is reported, within the deadline", async () => {
    const silent = await peer("silent");
    const server = await serverWithDns(
      { "_minecraft._tcp.mc.test": srv(["one.test", silent.port], ["two.test", await refusingPort()]), "one.test": { a: ["127.0.0.1"] }, "two.test": { a: ["127.0.0.1"] } },
      { allowPrivate: true, deadlineMs: 900 },
    );
    const started = performance.now();
    const body = await lookup(server, "mc.test");
    expect(performance.now() - started).toBeLessThan(900 + 300);
    expect(body).toMatchObject({ online: false, ip_address: "127.0.0.1", srv_record: { host: "one.test", port: silent.port }, error: { code: "timeout" } });
  });
});

describe("a blocked SRV target reads like a name that does not resolve", () => {
  test("whatever the SRV record points at, the answer is the no-such-host answer, field by field", async () => {
    const target = await peer("modern");
    const server = await serverWithDns({
      "_minecraft._tcp.srv-private.test": srv(["internal.test", 25570]),
      "_minecraft._tcp.srv-loopback.test": srv(["loop.test", target.port], ["internal.test", 25571]),
      "_minecraft._tcp.srv-localhost.test": srv(["localhost", target.port]),
      "_minecraft._tcp.both-private.test": srv(["internal.test", 25572]),
      "both-private.test": { a: ["192.168.1.5"] },
      "_minecraft._tcp.srv-dangling.test": srv(["gone.test", 25573]),
      "internal.test": { a: ["10.0.0.7"], aaaa: ["fd00::7"] },
      "loop.test": { a: ["127.0.0.1"], aaaa: ["::1"] },
    });
    const missing = await lookup(server, "nowhere.test");
    expect(missing).toMatchObject({ online: false, ip_address: null, srv_record: null, error: { code: "no_such_host" } });
    for (const name of ["srv-private.test", "srv-loopback.test", "srv-localhost.test", "both-private.test", "srv-dangling.test"]) {
      const body = await lookup(server, name);
      expect(body).toEqual({ ...missing, host: name, error: { ...missing.error, message: missing.error.message.replace("nowhere.test", name) } });
      const shown = JSON.stringify(body).replaceAll(name, "the typed name");
      expect(shown).not.toMatch(/internal|loop\.test|localhost|gone|10\.0\.0|192\.168|fd00|127\.0|2557\d|PENNANT/);
      expect(shown).not.toContain(String(target.port));
    }
    expect(target.connections).toBe(0);
  });
});
