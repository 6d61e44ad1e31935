// The lookup service: address in, normalized status out, never a throw.
//
// Safety: each place tried (SRV targets, then the name as typed) is resolved
// once, every address is checked against the private-address policy, and
// sockets connect to the checked IP only, so a second DNS answer can never
// swap it (rebinding).
// Load: one lookup in flight per address, results cached, concurrency capped
// per process and per target, every cache bounded by its share of the cache
// budget and swept.
// A Hytale server is asked every published way at once (hytale/ask-hytale.ts)
// under the same guard, deadline and caps, per place asked.
// Query never delays an answer: a lookup answers when the ping does, and a
// Query still running then goes on alone (a bounded number at once, within
// the lookup's deadline); its software, plugins and map are added to the
// kept result when it answers, so later requests show them.

import { createLogger } from "../log.ts";
import { needsSrvLookup, parseAddress } from "./address.ts";
import { canonicalIp, isPublicIp } from "./address-policy.ts";
import { pingBedrock } from "./bedrock.ts";
import { estimateBytes, type BoundedCache } from "../cache/bounded-cache.ts";
import { CacheBudget } from "../cache/budget.ts";
import { Semaphore } from "./bounds.ts";
import { pingJavaStatus } from "./java-status.ts";
import { pingLegacy } from "./legacy-ping.ts";
import { queryFullStat, type QueryResult } from "./query.ts";
import { askWithin, loopbackAddresses, placesToTry, systemResolver, type Place, type Resolver, type SrvTarget } from "./dns.ts";
import type { Edition } from "../minecraft/edition.ts";
import { DEFAULT_PORTS } from "../minecraft/join-address.ts";
import { askHytale } from "./hytale/ask-hytale.ts";
import { fromBedrock, fromLegacy, fromModern, offline, withQuery, type LookupErrorCode, type LookupResult, type Target } from "./result.ts";

export const JAVA_PORT = 25565;
export const BEDROCK_PORT = 19132;

export interface LookupSettings {
  resolver: Resolver;
  /** PENNANT_LOOKUP_PRIVATE: allow private, loopback and other non-public targets. */
  allowPrivate: boolean;
  /** The whole budget of one lookup, the wait for a slot included. */
  deadlineMs: number;
  /** Part of the deadline SRV may use before we fall back to the plain name. */
  srvBudgetMs: number;
  /** How long the legacy ping waits for the modern one before it starts too. */
  legacyHeadStartMs: number;
  /** Lookups running at once in this process (each holds at most 2 TCP + 1 UDP sockets; a Hytale one 2 TCP + 4 UDP). */
  maxConcurrent: number;
  /** Lookups waiting for a slot; beyond it a lookup answers "busy" at once. */
  maxWaiting: number;
  /** Lookups running at once against one IP and port. */
  maxPerTarget: number;
  successTtlMs: number;
  failureTtlMs: number;
  faviconTtlMs: number;
  /** The port a Bedrock address without one means, and that a failed Java lookup retries as Bedrock. */
  bedrockPort: number;
  now: () => number;
  /** Where a failure no check foresaw is reported (the app's log; stderr by default). */
  reportUnexpected: (error: unknown) => void;
}

/** How often, at most, a cache write scans for expired entries. */
const SWEEP_EVERY_MS = 10_000;

export const DEFAULT_LOOKUP_SETTINGS: LookupSettings = {
  resolver: systemResolver,
  allowPrivate: false,
  deadlineMs: 5_000,
  srvBudgetMs: 1_500,
  legacyHeadStartMs: 500,
  maxConcurrent: 64,
  maxWaiting: 1_000,
  maxPerTarget: 2,
  successTtlMs: 60_000,
  failureTtlMs: 15_000,
  faviconTtlMs: 24 * 3600_000,
  bedrockPort: BEDROCK_PORT,
  now: Date.now,
  reportUnexpected: (error) => createLogger({ level: "error" }).error("lookup failed unexpectedly", { error }),
};

