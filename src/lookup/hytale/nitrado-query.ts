// The Nitrado Query plugin (nitrado/hytale-plugin-query, the one the Hytale
// server manual recommends): `GET /Nitrado/Query` on the Nitrado WebServer
// plugin's port, the game port + 3, answered in JSON when asked with its
// versioned type in Accept (README "API Versioning"; without it, 406). Each
// section is there only if the server grants it to anonymous requests
// (`nitrado.query.web.read.*` in the ANONYMOUS group): Basic {Name, Version,
// MaxPlayers, CurrentPlayers} (1.1), Server {Name, Version, ProtocolVersion,
// MaxPlayers, ...}, Universe {CurrentPlayers, DefaultWorld}, Players (a list in
// 1.1, an object keyed by UUID in 1.0; QueryResponseV1.java, QueryServlet.java)
// and Plugins, keyed by identifier. Nothing granted: a login redirect or 401.
//
// The players online are Universe's count, else Basic's, else how many Players
// lists: gamedig reads Universe alone and says 0 with names listed when Universe
// is not granted (gamedig issue #755).
//
// TLS: the WebServer makes itself a self-signed certificate by default, so no
// certificate is checked, here only: this read-only request carries nothing
// secret (never do this for a request that does). A WebServer with TLS off
// (`Tls.Insecure`, as LGSL #271 advises) speaks plain HTTP on the same port: a
// failed TLS handshake is followed by one plain request (gamedig PR #750 also
// falls back to HTTP). The address is the checked IP; the name typed goes in
// Host and as TLS's server name. No redirect is followed, the body is read up to
// a bound, and no connection is kept: every path closes the socket.

import { isIP } from "node:net";
import { boundedText } from "../../bounded-body.ts";
import type { Failure, FailureReason } from "../tcp-conversation.ts";
import { elapsedSince, playerCount, type HytaleAnswer, type HytaleStatus, type HytaleWayOptions } from "./hytale-status.ts";

export const NITRADO_ACCEPT = "application/x.hytale.nitrado.query+json;version=1";
export const NITRADO_PATH = "/Nitrado/Query";
/** Pretty-printed JSON of ~2,000 players and their plugins; a longer body is refused. */
export const NITRADO_MAX_BODY_BYTES = 256 * 1024;

type Json = Record<string, unknown>;

function section(value: unknown): Json | null {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : null;
}

function text(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

/** A count where the JSON has one; a negative, fractional or huge one is a lie (thrown). */
function count(value: unknown, what: string): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== "number") throw new Error(`${what} is not a number`);
  return playerCount(value, what);
}

function playerNames(players: unknown): string[] | null {
  const entries = Array.isArray(players) ? players : section(players) ? Object.values(players as Json) : null;
  return entries && entries.map((entry) => text(section(entry)?.Name)).filter((name): name is string => name !== null);
}

/** The status a Nitrado Query JSON document gives; fields a section not granted would carry stay null. */
export function parseNitradoQuery(document: unknown, latencyMs: number): HytaleStatus {
  const json = section(document);
  if (!json) throw new Error("the Nitrado Query answer is not a JSON object");
  const [basic, server, universe, plugins] = [section(json.Basic), section(json.Server), section(json.Universe), section(json.Plugins)];
  const names = playerNames(json.Players);
  const online = count(universe?.CurrentPlayers, "Universe.CurrentPlayers") ?? count(basic?.CurrentPlayers, "Basic.CurrentPlayers") ?? names?.length ?? null;
  const max = count(server?.MaxPlayers, "Server.MaxPlayers") ?? count(basic?.MaxPlayers, "Basic.MaxPlayers");
  return {
    source: "nitrado",
    motd: null,
    version: text(server?.Version) ?? text(basic?.Version),
    protocol: typeof server?.ProtocolVersion === "number" && Number.isInteger(server.ProtocolVersion) ? server.ProtocolVersion : null,
    players: online !== null && max !== null ? { online, max } : null,
    sample: names ?? [],
    plugins: Object.entries(plugins ?? {}).map(([name, plugin]) => ({ name, version: text(section(plugin)?.Version) })),
    map: text(universe?.DefaultWorld),
    latencyMs,
  };
}

function failure(reason: FailureReason, message: string): Failure {
  return { ok: false, reason, message };
}

/** `port` is the WebServer's (the game port + 3). */
export interface NitradoOptions extends HytaleWayOptions {
  /** The name typed: Host and TLS's server name. */
  hostname: string;
}

function bracketed(host: string): string {
  return isIP(host) === 6 ? `[${host}]` : host;
}

/** One request; null when `https` met a server that does not speak TLS. */
async function request(scheme: "https" | "http", options: NitradoOptions, signal: AbortSignal): Promise<HytaleAnswer | null> {
  const sentAt = performance.now();
  let body: string | null;
  try {
    const response = await fetch(`${scheme}://${bracketed(options.ip)}:${options.port}${NITRADO_PATH}`, {
      headers: { Host: `${bracketed(options.hostname)}:${options.port}`, Accept: NITRADO_ACCEPT, "User-Agent": "Pennant-Lookup" },
      redirect: "manual",
      keepalive: false,
      signal,
      // Self-signed by default (see above): this request alone checks no certificate.
      tls: { rejectUnauthorized: false, ...(isIP(options.hostname) === 0 ? { serverName: options.hostname } : {}) },
    });
    if (response.status !== 200) {
      await response.body?.cancel();
      return failure("refused", `Nitrado Query answered ${response.status} (nothing granted to anonymous requests?)`);
    }
    body = await boundedText(response, NITRADO_MAX_BODY_BYTES);
  } catch (error) {
    const { code, name } = (error ?? {}) as { code?: unknown; name?: unknown };
    if (scheme === "https" && code === "EPROTO") return null;
    if (name === "TimeoutError" || name === "AbortError") return failure("timeout", `no Nitrado Query answer within ${options.timeoutMs} ms`);
    if (code === "ECONNREFUSED") return failure("refused", "connection refused");
    return failure("unreachable", error instanceof Error ? error.message : "the request failed");
  }
  if (body === null) return failure("bad_reply", `a Nitrado Query answer over ${NITRADO_MAX_BODY_BYTES} bytes`);
  try {
    return { ok: true, status: parseNitradoQuery(JSON.parse(body), elapsedSince(sentAt)) };
  } catch (error) {
    return failure("bad_reply", error instanceof Error ? error.message : "unreadable Nitrado Query answer");
  }
}

export async function askNitrado(options: NitradoOptions): Promise<HytaleAnswer> {
  const signal = AbortSignal.any([AbortSignal.timeout(options.timeoutMs), ...(options.signal ? [options.signal] : [])]);
  // A failed TLS handshake: the WebServer may speak plain HTTP (TLS off).
  return (await request("https", options, signal)) ?? (await request("http", options, signal)) ?? failure("bad_reply", "not HTTP");
}
