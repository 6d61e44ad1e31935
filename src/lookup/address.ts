// Server addresses as people type them: `host`, `host:port`, `[v6]:port`,
// `[v6]`, a bare IPv4 or a bare IPv6 literal. Anything else (URLs, paths,
// spaces, ports out of range) is refused with a reason a person can act on.

import { isIPv4, isIPv6 } from "node:net";

export type AddressKind = "ipv4" | "ipv6" | "hostname";

export type ParsedAddress =
  | { ok: true; host: string; port: number; portGiven: boolean; kind: AddressKind }
  | { ok: false; reason: string };

export const MAX_HOSTNAME_LENGTH = 253;
// Letters, digits and hyphens, not at either end; underscores too, since
// real DNS names (and SRV owner names) carry them.
const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;

function fail(reason: string): ParsedAddress {
  return { ok: false, reason };
}

function parsePort(text: string): number | null {
  if (!/^\d{1,5}$/.test(text)) return null;
  const port = Number(text);
  return port >= 1 && port <= 65_535 ? port : null;
}

function checkHostname(host: string): string | null {
  const name = host.endsWith(".") ? host.slice(0, -1) : host;
  if (name.length === 0 || name.length > MAX_HOSTNAME_LENGTH) return null;
  const labels = name.split(".");
  if (!labels.every((label) => LABEL.test(label))) return null;
  // An all-numeric name that is not a valid IPv4 ("1.2.3", "999.1.1.1") is a typo, not a host.
  if (labels.every((label) => /^\d+$/.test(label))) return null;
  return name;
}

export function parseAddress(input: string, defaultPort: number): ParsedAddress {
  const text = input.trim().toLowerCase();
  if (text === "") return fail("the address is empty");
  if (/[\s/@?#]/.test(text) || text.includes("://")) return fail("give a host name or IP, with an optional :port, not a URL");

  let host: string;
  let portText: string | null = null;
  if (text.startsWith("[")) {
    const close = text.indexOf("]");
    if (close === -1) return fail("an IPv6 address in brackets needs its closing ]");
    host = text.slice(1, close);
    const rest = text.slice(close + 1);
    if (rest !== "") {
      if (!rest.startsWith(":")) return fail("only :port may follow a bracketed IPv6 address");
      portText = rest.slice(1);
    }
    if (!isIPv6(host)) return fail(`${host} is not an IPv6 address`);
  } else if (text.split(":").length > 2) {
    // Several colons and no brackets: the whole text is an IPv6 literal.
    if (!isIPv6(text)) return fail("an IPv6 address with a port must be written [address]:port");
    host = text;
  } else {
    const colon = text.indexOf(":");
    host = colon === -1 ? text : text.slice(0, colon);
    portText = colon === -1 ? null : text.slice(colon + 1);
  }

  let port = defaultPort;
  if (portText !== null) {
    const parsed = parsePort(portText);
    if (parsed === null) return fail(`the port must be a number from 1 to 65535, got "${portText}"`);
    port = parsed;
  }
  const portGiven = portText !== null;

  if (isIPv4(host)) return { ok: true, host, port, portGiven, kind: "ipv4" };
  if (isIPv6(host)) return { ok: true, host, port, portGiven, kind: "ipv6" };
  const name = checkHostname(host);
  if (name === null) return fail(`"${host}" is not a valid host name`);
  return { ok: true, host: name, port, portGiven, kind: "hostname" };
}

/** SRV `_minecraft._tcp.<host>` is asked only when no port was typed and the host is a name. */
export function needsSrvLookup(address: { kind: AddressKind; portGiven: boolean }): boolean {
  return address.kind === "hostname" && !address.portGiven;
}
