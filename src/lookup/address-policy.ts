// Which IP addresses a public lookup service may contact. Everything that is
// not plainly a public unicast address is refused by default: private and
// loopback ranges, link-local (cloud metadata lives at 169.254.169.254),
// carrier-grade NAT, multicast, reserved and documentation ranges, and the
// IPv6 forms that embed an IPv4 address (mapped, compatible, NAT64, 6to4),
// which are judged by the address they embed.

import { isIPv4, isIPv6 } from "node:net";

export type AddressClass =
  | "public"
  | "unspecified"
  | "loopback"
  | "private"
  | "link-local"
  | "cgnat"
  | "multicast"
  | "reserved"
  | "documentation"
  | "invalid";

/** [first address as a 32-bit number, prefix length, class], checked in order. */
const IPV4_RANGES: Array<[string, number, AddressClass]> = [
  ["0.0.0.0", 8, "unspecified"],
  ["10.0.0.0", 8, "private"],
  ["100.64.0.0", 10, "cgnat"],
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "link-local"],
  ["172.16.0.0", 12, "private"],
  ["192.0.0.0", 24, "reserved"], // IETF protocol assignments
  ["192.0.2.0", 24, "documentation"],
  ["192.88.99.0", 24, "reserved"], // old 6to4 relay anycast
  ["192.168.0.0", 16, "private"],
  ["198.18.0.0", 15, "reserved"], // benchmarking
  ["198.51.100.0", 24, "documentation"],
  ["203.0.113.0", 24, "documentation"],
  ["224.0.0.0", 4, "multicast"],
  ["240.0.0.0", 4, "reserved"], // includes 255.255.255.255
];

function ipv4Number(ip: string): number {
  return ip.split(".").reduce((value, part) => value * 256 + Number(part), 0);
}

const IPV4_TABLE = IPV4_RANGES.map(([start, prefix, kind]) => {
  const size = 2 ** (32 - prefix);
  return { start: ipv4Number(start), size, kind };
});

function classifyIpv4(ip: string): AddressClass {
  const value = ipv4Number(ip);
  const range = IPV4_TABLE.find((entry) => value >= entry.start && value < entry.start + entry.size);
  return range?.kind ?? "public";
}

/** Eight 16-bit groups of an IPv6 address (zone id dropped), or null. */
export function ipv6Groups(ip: string): number[] | null {
  let text = ip.split("%")[0]!;
  if (!isIPv6(text)) return null;
  // A trailing dotted quad stands for the last two groups.
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (quad) {
    const value = ipv4Number(quad[1]!);
    text = `${text.slice(0, quad.index)}${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.split("::") as [string, string | undefined];
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((group) => Number.parseInt(group, 16)));
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  const missing = 8 - left.length - right.length;
  return [...left, ...Array<number>(tail === undefined ? 0 : missing).fill(0), ...right];
}

function embeddedIpv4(high: number, low: number): string {
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");
}

function classifyIpv6(ip: string): AddressClass {
  const g = ipv6Groups(ip);
  if (!g || g.length !== 8) return "invalid";
  const [a, b, c, d, e, f, h6, h7] = g as [number, number, number, number, number, number, number, number];
  const zeroPrefix = a === 0 && b === 0 && c === 0 && d === 0 && e === 0;
  if (zeroPrefix && f === 0) {
    if (h6 === 0 && h7 === 0) return "unspecified";
    if (h6 === 0 && h7 === 1) return "loopback";
    return classifyIpv4(embeddedIpv4(h6, h7)); // IPv4-compatible ::a.b.c.d (deprecated)
  }
  if (zeroPrefix && f === 0xffff) return classifyIpv4(embeddedIpv4(h6, h7)); // IPv4-mapped
  if (a === 0x64 && b === 0xff9b && c === 0 && d === 0 && e === 0 && f === 0) {
    return classifyIpv4(embeddedIpv4(h6, h7)); // NAT64 well-known prefix 64:ff9b::/96
  }
  if (a === 0x64 && b === 0xff9b && c === 1) return "private"; // local-use NAT64 64:ff9b:1::/48
  if (a === 0x2002) return classifyIpv4(embeddedIpv4(b, c)); // 6to4 carries the IPv4 in groups 2-3
  if ((a & 0xff00) === 0xff00) return "multicast";
  if ((a & 0xffc0) === 0xfe80) return "link-local";
  if ((a & 0xffc0) === 0xfec0) return "reserved"; // deprecated site-local
  if ((a & 0xfe00) === 0xfc00) return "private"; // unique local fc00::/7
  if (a === 0x2001 && b === 0x0db8) return "documentation";
  if (a === 0x3fff && (b & 0xf000) === 0) return "documentation"; // 3fff::/20
  if (a === 0x0100 && b === 0 && c === 0 && d === 0) return "reserved"; // discard-only 100::/64
  if (a === 0x2001 && b < 0x0200) return "reserved"; // IETF protocol assignments 2001::/23 (Teredo included)
  if ((a & 0xe000) !== 0x2000) return "reserved"; // only 2000::/3 is global unicast
  return "public";
}

/**
 * One spelling per address, so that two spellings compare equal: IPv4 as is,
 * IPv6 as its eight groups in full (zone dropped). Null when not an IP.
 */
export function canonicalIp(ip: string): string | null {
  if (isIPv4(ip)) return ip;
  return ipv6Groups(ip)?.map((group) => group.toString(16)).join(":") ?? null;
}

export function sameIp(a: string, b: string): boolean {
  const canonical = canonicalIp(a);
  return canonical !== null && canonical === canonicalIp(b);
}

export function classifyIp(ip: string): AddressClass {
  const bare = ip.startsWith("[") && ip.endsWith("]") ? ip.slice(1, -1) : ip;
  if (isIPv4(bare)) return classifyIpv4(bare);
  return classifyIpv6(bare);
}

export function isPublicIp(ip: string): boolean {
  return classifyIp(ip) === "public";
}