/** Where to connect: the checked IP, and the name the user typed for the handshake. */
export interface Endpoint {
  ip: string;
  port: number;
  hostname: string;
}

export interface LookupRequest {
  address: string;
  edition?: Edition;
}

function faviconKey(result: LookupResult): string {
  return `${result.edition} ${result.host}:${result.port}`;
}

const PRIVATE_OFF = "lookups of private networks are off (PENNANT_LOOKUP_PRIVATE=on allows them)";

/** Where a Query that had not answered when the ping did is handed on, to complete the kept result later. */
interface LateQuery {
  handed: { answer: Promise<QueryResult | null>; drop: () => void } | null;
}

/** Failures that mean nobody answered at a place: the next place is tried. */
const NO_ANSWER: ReadonlySet<LookupErrorCode> = new Set(["refused", "unreachable", "timeout", "closed"]);

/** Up to four of a name's addresses, for the operator's note. */
function listed(addresses: readonly string[]): string {
  return addresses.slice(0, 4).join(", ") + (addresses.length > 4 ? ", ..." : "");
}

/**
 * The operator's note on the places skipped as blocked. Only the CLI prints it:
 * publicly a blocked place is skipped exactly like one that does not resolve,
 * so the public never learns what internal DNS holds.
 */
function withBlockedNote(result: LookupResult, blocked: readonly string[]): LookupResult {
  return blocked.length === 0 ? result : { ...result, operatorNote: `${blocked.join("; ")}, not a public address; ${PRIVATE_OFF}` };
}

export class LookupService {
  readonly settings: LookupSettings;
  /** Results by edition and address as typed, favicons apart (lookup_results). */
  private readonly results: BoundedCache<LookupResult>;
  /** Favicons by server (lookup_favicons). */
  private readonly favicons: BoundedCache<Uint8Array>;
  private readonly slots: Semaphore;
  private readonly perTarget = new Map<string, number>();
  /** Queries going on after their lookup answered, each with what drops it; at most maxConcurrent, beyond that a late Query is dropped. */
  private readonly lateQueries = new Map<Promise<void>, () => void>();
  /** Each answer handed out (by object) and the kept result it was made from, for isCurrent. */
  private readonly answers = new WeakMap<LookupResult, { key: string; kept: LookupResult }>();

  /** `caches`: the application's budget, which bounds lookup_results and lookup_favicons. */
  constructor(settings: Partial<LookupSettings> = {}, caches = new CacheBudget()) {
    this.settings = { ...DEFAULT_LOOKUP_SETTINGS, ...settings };
    const { now } = this.settings;
    // A typical result is 1-3 KB: 32 MiB (the default share) keeps ~15,000 of them, and at least
    // ~600 of the largest a server can send (~50 KB with every part at its cap).
    this.results = caches.cache<LookupResult>("lookup_results", { sizeOf: estimateBytes, sweepEveryMs: SWEEP_EVERY_MS, now });
    // Real favicons are 2-12 KB: 16 MiB keeps 1,500-8,000, and 250 of the largest (64 KiB).
    this.favicons = caches.cache<Uint8Array>("lookup_favicons", { sizeOf: estimateBytes, sweepEveryMs: SWEEP_EVERY_MS, now });
    this.slots = new Semaphore(this.settings.maxConcurrent, this.settings.maxWaiting);
  }

  /** Never rejects: every failure is a result with online=false and an error code. One lookup in flight per key. */
  lookup(request: LookupRequest): Promise<LookupResult> {
    const edition = request.edition ?? "java";
    const key = `${edition} ${request.address.trim().toLowerCase()}`;
    const looked = this.results.getOrComputeAsync(key, () => this.lookUp(key, request.address, edition), (result) => this.keepFor(result));
    return looked.then((kept) => {
      const answer = this.withFavicon(kept);
      this.answers.set(answer, { key, kept });
      return answer;
    });
  }

