import { describe, expect, test } from "bun:test";
import { needsSrvLookup, parseAddress } from "../../src/lookup/address.ts";

describe("parseAddress", () => {
  const good: Array<[string, object]> = [
    ["play.example.com", { host: "play.example.com", port: 25565, portGiven: false, kind: "hostname" }],
    ["  Play.Example.COM.  ", { host: "play.example.com", port: 25565, portGiven: false, kind: "hostname" }],
    ["mc.example.com:19132", { host: "mc.example.com", port: 19132, portGiven: true, kind: "hostname" }],
    ["1.2.3.4", { host: "1.2.3.4", port: 25565, portGiven: false, kind: "ipv4" }],
    ["1.2.3.4:25566", { host: "1.2.3.4", port: 25566, portGiven: true, kind: "ipv4" }],
    ["[::1]:25565", { host: "::1", port: 25565, portGiven: true, kind: "ipv6" }],
    ["[2001:db8::1]", { host: "2001:db8::1", port: 25565, portGiven: false, kind: "ipv6" }],
    ["::1", { host: "::1", port: 25565, portGiven: false, kind: "ipv6" }],
    ["2606:4700:4700::1111", { host: "2606:4700:4700::1111", port: 25565, portGiven: false, kind: "ipv6" }],
    ["localhost", { host: "localhost", port: 25565, kind: "hostname" }],
    ["my_server.example.com", { host: "my_server.example.com", kind: "hostname" }],
    ["a".repeat(63) + ".com", { kind: "hostname" }],
    ["host:65535", { port: 65535 }],
    ["host:1", { port: 1 }],
  ];
  for (const [input, expected] of good) {
    test(`accepts ${JSON.stringify(input.length > 40 ? input.slice(0, 20) + "…" : input)}`, () => {
      const parsed = parseAddress(input, 25565);
      expect(parsed.ok).toBe(true);
      expect(parsed).toMatchObject(expected);
    });
  }

  const bad = [
    "",
    "   ",
    "1.2.3.4:0",
    "host:99999",
    "host:65536",
    "host:+1",
    "host:0x10",
    "host:",
    "a..b",
    "-bad.example.com",
    "bad-.example.com",
    "a".repeat(64) + ".com",
    `${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(62)}`, // 254 characters
    "http://x",
    "example.com/path",
    "user@example.com",
    "two words",
    "[::1",
    "[::1]x",
    "[nothex]:1",
    "1.2.3.4.5",
    "999.1.1.1",
    "::1:25565:extra:zz",
  ];
  for (const input of bad) {
    test(`refuses ${JSON.stringify(input.length > 40 ? input.slice(0, 20) + "…" : input)}`, () => {
      const parsed = parseAddress(input, 25565);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.reason.length).toBeGreaterThan(0);
    });
  }

  test("a 253-character name is the longest accepted", () => {
    const name = `${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(61)}`;
    expect(name.length).toBe(253);
    expect(parseAddress(name, 1).ok).toBe(true);
  });

  test("the edition's default port is used when none is typed", () => {
    expect(parseAddress("pe.example.com", 19132)).toMatchObject({ port: 19132, portGiven: false });
  });
});

describe("needsSrvLookup", () => {
  test("only for a host name typed without a port", () => {
    const srv = (input: string) => {
      const parsed = parseAddress(input, 25565);
      return parsed.ok && needsSrvLookup(parsed);
    };
    expect(srv("play.example.com")).toBe(true);
    expect(srv("play.example.com:25565")).toBe(false);
    expect(srv("1.2.3.4")).toBe(false);
    expect(srv("[::1]")).toBe(false);
  });
});
