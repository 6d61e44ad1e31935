// The DNS resolver against a local DNS server: A and AAAA together, SRV, and a
// silent server whose queries are cancelled (not left to time out) on abort.

import { describe, expect, test } from "bun:test";
import { dnsResolver, loopbackAddresses, orderSrv, within } from "../../src/lookup/dns.ts";
import { startDnsPeer } from "../support/dns-peer.ts";

function never(): AbortSignal {
  return new AbortController().signal;
}

describe("dnsResolver", () => {
  test("answers the A and AAAA records of a name, IPv4 first", async () => {
    const dns = await startDnsPeer({ "play.example.com": { a: ["203.0.113.7"], aaaa: ["2001:db8::7"] } });
    try {
      expect(await dnsResolver([dns.server]).addresses("play.example.com", never())).toEqual(["203.0.113.7", "2001:db8::7"]);
      expect(dns.questions.sort()).toEqual(["play.example.com 1", "play.example.com 28"]);
    } finally {
      dns.close();
    }
  });

  test("a name without records has no addresses; SRV records are read, none is []", async () => {
    const dns = await startDnsPeer({
      "_minecraft._tcp.mc.example.com": { srv: [{ priority: 0, weight: 5, port: 25570, target: "node1.example.com" }] },
      "v4only.example.com": { a: ["198.51.100.1"] },
    });
    try {
      const resolver = dnsResolver([dns.server]);
      expect(await resolver.addresses("nothing.example.com", never())).toEqual([]);
      expect(await resolver.addresses("v4only.example.com", never())).toEqual(["198.51.100.1"]);
      expect(await resolver.srv("_minecraft._tcp.mc.example.com", never())).toEqual([{ host: "node1.example.com", port: 25570, priority: 0, weight: 5 }]);
      expect(await resolver.srv("_minecraft._tcp.none.example.com", never())).toEqual([]);
    } finally {
      dns.close();
    }
  });

  test("a query the server never answers is cancelled when the signal aborts", async () => {
    const dns = await startDnsPeer({}, { silent: true });
    try {
      const deadline = new AbortController();
      const asked = dnsResolver([dns.server]).addresses("slow.example.com", deadline.signal);
      while (dns.questions.length < 2) await Bun.sleep(5);
      deadline.abort();
      // ECANCELLED comes only from cancel(): the query was withdrawn, not left to its own
      // timeout (2 s a try here; the 1 s wait is a safety net, not a measurement).
      const outcome = asked.then(() => "answered", (error: NodeJS.ErrnoException) => error.code);
      expect(await within(outcome, 1000, "still waiting")).toBe("ECANCELLED");
    } finally {
      dns.close();
    }
  });

  test("an already aborted signal asks nothing", async () => {
    const dns = await startDnsPeer({ "x.example.com": { a: ["198.51.100.1"] } });
    try {
      const aborted = AbortSignal.abort();
      await expect(dnsResolver([dns.server]).addresses("x.example.com", aborted)).rejects.toThrow();
      expect(dns.questions).toEqual([]);
    } finally {
      dns.close();
    }
  });
});

describe("names that never reach DNS", () => {
  test("localhost and names under it are loopback (RFC 6761)", () => {
    expect(loopbackAddresses("localhost")).toEqual(["127.0.0.1", "::1"]);
    expect(loopbackAddresses("mc.localhost")).toEqual(["127.0.0.1", "::1"]);
    expect(loopbackAddresses("localhost.example.com")).toBeNull();
    expect(loopbackAddresses("notlocalhost")).toBeNull();
  });
});

describe("orderSrv", () => {
  test("lowest priority first, then the heaviest weight", () => {
    const records = [
      { host: "c", port: 1, priority: 10, weight: 100 },
      { host: "b", port: 1, priority: 0, weight: 1 },
      { host: "a", port: 1, priority: 0, weight: 50 },
    ];
    expect(orderSrv(records).map((record) => record.host)).toEqual(["a", "b", "c"]);
  });
});
