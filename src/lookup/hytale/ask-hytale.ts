// Asking a Hytale server every published way at once (issue 41), within the
// lookup's deadline, and keeping the richest answer:
//   HyQuery/OneQuery v2 (UDP, game port)      hyquery-v2.ts
//   HyQuery v1, both variants (UDP, game port) hyquery-v1.ts
//   Nitrado Query (HTTPS, game port + 3)      nitrado-query.ts
//   the Minecraft status ping (TCP, game port; the PingProtocol plugin) ../java-status.ts
//   A2S_INFO (UDP, game port + 1)             a2s-info.ts
//   a QUIC Version Negotiation (UDP, game port: any Hytale server) quic-probe.ts
// Each is cheap (a datagram or two; one TCP or TLS connection), so all start
// together: 4 UDP sockets and 2 TCP connections, each closed when the lookup
// answers, whichever way.
//
// The richest answer: one with the players' numbers beats one without (a
// banner's main figure), then the order above (v2 carries the most: MOTD,
// version, protocol, players, names; QUIC only that the server is up). The
// answer comes as soon as no way still running could beat the best one; a
// richer way still running gets until RICHER_WAIT_ROUND_TRIPS times the first
// answer's time, plus RICHER_WAIT_FLOOR_MS (the slowest way, Nitrado over TLS,
// needs about 4 round trips where the QUIC probe needs 1). Nothing answering:
// offline once every way has failed, at the deadline at the latest.

import { pingJavaStatus, type JavaStatusResult } from "../java-status.ts";
import { fromHytale, fromModern, offline, type LookupResult, type Target } from "../result.ts";
import { askA2sInfo } from "./a2s-info.ts";
import { HYTALE_SOURCES, type HytaleAnswer, type HytaleSource } from "./hytale-status.ts";
import { askHyQuery1 } from "./hyquery-v1.ts";
import { askHyQuery2 } from "./hyquery-v2.ts";
import { askNitrado } from "./nitrado-query.ts";
import { probeQuic } from "./quic-probe.ts";

/** Where the plugins listen, from the game port (Nitrado's WebServer: + 3; A2S plugins: + 1). */
export const HYTALE_PORT_OFFSETS = { nitrado: 3, a2s: 1 } as const;
export const RICHER_WAIT_ROUND_TRIPS = 4;
export const RICHER_WAIT_FLOOR_MS = 250;

export interface HytaleEndpoint {
  /** The checked IP (never a name: no second DNS answer). */
  ip: string;
  /** The game port. */
  port: number;
  /** The name typed: the ping's handshake, Nitrado's Host and TLS server name. */
  hostname: string;
}

/** Lower is richer: the players' numbers first, then the ways' order. */
function richness(result: LookupResult): number {
  return (result.players ? 0 : HYTALE_SOURCES.length) + HYTALE_SOURCES.indexOf(result.source ?? "quic");
}

/** The best a way still running could answer: its place in the order, with players. */
const bestPossible = (source: HytaleSource) => HYTALE_SOURCES.indexOf(source);

/** What the lookup answers when no way did: a lie told is worth saying; else, when any way timed out, the time it waited. */
function noAnswer(target: Target, failures: readonly LookupResult[], timeoutMs: number): LookupResult {
  const badReply = failures.find((failure) => failure.error?.code === "bad_reply");
  if (badReply) return badReply;
  if (failures.length === 0 || failures.some((failure) => failure.error?.code === "timeout")) {
    return offline(target, "timeout", `no Hytale answer within ${timeoutMs} ms (asked HyQuery, Nitrado Query, the status ping, A2S and QUIC)`);
  }
  return failures[0]!;
}

function fromAnswer(target: Target, answer: HytaleAnswer): LookupResult {
  return answer.ok ? fromHytale(target, answer.status) : offline(target, answer.reason, answer.message);
}

function fromPing(target: Target, answer: JavaStatusResult): LookupResult {
  return answer.ok ? { ...fromModern(target, answer.status, answer.latencyMs), source: "ping" } : offline(target, answer.reason, answer.message);
}

/** The ways to ask `endpoint`, each a promise that never rejects; a plugin port past 65535 is not asked. */
function ways(target: Target, endpoint: HytaleEndpoint, timeoutMs: number, signal: AbortSignal): Array<[HytaleSource, Promise<LookupResult>]> {
  const { ip, port, hostname } = endpoint;
  const at = (offset: number) => ({ ip, port: port + offset, timeoutMs, signal });
  const asked: Array<[HytaleSource, Promise<LookupResult>]> = [
    ["hyquery2", askHyQuery2(at(0)).then((answer) => fromAnswer(target, answer))],
    ["hyquery1", askHyQuery1(at(0)).then((answer) => fromAnswer(target, answer))],
    ["ping", pingJavaStatus({ ...at(0), hostname }).then((answer) => fromPing(target, answer))],
    ["quic", probeQuic(at(0)).then((answer) => fromAnswer(target, answer))],
  ];
  if (port + HYTALE_PORT_OFFSETS.nitrado <= 65_535) asked.push(["nitrado", askNitrado({ ...at(HYTALE_PORT_OFFSETS.nitrado), hostname }).then((answer) => fromAnswer(target, answer))]);
  if (port + HYTALE_PORT_OFFSETS.a2s <= 65_535) asked.push(["a2s", askA2sInfo(at(HYTALE_PORT_OFFSETS.a2s)).then((answer) => fromAnswer(target, answer))]);
  return asked;
}

/** The richest answer of every way asked at once; never rejects. */
export function askHytale(target: Target, endpoint: HytaleEndpoint, timeoutMs: number): Promise<LookupResult> {
  const cancel = new AbortController();
  const startedAt = performance.now();
  const asked = ways(target, endpoint, timeoutMs, cancel.signal);
  const running = new Set(asked.map(([source]) => source));
  const failures: LookupResult[] = [];
  let best: LookupResult | null = null;
  let richerWait: ReturnType<typeof setTimeout> | undefined;
  return new Promise((resolve) => {
    const finish = () => {
      clearTimeout(richerWait);
      cancel.abort(); // closes every way still running
      resolve(best ?? noAnswer(target, failures, timeoutMs));
    };
    for (const [source, answer] of asked) {
      void answer.then((result) => {
        if (cancel.signal.aborted) return;
        running.delete(source);
        if (!result.online) failures.push(result);
        else if (best === null || richness(result) < richness(best)) best = result;
        if (best && richerWait === undefined) {
          const firstAnswerMs = performance.now() - startedAt;
          richerWait = setTimeout(finish, (RICHER_WAIT_ROUND_TRIPS - 1) * firstAnswerMs + RICHER_WAIT_FLOOR_MS);
        }
        const beaten = best !== null && [...running].every((still) => bestPossible(still) > richness(best!));
        if (running.size === 0 || beaten) finish();
      });
    }
  });
}
