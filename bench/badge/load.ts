// Load generator for the cached-badge bench, run as a child process so that
// it does not share the server's event loop: `concurrency` loops each
// fetching `url` back to back for `seconds`. Prints JSON: requests, seconds,
// latency percentiles in ms, statuses, bytes of the last answer.

export {}; // a module: top-level await

const [url, concurrencyText, secondsText, etag] = process.argv.slice(2);
if (!url) throw new Error("usage: load.ts URL CONCURRENCY SECONDS [IF-NONE-MATCH]");
const concurrency = Number(concurrencyText ?? 32), seconds = Number(secondsText ?? 5);
const headers: Record<string, string> = { Accept: "image/png", ...(etag ? { "If-None-Match": etag } : {}) };

// Warm-up: connections open, JIT warm.
const warmUntil = performance.now() + 500;
while (performance.now() < warmUntil) await (await fetch(url, { headers })).arrayBuffer();

const latencies: number[] = [];
const statuses: Record<number, number> = {};
let bytes = 0;
const stopAt = performance.now() + seconds * 1000;
const started = performance.now();
await Promise.all(Array.from({ length: concurrency }, async () => {
  while (performance.now() < stopAt) {
    const t = performance.now();
    const response = await fetch(url, { headers });
    bytes = (await response.arrayBuffer()).byteLength;
    latencies.push(performance.now() - t);
    statuses[response.status] = (statuses[response.status] ?? 0) + 1;
  }
}));
const elapsed = (performance.now() - started) / 1000;
latencies.sort((a, b) => a - b);
const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!;
console.log(JSON.stringify({ requests: latencies.length, seconds: elapsed, p50: at(0.5), p99: at(0.99), statuses, bytes }));
