// Name resolution for lookups, done once per lookup: SRV first (only when the
// user typed no port), then A/AAAA. The resolver is injectable so tests can
// stub DNS without touching sockets.

import { promises as dns } from "node:dns";

export interface SrvTarget {
  host: string;
  port: number;
  priority: number;
  weight: number;
}

export interface Resolver {
  /** Every address of a host name (IPv4 and IPv6). */
  addresses(host: string): Promise<string[]>;
  /** The SRV records of a name; [] when there are none. */
  srv(name: string): Promise<SrvTarget[]>;
}

const NO_RECORD = new Set(["ENOTFOUND", "ENODATA", "ENONAME", "NXDOMAIN"]);

export const systemResolver: Resolver = {
  async addresses(host) {
    const found = await dns.lookup(host, { all: true, verbatim: true });
    return found.map((entry) => entry.address);
  },
  async srv(name) {
    try {
      const records = await dns.resolveSrv(name);
      return records.map((r) => ({ host: r.name, port: r.port, priority: r.priority, weight: r.weight }));
    } catch (error) {
      if (NO_RECORD.has((error as NodeJS.ErrnoException).code ?? "")) return [];
      throw error;
    }
  },
};

/** Lowest priority first; within a priority, the heaviest weight first. */
export function orderSrv(records: readonly SrvTarget[]): SrvTarget[] {
  return [...records].sort((a, b) => a.priority - b.priority || b.weight - a.weight);
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
