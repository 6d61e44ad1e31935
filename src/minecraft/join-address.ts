// A server's join address as players type it into the game's "Add Server"
// box: the host in lower case, `:port` only when it is not the edition's
// default port (the game fills that in), an IPv6 literal in brackets (the
// game reads `[::1]:25566`; without brackets a port could not be told apart).

import { isIPv6 } from "node:net";
import type { Edition } from "./edition.ts";

/** The port the game uses when none is typed. */
export const DEFAULT_PORTS: Record<Edition, number> = { java: 25565, bedrock: 19132, hytale: 5520 };

/** Longest address kept: a DNS name (253) and a port. */
const MAX_ADDRESS_CHARS = 260;
/** Letters, digits, hyphens, underscores and dots: a host name or an IPv4 address. */
const HOST = /^[a-z0-9_](?:[a-z0-9_.-]*[a-z0-9_])?$/;

function portOf(text: string | undefined): number | null {
  if (text === undefined) return null;
  if (!/^\d{1,5}$/.test(text)) return Number.NaN;
  const port = Number(text);
  return port >= 1 && port <= 65_535 ? port : Number.NaN;
}

/**
 * `input` (`host`, `host:port`, `[v6]`, `[v6]:port` or a bare IPv6) as
 * players type it for `edition`; null when it is not an address (a URL,
 * spaces, a bad port), so that nothing odd is drawn as one.
 */
export function joinAddress(input: string, edition: Edition): string | null {
  const text = input.trim().toLowerCase();
  if (text.length === 0 || text.length > MAX_ADDRESS_CHARS) return null;
  let host: string, portText: string | undefined;
  const bracketed = /^\[([^\]]+)\](?::(.*))?$/.exec(text);
  if (bracketed) [, host = "", portText] = bracketed;
  else if (text.split(":").length > 2) host = text;
  else [host = "", portText] = text.split(":");
  const port = portOf(portText);
  if (Number.isNaN(port)) return null;
  const v6 = isIPv6(host);
  if (bracketed && !v6) return null;
  // A trailing dot (a fully qualified name) is not typed by players.
  const name = v6 ? host : host.replace(/\.$/, "");
  if (!v6 && !HOST.test(name)) return null;
  const shown = v6 ? `[${name}]` : name;
  return port === null || port === DEFAULT_PORTS[edition] ? shown : `${shown}:${port}`;
}
