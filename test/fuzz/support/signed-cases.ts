// Requests to every signed route, each started from a valid one: the deployed
// EzBanners plugin's update (signature over the body, millisecond timestamp,
// both UUID headers), a standard update, a heartbeat, a plugin push, a
// status read and a network named (PUT, its slug in the path), the plugin's
// routes signed the way plugins sign or over method and path (X-Signature-Version: 2),
// the network always over them. Then the body is mutated and, most of the time, signed again
// correctly, so that what is fuzzed is the payload validation behind the
// signature check; or the headers are mutated (signature, timestamp, token,
// UUIDs, content type, duplicates), signed or not.

import { createHmac } from "node:crypto";
import { pluginUpdateBody } from "../../support/ezbanners-client.ts";
import { EDGE_NUMBERS, hostileValue, mutateJson, utf8Bytes } from "./mutate.ts";
import { isWireInvalid, type FuzzRequest } from "./oracle.ts";
import type { Random } from "./random.ts";

export interface SignedContext {
  /** Tokens the database holds (`token create`), of scope all. */
  tokens: readonly string[];
  /** Self-chosen tokens (16+ characters) that open registration may take in. */
  strangers: readonly string[];
  serverUuids: readonly string[];
  pluginUuids: readonly string[];
  /** The server's clock now, in milliseconds; called once per case. */
  now: () => number;
}

type Kind = "ezbanners" | "update" | "heartbeat" | "plugin" | "status" | "network";

interface Draft {
  kind: Kind;
  method: "GET" | "POST" | "PUT";
  path: string;
  token: string;
  tokenHeader: "X-Server-Token" | "X-Plugin-Token";
  /** Byte string. */
  body: string;
  timestamp: string;
  /** "legacy": over the body alone (the deployed plugin); "standard": over "timestamp.body"; "request": over method and target too. */
  scheme: Scheme;
  headers: Array<[string, string]>;
}

type Scheme = "request" | "standard" | "legacy";

function sign(d: Draft): string {
  const message = { request: `${d.method} ${d.path}\n${d.timestamp}.${d.body}`, standard: `${d.timestamp}.${d.body}`, legacy: d.body }[d.scheme];
  return createHmac("sha256", Buffer.from(d.token, "latin1")).update(Buffer.from(message, "latin1")).digest("hex");
}

function standardUpdate(random: Random): object {
  return {
    name: random.pick(["Survival", "§6Gold", "Lobby 中文"]),
    plugin_version: "1.4.2",
    status: random.pick(["online", "offline"]),
    stats: { players: { online: random.int(100), max: 100 }, tps: 19.9, motd: "§aWelcome\n§7line two", version: "1.21.4" },
  };
}

function pluginBody(random: Random): object {
  return {
    plugin: { name: "FuzzPlugin", version: "3.1.0" },
    stats: { servers: random.int(1000), players: random.int(100_000) },
    meta: { status: "active", alpha: { downloads: random.int(1e6), latest_version: "3.1.0" }, code: { stars: 7, open_issues: [] } },
    minecraft_versions: ["1.21.4"],
    server_software: ["paper"],
  };
}

/** The plugin's routes take both: signed the way plugins sign, or over method and path. */
function olderOrRequest(random: Random): Scheme {
  return random.chance(0.5) ? "standard" : "request";
}

function draft(random: Random, ctx: SignedContext): Draft {
  const kind = random.weighted<Kind>([[3, "ezbanners"], [3, "update"], [2, "heartbeat"], [3, "plugin"], [1, "status"], [2, "network"]]);
  const token = random.chance(0.8) ? random.pick(ctx.tokens) : random.pick(ctx.strangers);
  const now = ctx.now();
  const seconds = String(Math.floor(now / 1000));
  const serverUuid = random.pick(ctx.serverUuids);
  switch (kind) {
    case "ezbanners": {
      const body = pluginUpdateBody({ onlinePlayers: random.int(50), uptime: random.chance(0.5) ? random.int(1e9) : undefined });
      const headers: Array<[string, string]> = [["Content-Type", "application/json"], ["User-Agent", "EzBanners/1.0"], ["X-Server-UUID", serverUuid], ["X-Server-Id", serverUuid]];
      return { kind, method: "POST", path: "/api/server/update", token, tokenHeader: "X-Server-Token", body, timestamp: String(now), scheme: "legacy", headers };
    }
    case "update":
    case "heartbeat": {
      const body = JSON.stringify(kind === "update" ? standardUpdate(random) : { name: "Hub", plugin_version: "1.0", status: "online" });
      return { kind, method: "POST", path: `/api/server/${kind}`, token, tokenHeader: "X-Server-Token", body: utf8Bytes(body), timestamp: seconds, scheme: olderOrRequest(random), headers: [["Content-Type", "application/json"], ["X-Server-UUID", serverUuid]] };
    }
    case "plugin":
      return {
        kind, method: "POST", path: `/api/plugins/${random.pick(ctx.pluginUuids)}/data`, token, tokenHeader: "X-Plugin-Token",
        body: utf8Bytes(JSON.stringify(pluginBody(random))), timestamp: seconds, scheme: olderOrRequest(random), headers: [["Content-Type", "application/json"]],
      };
    case "network": {
      const body = { name: random.pick(["Blocky", "§6Gold Network", "网络"]), servers: ctx.serverUuids.filter(() => random.chance(0.4)) };
      const slug = random.pick(["blocky", "Net-2", "a", "x".repeat(40), "-bad", "x".repeat(41), "%E2%82%AC", "a..b"]);
      return { kind, method: "PUT", path: `/api/networks/${slug}`, token, tokenHeader: "X-Server-Token", body: utf8Bytes(JSON.stringify(body)), timestamp: seconds, scheme: "request", headers: [["Content-Type", "application/json"]] };
    }
    default:
      return { kind, method: "GET", path: "/api/server/status", token, tokenHeader: "X-Server-Token", body: "", timestamp: seconds, scheme: olderOrRequest(random), headers: [["X-Server-UUID", serverUuid]] };
  }
}

