// Lookup measurements (not tests): the median time of a lookup of a local
// peer, the memory the result cache holds when filled with the largest
// replies a server may send, and how many sockets a storm of 1,000 dead
// addresses holds at most. Loopback only. Run: npm run bench:lookup

import { heapStats } from "bun:jsc";
import mc from "minecraft-protocol";
import { readdirSync, readlinkSync } from "node:fs";
import { createServer, type AddressInfo, type Socket } from "node:net";
import { LookupService } from "../src/lookup/lookup-service.ts";
import { startCountingPeer } from "../test/support/java-peers.ts";
import { nearMaximalStatus } from "../test/support/lookup-replies.ts";

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

/** Sockets this process holds now (Linux: file descriptors that are sockets). */
function openSockets(): number {
  let count = 0;
  for (const fd of readdirSync("/proc/self/fd")) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`).startsWith("socket:")) count++;
    } catch {
      // the descriptor closed while we looked
    }
  }
  return count;
}

async function timeLookups(label: string, port: number, rounds: number): Promise<void> {
  // successTtlMs 0: every lookup goes to the network, none is served from the cache.
  const service = new LookupService({ allowPrivate: true, successTtlMs: 0 });
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    const result = await service.lookup({ address: `127.0.0.1:${port}` });
    times.push(performance.now() - started);
    if (!result.online) throw new Error(`${label}: ${result.error?.message}`);
  }
  times.sort((a, b) => a - b);
  console.log(`${label.padEnd(44)} median ${percentile(times, 0.5).toFixed(2)} ms  p95 ${percentile(times, 0.95).toFixed(2)} ms  (${rounds} lookups)`);
}

const real = mc.createServer({ host: "127.0.0.1", port: 0, "online-mode": false, motd: "bench", version: "1.20.4" } as any);
await new Promise<void>((resolve) => real.on("listening", () => resolve()));
await timeLookups("minecraft-protocol server (modern ping)", ((real as any).socketServer.address() as AddressInfo).port, 200);
real.close();

// The cache: 3,000 distinct names, each answered with a near-maximal reply
// (a 24 KB MOTD of 4,096 runs, 12 long names, a 4.5 KB favicon), default bounds.
const large = await startCountingPeer("modern", nearMaximalStatus(1));
const filled = new LookupService({ allowPrivate: true, maxPerTarget: 100, resolver: { addresses: async () => ["127.0.0.1"], srv: async () => [] } });
Bun.gc(true);
const heapBefore = heapStats().heapSize;
for (let batch = 0; batch < 3000; batch += 50) {
  await Promise.all(Array.from({ length: 50 }, (_, i) => filled.lookup({ address: `big-${batch + i}.example.com:${large.port}` })));
}
Bun.gc(true);
const usage = filled.cacheUsage;
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
console.log(`cache after 3,000 near-maximal replies: ${usage.results.entries} results (${mib(usage.results.bytes)} estimated, bound ${mib(usage.results.maxBytes)}), ${usage.favicons.entries} favicons (${mib(usage.favicons.bytes)})`);
console.log(`  heap grown by ${mib(heapStats().heapSize - heapBefore)}; ${((usage.results.bytes / usage.results.entries) / 1024).toFixed(1)} KB estimated a result`);
await large.close();

// The storm: 1,000 distinct names, each resolving to its own loopback address
// where a server accepts and never answers (the worst case: every socket waits).
const held = new Set<Socket>();
const blackhole = createServer((socket) => {
  held.add(socket);
  socket.resume(); // read (and drop) what arrives, so a hang-up is noticed and counted
  socket.on("error", () => {});
  socket.on("close", () => held.delete(socket));
});
await new Promise<void>((resolve) => blackhole.listen(0, "127.0.0.1", resolve));
const port = (blackhole.address() as AddressInfo).port;
const storm = new LookupService({
  allowPrivate: true,
  deadlineMs: 2_000,
  resolver: { addresses: async () => ["127.0.0.1"], srv: async () => [] },
  maxPerTarget: 1_000, // all names share one peer here; the process-wide cap is what is measured
});
let peakSockets = 0;
let peakPeer = 0;
const baseline = openSockets();
const sampler = setInterval(() => {
  // The blackhole runs in this process too: its server-side sockets are not ours.
  peakSockets = Math.max(peakSockets, openSockets() - baseline - held.size);
  peakPeer = Math.max(peakPeer, held.size);
}, 5);
const started = performance.now();
const results = await Promise.all(Array.from({ length: 1000 }, (_, i) => storm.lookup({ address: `dead-${i}.example.com:${port}` })));
clearInterval(sampler);
const codes = new Map<string, number>();
for (const result of results) codes.set(result.error?.code ?? "online", (codes.get(result.error?.code ?? "online") ?? 0) + 1);
console.log(`storm of 1,000 dead addresses: ${(performance.now() - started).toFixed(0)} ms, outcomes ${JSON.stringify(Object.fromEntries(codes))}`);
console.log(`  sockets held by the lookup service at most: ${peakSockets} (TCP connections open at the peer at most: ${peakPeer})`);
console.log(`  limits: ${storm.settings.maxConcurrent} lookups at once x (1 modern + 1 legacy TCP + 1 Query UDP), ${storm.settings.maxWaiting} waiting`);
blackhole.close();
process.exit(0);