  /**
   * Whether `answer` (one lookup() gave) is still what lookup() would give
   * now: its result still kept (not expired, pushed out or completed by a
   * late Query since) with the same favicon. What was made from it (a
   * banner's plan) may be used again while this holds; nothing is counted.
   */
  isCurrent(answer: LookupResult): boolean {
    const made = this.answers.get(answer);
    if (made === undefined || !this.results.holds(made.key, made.kept)) return false;
    return this.favicons.holds(faviconKey(made.kept), answer.favicon ?? undefined);
  }

  /**
   * A lookup made now. Favicons are cached on their own, by server and for
   * longer, so that an offline server keeps its icon; results hold none (each
   * icon's bytes are held, and counted, once). The result is kept under
   * `key`, where a late Query completes it.
   */
  private async lookUp(key: string, address: string, edition: Edition): Promise<LookupResult> {
    // The deadline counts from here: time spent waiting for a slot is part of it.
    const deadline = this.settings.now() + this.settings.deadlineMs;
    const late: LateQuery = { handed: null };
    const result = await this.slots
      .run(() => this.perform(address, edition, deadline, late), this.settings.deadlineMs)
      .then((performed) => performed ?? this.busy(address, edition))
      .catch((error: unknown) => this.unexpected(address, edition, error));
    if (result.favicon) this.favicons.set(faviconKey(result), result.favicon, this.settings.faviconTtlMs);
    const kept = { ...result, favicon: null };
    if (late.handed) this.completeLater(key, kept, late.handed);
    return kept;
  }

  /**
   * Adds a late Query's fields to the result kept under `key`, if it is still
   * the one kept; drops the Query when maxConcurrent are going on already.
   * The result is kept before the Query can answer: it had not answered when
   * the ping did, its answer comes with a UDP message (a task of its own), and
   * the result is kept within the microtasks that follow the ping's.
   */
  private completeLater(key: string, kept: LookupResult, { answer, drop }: NonNullable<LateQuery["handed"]>): void {
    if (this.lateQueries.size >= this.settings.maxConcurrent) return drop();
    const completing = answer
      .then((answered) => {
        if (answered?.ok) this.results.replace(key, kept, withQuery(kept, answered.status));
      })
      .finally(() => this.lateQueries.delete(completing));
    this.lateQueries.set(completing, drop);
  }

  /** How many Queries are going on after their lookup answered (at most maxConcurrent). */
  get lateQueriesGoingOn(): number {
    return this.lateQueries.size;
  }

  /** Resolves once every Query going on after its lookup answered has ended (and completed its result). */
  async lateQueriesEnded(): Promise<void> {
    while (this.lateQueries.size > 0) await Promise.all(this.lateQueries.keys());
  }

  /** Ends every Query still going on after its lookup answered (a one-shot caller done waiting). */
  dropLateQueries(): void {
    for (const drop of this.lateQueries.values()) drop();
  }

  /** How long a result is kept; "busy" says nothing about the server: not kept, the next request tries again. */
  private keepFor(result: LookupResult): number | null {
    if (result.error?.code === "busy") return null;
    return result.online ? this.settings.successTtlMs : this.settings.failureTtlMs;
  }

  private withFavicon(result: LookupResult): LookupResult {
    return { ...result, favicon: this.favicons.get(faviconKey(result)) ?? null };
  }

  private busy(address: string, edition: Edition): LookupResult {
    return offline(this.bareTarget(address, edition), "busy", "too many lookups at once; try again shortly");
  }

  private unexpected(address: string, edition: Edition, error: unknown): LookupResult {
    this.settings.reportUnexpected(error);
    return offline(this.bareTarget(address, edition), "bad_reply", "the lookup failed unexpectedly");
  }

  private bareTarget(address: string, edition: Edition): Target {
    return { edition, host: address.trim(), port: 0, ipAddress: null, srvRecord: null };
  }

