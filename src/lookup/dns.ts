// Name resolution for lookups, done once per place a lookup tries: SRV first
// (only when the user typed no port), then A/AAAA of each SRV target in turn
// and of the name as typed. The resolver is injectable so tests can stub DNS
// without touching sockets.
//
// Every question takes an AbortSignal and is withdrawn when it aborts. That is
// why this asks DNS servers itself (node:dns Resolver, c-ares) instead of
// dns.lookup: getaddrinfo runs on a small thread pool and cannot be cancelled,
// so names whose DNS never answers would hold every thread until the system's
// own timeout, and stall all lookups behind them. The price: names that only
// /etc/hosts knows do not resolve (localhost is handled before DNS, below).

import { promises as dns } from "node:dns";

export interface SrvTarget {
  host: string;
  port: number;
  priority: number;
  weight: number;
}

export interface Resolver {
  /** Every address of a host name (IPv4 first, then IPv6); [] when it has none. Gives up when `signal` aborts. */
  addresses(host: string, signal: AbortSignal): Promise<string[]>;
  /** The SRV records of a name; [] when there are none. Gives up when `signal` aborts. */
  srv(name: string, signal: AbortSignal): Promise<SrvTarget[]>;
}

const NO_RECORD = new Set(["ENOTFOUND", "ENODATA", "ENONAME", "NXDOMAIN"]);
/**
 * c-ares' own timeout per try, a safety net only: the caller's signal is the
 * real deadline (Bun rounds this up to whole seconds, measured).
 */
const PER_TRY_TIMEOUT_MS = 2_000;

function isNoRecord(error: unknown): boolean {
  return NO_RECORD.has((error as NodeJS.ErrnoException).code ?? "");
}

/** A resolver of its own per question: cancel() withdraws every query of its instance. */
function cancellable(signal: AbortSignal, servers: readonly string[] | undefined): dns.Resolver {
  signal.throwIfAborted();
  const resolver = new dns.Resolver({ timeout: PER_TRY_TIMEOUT_MS, tries: 2 });
  if (servers) resolver.setServers(servers);
  signal.addEventListener("abort", () => resolver.cancel(), { once: true });
  return resolver;
}

/** DNS through the servers of /etc/resolv.conf, or the `servers` given ("ip:port"). */
export function dnsResolver(servers?: readonly string[]): Resolver {
  return {
    async addresses(host, signal) {
      const resolver = cancellable(signal, servers);
      const answers = await Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)]);
      const found = answers.flatMap((answer) => (answer.status === "fulfilled" ? answer.value : []));
      const failure = answers.find((answer) => answer.status === "rejected" && !isNoRecord(answer.reason));
      if (found.length === 0 && failure?.status === "rejected") throw failure.reason;
      return found;
    },
    async srv(name, signal) {
      try {
        const records = await cancellable(signal, servers).resolveSrv(name);
        return records.map((r) => ({ host: r.name, port: r.port, priority: r.priority, weight: r.weight }));
      } catch (error) {
        if (isNoRecord(error)) return [];
        throw error;
      }
    },
  };
}

export const systemResolver: Resolver = dnsResolver();

/** RFC 6761: `localhost` and the names under it are the loopback addresses, and never asked of DNS. */
export function loopbackAddresses(host: string): string[] | null {
  return host === "localhost" || host.endsWith(".localhost") ? ["127.0.0.1", "::1"] : null;
}

/** Lowest priority first; within a priority, the heaviest weight first. */
export function orderSrv(records: readonly SrvTarget[]): SrvTarget[] {
  return [...records].sort((a, b) => a.priority - b.priority || b.weight - a.weight);
}

/** Where a lookup may connect: an SRV target, or the name as typed. */
export interface Place {
  host: string;
  port: number;
  /** The SRV target this place is; null for the name as typed. */
  srvRecord: { host: string; port: number } | null;
}

/**
 * SRV targets tried at most. A DNS answer may list dozens, and each costs a
 * connection: without a cap one lookup could sweep a whole network's ports.
 */
export const MAX_SRV_TARGETS = 4;

/** The places to try in turn: the SRV targets in order (up to the cap), then the name as typed on its port. */
export function placesToTry(host: string, port: number, records: readonly SrvTarget[]): Place[] {
  const targets = orderSrv(records)
    .slice(0, MAX_SRV_TARGETS)
    .map((record) => ({ host: record.host.replace(/\.$/, "").toLowerCase(), port: record.port }));
  return [...targets.map((target) => ({ ...target, srvRecord: target })), { host, port, srvRecord: null }];
}

/** The promise's value, or `fallback` when it takes longer than `ms` (or fails). */
export async function within<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), Math.max(0, ms));
  });
  try {
    return await Promise.race([promise.catch(() => fallback), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Asks `question` with a signal that aborts once it is answered or `ms` are
 * up, so a question still waiting is withdrawn, not left running: its answer,
 * or `fallback`.
 */
export async function askWithin<T>(question: (signal: AbortSignal) => Promise<T>, ms: number, fallback: T): Promise<T> {
  const done = new AbortController();
  try {
    return await within(question(done.signal), ms, fallback);
  } finally {
    done.abort();
  }
}
