import { describe, expect, test } from "bun:test";
import { classifyIp, ipv6Groups, isPublicIp, sameIp, type AddressClass } from "../../src/lookup/address-policy.ts";

const cases: Array<[string, AddressClass]> = [
  ["8.8.8.8", "public"],
  ["1.1.1.1", "public"],
  ["0.0.0.0", "unspecified"],
  ["0.255.255.255", "unspecified"],
  ["1.0.0.0", "public"],
  ["9.255.255.255", "public"],
  ["10.0.0.0", "private"],
  ["10.255.255.255", "private"],
  ["11.0.0.0", "public"],
  ["100.63.255.255", "public"],
  ["100.64.0.0", "cgnat"],
  ["100.127.255.255", "cgnat"],
  ["100.128.0.0", "public"],
  ["126.255.255.255", "public"],
  ["127.0.0.1", "loopback"],
  ["127.255.255.254", "loopback"],
  ["128.0.0.0", "public"],
  ["169.253.255.255", "public"],
  ["169.254.169.254", "link-local"],
  ["169.255.0.0", "public"],
  ["172.15.255.255", "public"],
  ["172.16.0.0", "private"],
  ["172.31.255.255", "private"],
  ["172.32.0.0", "public"],
  ["192.0.0.8", "reserved"],
  ["192.0.2.1", "documentation"],
  ["192.88.99.1", "reserved"],
  ["192.167.255.255", "public"],
  ["192.168.0.0", "private"],
  ["192.168.255.255", "private"],
  ["192.169.0.0", "public"],
  ["198.17.255.255", "public"],
  ["198.18.0.0", "reserved"],
  ["198.19.255.255", "reserved"],
  ["198.20.0.0", "public"],
  ["198.51.100.7", "documentation"],
  ["203.0.113.9", "documentation"],
  ["223.255.255.255", "public"],
  ["224.0.0.1", "multicast"],
  ["239.255.255.255", "multicast"],
  ["240.0.0.1", "reserved"],
  ["255.255.255.255", "reserved"],
  ["::", "unspecified"],
  ["::1", "loopback"],
  ["[::1]", "loopback"],
  ["::ffff:127.0.0.1", "loopback"],
  ["::ffff:7f00:1", "loopback"],
  ["::ffff:10.0.0.1", "private"],
  ["::ffff:8.8.8.8", "public"],
  ["::127.0.0.1", "loopback"],
  ["64:ff9b::a00:1", "private"],
  ["64:ff9b::10.0.0.1", "private"],
  ["64:ff9b::808:808", "public"],
  ["64:ff9b:1::1", "private"],
  ["2002:c0a8:0101::", "private"],
  ["2002:0808:0808::1", "public"],
  ["fe80::1", "link-local"],
  ["fe80::1%eth0", "link-local"],
  ["febf::1", "link-local"],
  ["fc00::1", "private"],
  ["fd12:3456::1", "private"],
  ["ff02::1", "multicast"],
  ["2001:db8::1", "documentation"],
  ["3fff::1", "documentation"], // 3fff::/20, documentation since RFC 9637
  ["3fff:fff:ffff::1", "documentation"],
  ["3fff:1000::1", "public"], // just past the /20
  ["2001::1", "reserved"],
  ["2001:0:4136:e378::1", "reserved"],
  ["100::1", "reserved"],
  ["2606:4700:4700::1111", "public"],
  ["2a00:1450:4001:80b::200e", "public"],
  ["4000::1", "reserved"],
  ["not an ip", "invalid"],
  ["", "invalid"],
  ["[::1", "invalid"],
  ["1::1]", "invalid"],
  // Embedded IPv4 addresses whose last part has more than one digit.
  ["::ffff:10.0.0.10", "private"],
  ["64:ff9b::192.168.1.100", "private"],
  // Near misses of every special IPv6 range: one group off is judged on its own.
  ["0:1::808:808", "reserved"],
  ["0:0:1::808:808", "reserved"],
  ["0:0:0:1::808:808", "reserved"],
  ["::1:0:808:808", "reserved"],
  ["::1:808:808", "reserved"],
  ["fe80::ffff:808:808", "link-local"],
  ["2001:db8::ffff:808:808", "documentation"],
  ["::10.0.0.0", "private"], // IPv4-compatible: the embedded address decides
  ["::10.0.0.1", "private"],
  ["::0.0.0.2", "unspecified"],
  ["64::808:808", "reserved"],
  ["65:ff9b::808:808", "reserved"],
  ["64:1::808:808", "reserved"],
  ["64:ff9b:0:1::808:808", "reserved"],
  ["64:ff9b::1:0:808:808", "reserved"],
  ["64:ff9b::1:808:808", "reserved"],
  ["64::1", "reserved"],
  ["65:ff9b:1::1", "reserved"],
  ["64:1:1::1", "reserved"],
  ["64:ff9b:2::1", "reserved"],
  ["2606:4700:1::1", "public"],
  ["fec0::1", "reserved"],
  ["2606:db8::1", "public"],
  ["2606::1", "public"],
  ["2606:100::1", "public"],
  ["2001:4860:4860::8888", "public"],
  ["2001:1ff:ffff::1", "reserved"], // the end of 2001::/23
  ["2001:200::1", "public"], // just past it
];

describe("classifyIp", () => {
  for (const [ip, kind] of cases) {
    test(`${ip || "(empty)"} is ${kind}`, () => {
      expect(classifyIp(ip)).toBe(kind);
      expect(isPublicIp(ip)).toBe(kind === "public");
    });
  }
});

describe("ipv6Groups", () => {
  test("expands ::, keeps groups, reads an embedded dotted quad, drops a zone", () => {
    expect(ipv6Groups("::1")).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(ipv6Groups("1:2:3:4:5:6:7:8")).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(ipv6Groups("::ffff:1.2.3.4")).toEqual([0, 0, 0, 0, 0, 0xffff, 0x0102, 0x0304]);
    expect(ipv6Groups("fe80::1%eth0")).toEqual([0xfe80, 0, 0, 0, 0, 0, 0, 1]);
    expect(ipv6Groups("1.2.3.4")).toBeNull();
    expect(ipv6Groups("::ffff:1.2.3.45")).toEqual([0, 0, 0, 0, 0, 0xffff, 0x0102, 0x032d]);
  });
});

describe("sameIp", () => {
  test("compares spellings of one address, not text", () => {
    expect(sameIp("::1", "0:0:0:0:0:0:0:1")).toBe(true);
    expect(sameIp("2001:DB8::A", "2001:db8:0:0:0:0:0:a")).toBe(true);
    expect(sameIp("::ffff:1.2.3.4", "::ffff:102:304")).toBe(true);
    expect(sameIp("127.0.0.1", "127.0.0.1")).toBe(true);
    expect(sameIp("::1", "::2")).toBe(false);
    expect(sameIp("127.0.0.1", "127.0.0.2")).toBe(false);
    expect(sameIp("not an ip", "not an ip")).toBe(false);
    expect(sameIp("1:23::", "12:3::")).toBe(false);
  });
});