  /** The lookup, or null when its deadline passed while it waited for a slot (it then answers busy). */
  private async perform(address: string, edition: Edition, deadline: number, late: LateQuery): Promise<LookupResult | null> {
    const remaining = () => Math.max(0, deadline - this.settings.now());
    if (remaining() === 0) return null;
    const parsed = parseAddress(address, edition === "bedrock" ? this.settings.bedrockPort : edition === "hytale" ? DEFAULT_PORTS.hytale : JAVA_PORT);
    if (!parsed.ok) return offline(this.bareTarget(address, edition), "invalid_address", parsed.reason);
    const typed: Target = { edition, host: parsed.host, port: parsed.port, ipAddress: null, srvRecord: null };
    if (parsed.kind !== "hostname") {
      // The user wrote this IP: saying it is blocked tells them nothing they did not know.
      if (!this.mayContact(parsed.host)) return offline(typed, "blocked_address", `${parsed.host} is not a public address; ${PRIVATE_OFF}`);
      return this.attempt({ ...typed, ipAddress: parsed.host }, { ip: parsed.host, port: parsed.port, hostname: parsed.host }, remaining, late);
    }
    const srv = edition === "java" && needsSrvLookup(parsed) && !loopbackAddresses(parsed.host) ? await this.srvRecords(parsed.host, remaining()) : [];
    return this.tryInTurn(typed, placesToTry(parsed.host, parsed.port, srv), remaining, late);
  }

  private srvRecords(host: string, remainingMs: number): Promise<SrvTarget[]> {
    const budget = Math.min(this.settings.srvBudgetMs, remainingMs);
    return askWithin((signal) => this.settings.resolver.srv(`_minecraft._tcp.${host}`, signal), budget, []);
  }

  private mayContact(ip: string): boolean {
    return this.settings.allowPrivate || isPublicIp(ip);
  }

  /**
   * Each place in turn, as the game client does, until one answers. Every
   * place is resolved once and its first allowed address is the one contacted
   * (no second DNS answer can swap it: rebinding). A place that does not
   * resolve, or only to blocked addresses, is skipped alike. When none
   * answers, the first failure met is the answer; when none could even be
   * contacted, the name does not resolve, unless the time ran out first (DNS
   * too slow, or the wait for a slot took it): then nothing said so, and the
   * answer is a timeout.
   */
  private async tryInTurn(typed: Target, places: readonly Place[], remaining: () => number, late: LateQuery): Promise<LookupResult> {
    const blocked: string[] = [];
    let firstFailure: LookupResult | null = null;
    for (const [index, place] of places.entries()) {
      if (remaining() === 0) break;
      // An equal share of the time left, the last place all of it: a place that never answers leaves time for the others.
      const until = this.settings.now() + remaining() / (places.length - index);
      const left = () => Math.max(0, until - this.settings.now());
      const found =
        loopbackAddresses(place.host) ?? (await askWithin((signal) => this.settings.resolver.addresses(place.host, signal), left(), null)) ?? [];
      const ip = found.find((candidate) => this.mayContact(candidate));
      if (ip === undefined) {
        if (found.length > 0) blocked.push(`${place.host} resolves to ${listed(found)}`);
        continue;
      }
      const result = await this.attempt({ ...typed, ipAddress: ip, srvRecord: place.srvRecord }, { ip, port: place.port, hostname: typed.host }, left, late);
      const failure = result.error?.code;
      if (failure === undefined || !NO_ANSWER.has(failure)) return withBlockedNote(result, blocked);
      firstFailure ??= result;
    }
    firstFailure ??=
      remaining() === 0
        ? offline(typed, "timeout", `no answer within ${this.settings.deadlineMs} ms`)
        : offline(typed, "no_such_host", `${typed.host} does not resolve`);
    return withBlockedNote(firstFailure, blocked);
  }