/** A timestamp at or past the parser's limits, or a real one moved out of the window. */
function hostileTimestamp(random: Random, real: string): string {
  const value = Number(real);
  return random.pick([
    utf8Bytes(random.pick(EDGE_NUMBERS)),
    String(value + 301), String(value - 301), String(value * 1000 + random.int(1000)), String(Math.floor(value / 1000)),
    `${real}.5`, ` ${real} `, `+${real}`, `0${real}`, real.repeat(2), "", "0", "-0", "9".repeat(16), "9".repeat(17), "1e12",
  ]);
}

function hostileSignature(random: Random, signature: string): string {
  const i = random.int(signature.length);
  return random.pick([
    signature.slice(0, i) + (signature[i] === "0" ? "1" : "0") + signature.slice(i + 1),
    signature.toUpperCase(), signature.slice(0, 32), `${signature}00`, "", " ".repeat(64), "g".repeat(64), `sha256=${signature}`,
    Buffer.from(signature, "hex").toString("base64"), hostileValue(random, 300),
  ]);
}

function setHeader(headers: Array<[string, string]>, name: string, value: string | null): void {
  const at = headers.findIndex(([key]) => key.toLowerCase() === name.toLowerCase());
  if (value === null) {
    if (at >= 0) headers.splice(at, 1);
  } else if (at >= 0) headers[at] = [headers[at]![0], value];
  else headers.push([name, value]);
}

/** Header mutations that keep the request signable (decided before signing). */
function mutateAuthInputs(random: Random, d: Draft, ctx: SignedContext): void {
  switch (random.int(6)) {
    case 0:
      d.timestamp = hostileTimestamp(random, d.timestamp);
      break;
    case 1:
      d.token = random.pick([...ctx.tokens, ...ctx.strangers, "short", "tok en with spaces 1234", "x".repeat(257), hostileValue(random, 300)]);
      break;
    case 2:
      d.tokenHeader = d.tokenHeader === "X-Server-Token" ? "X-Plugin-Token" : "X-Server-Token";
      break;
    case 3: {
      const uuid = random.pick(ctx.serverUuids);
      setHeader(d.headers, random.pick(["X-Server-UUID", "X-Server-Id"]), random.pick([uuid.toUpperCase(), uuid.replaceAll("-", ""), `{${uuid}}`, "", "not-a-uuid", hostileValue(random, 100), random.pick(ctx.serverUuids)]));
      break;
    }
    case 4:
      setHeader(d.headers, "Content-Type", random.pick(["application/json; charset=utf-8", "APPLICATION/JSON", "text/plain", "application/json-patch+json", "", "application/json;", ";charset=utf-8", hostileValue(random, 100), null] as const));
      break;
    default:
      d.scheme = random.pick(["request", "standard", "legacy"] as const);
  }
}

/** Header mutations after signing: the signature itself, duplicates, removals, junk. */
function mutateSignedHeaders(random: Random, headers: Array<[string, string]>): void {
  const i = random.int(headers.length);
  switch (random.int(5)) {
    case 0: {
      const at = headers.findIndex(([name]) => name === "X-Signature");
      if (at >= 0) headers[at]![1] = hostileSignature(random, headers[at]![1]);
      break;
    }
    case 1:
      headers.splice(i, 0, [headers[i]![0], random.chance(0.5) ? headers[i]![1] : hostileValue(random, 80)]);
      break;
    case 2:
      headers.splice(i, 1);
      break;
    case 3:
      headers[i] = [random.pick([headers[i]![0].toLowerCase(), headers[i]![0].toUpperCase(), `${headers[i]![0]} `]), headers[i]![1]];
      break;
    default:
      headers.push([random.pick(["X-Forwarded-For", "X-Junk", "Expect", "Connection", "Cookie"]), random.pick(["1.2.3.4", "100-continue", "close", hostileValue(random, 2000), "x".repeat(random.length(20_000))])]);
  }
}

/** One signed request: valid, or its body and/or headers mutated. */
export function signedCase(random: Random, ctx: SignedContext): FuzzRequest {
  const d = draft(random, ctx);
  const withBody = d.method !== "GET";
  const mutateBody = withBody && random.chance(0.6);
  if (mutateBody) d.body = mutateJson(random, JSON.parse(Buffer.from(d.body, "latin1").toString("utf8")), 4);
  if (random.chance(0.3)) mutateAuthInputs(random, d, ctx);
  const headers: Array<[string, string]> = [...d.headers, [d.tokenHeader, d.token], ["X-Timestamp", d.timestamp]];
  headers.push(["X-Signature", sign(d)]);
  if (d.scheme === "request") headers.push(["X-Signature-Version", "2"]);
  if (random.chance(0.25)) mutateSignedHeaders(random, headers);
  // A header that would end the head or start a body of its own is no fuzz of ours, it is another request.
  const safe = headers.filter(([name, value]) => !/^(content-length|transfer-encoding)$/i.test(name.trim()) || value === "");
  const body = withBody ? Buffer.from(d.body, "latin1") : undefined;
  return { method: d.method, target: d.path, headers: safe, body, wireInvalid: isWireInvalid(d.method, d.path, safe) };
}
