// Rate-limit table memory (a measurement, not a test): the heap a RateLimiter
// holds when full at the default 100,000 keys, for the kinds of key it stores.
// Every window keeps budget left (the costlier case: the key is also in the
// set eviction draws from). Run: bun bench/rate-limit-memory.ts

import { heapStats } from "bun:jsc";
import { budgetKey } from "../src/http/ip-rate-limit.ts";
import { RateLimiter } from "../src/http/rate-limit.ts";

const KEYS = 100_000;

const kinds: Record<string, (i: number) => string> = {
  // Three-digit octets: the longest IPv4 key there is (15 characters).
  "IPv4 address": (i) => budgetKey(`198.${100 + Math.floor(i / 22_500)}.${100 + (Math.floor(i / 150) % 150)}.${100 + (i % 150)}`),
  // Four-digit groups: the longest /64 key there is (24 characters).
  "IPv6 /64": (i) => budgetKey(`2a01:4ff8:${(0x8000 | (i >> 15)).toString(16)}:${(0x8000 | (i & 0x7fff)).toString(16)}::1`),
  "token hash (64 hex)": (i) => i.toString(16).padStart(64, "0"),
  "long key (digested)": (i) => `${"x".repeat(500)}${i}`,
};

function heapBytes(): number {
  Bun.gc(true);
  return heapStats().heapSize;
}

/** One kind per process, so that no earlier table or garbage blurs the figure. */
function measure(kind: string): void {
  const key = kinds[kind]!;
  const before = heapBytes();
  const limiter = new RateLimiter({ count: 120, windowSeconds: 60 }, KEYS);
  for (let i = 0; i < KEYS; i++) limiter.take(key(i));
  const after = heapBytes();
  if (limiter.size !== KEYS) throw new Error(`expected a full table, got ${limiter.size}`);
  const bytes = after - before;
  const example = key(KEYS - 1);
  console.log(`${kind.padEnd(20)} ${String(example.length).padStart(3)} chars  ${(bytes / 1e6).toFixed(1)} MB, ${Math.round(bytes / KEYS)} B per key`);
}

const only = process.argv[2];
if (only) {
  measure(only);
} else {
  for (const kind of Object.keys(kinds)) {
    Bun.spawnSync([process.execPath, import.meta.path, kind], { stdout: "inherit", stderr: "inherit" });
  }
}