  /** One place's ping, within the per-target cap. */
  private async attempt(target: Target, endpoint: Endpoint, remaining: () => number, late: LateQuery): Promise<LookupResult> {
    const targetKey = `${canonicalIp(endpoint.ip)}|${endpoint.port}`; // one target, however its IP is spelled
    const active = this.perTarget.get(targetKey) ?? 0;
    if (active >= this.settings.maxPerTarget) {
      return offline(target, "busy", "too many lookups of this server at once; try again shortly");
    }
    this.perTarget.set(targetKey, active + 1);
    try {
      return await this.ping(target, endpoint, remaining, late);
    } finally {
      const left = (this.perTarget.get(targetKey) ?? 1) - 1;
      if (left > 0) this.perTarget.set(targetKey, left);
      else this.perTarget.delete(targetKey);
    }
  }

  /** What the caches hold now (each within its byte bound), and their counts. */
  get cacheUsage() {
    return { results: this.results.stats, favicons: this.favicons.stats };
  }

  /**
   * Opens the sockets: the one step a lookup that must not touch the network
   * (fuzzing) replaces. A Java server's Query still running when the ping
   * answered is handed to `late`.
   */
  protected async ping(target: Target, endpoint: Endpoint, remaining: () => number, late: LateQuery): Promise<LookupResult> {
    if (target.edition === "bedrock") return this.pingBedrock(target, endpoint, remaining);
    if (target.edition === "hytale") return askHytale(target, endpoint, remaining());
    const java = await this.pingJava(target, endpoint, remaining, late);
    // A Java lookup of the Bedrock port most likely meant Bedrock.
    if (!java.online && endpoint.port === this.settings.bedrockPort && remaining() > 0) {
      const bedrock = await this.pingBedrock({ ...target, edition: "bedrock" }, endpoint, remaining);
      if (bedrock.online) return bedrock;
    }
    return java;
  }

  private async pingBedrock(target: Target, endpoint: { ip: string; port: number }, remaining: () => number): Promise<LookupResult> {
    const result = await pingBedrock({ ip: endpoint.ip, port: endpoint.port, timeoutMs: remaining() });
    return result.ok ? fromBedrock(target, result.status, result.latencyMs) : offline(target, result.reason, result.message);
  }

  /**
   * The modern ping, with the legacy ping as a fallback that starts after a
   * head start (or at once when the modern one fails), and Query alongside:
   * its answer is in the result when it came first, else handed to `late`.
   */
  private async pingJava(target: Target, endpoint: Endpoint, remaining: () => number, late: LateQuery): Promise<LookupResult> {
    const cancel = new AbortController();
    const cancelQuery = new AbortController();
    let queried: QueryResult | null | undefined;
    const query = queryFullStat({ ip: endpoint.ip, port: endpoint.port, timeoutMs: remaining(), signal: cancelQuery.signal })
      .catch(() => null)
      .then((answered) => (queried = answered));
    let legacy: ReturnType<typeof pingLegacy> | null = null;
    const startLegacy = () => (legacy ??= pingLegacy({ ...endpoint, timeoutMs: remaining(), signal: cancel.signal }));
    const headStart = setTimeout(startLegacy, this.settings.legacyHeadStartMs);

    try {
      const modern = await pingJavaStatus({ ...endpoint, timeoutMs: remaining() });
      clearTimeout(headStart);
      let result: LookupResult;
      if (modern.ok) {
        result = fromModern(target, modern.status, modern.latencyMs);
      } else {
        // No new connection once the deadline has passed; a legacy ping already running may still answer.
        const old = legacy ?? (remaining() > 0 ? startLegacy() : null);
        const answer = old && (await old);
        result = answer?.ok ? fromLegacy(target, answer.status, answer.latencyMs) : offline(target, modern.reason, modern.message);
      }
      if (!result.online) return result;
      if (queried !== undefined) return queried?.ok ? withQuery(result, queried.status) : result;
      late.handed = { answer: query, drop: () => cancelQuery.abort() };
      return result;
    } finally {
      clearTimeout(headStart);
      cancel.abort(); // closes the losing legacy ping
      if (!late.handed) cancelQuery.abort(); // and a Query nobody waits for
    }
  }
}
