// Load generator for the badge bench, run as a child process so that it
// does not share the server's event loop: `concurrency` loops each fetching
// `url` back to back for `seconds`; with "new", each request asks for a badge
// never asked for before (a colour of its own, so the label is the same).
// Prints JSON: requests, seconds, latency percentiles in ms, statuses, bytes
// of the last answer.

export {}; // a module: top-level await

const [base, concurrencyText, secondsText, etag, kind] = process.argv.slice(2);
if (!base) throw new Error("usage: load.ts URL CONCURRENCY SECONDS [IF-NONE-MATCH] [new]");
const concurrency = Number(concurrencyText ?? 32), seconds = Number(secondsText ?? 5);
const headers: Record<string, string> = { Accept: "image/png", ...(etag ? { "If-None-Match": etag } : {}) };
let asked = 0;
const next = () => (kind === "new" ? `${base}?color=${(0x100000 + asked++).toString(16)}` : base);

// Warm-up: connections open, JIT warm.
const warmUntil = performance.now() + 500;
while (performance.now() < warmUntil) await (await fetch(next(), { headers })).arrayBuffer();

const latencies: number[] = [];
const statuses: Record<number, number> = {};
let bytes = 0;
const stopAt = performance.now() + seconds * 1000;
const started = performance.now();
await Promise.all(Array.from({ length: concurrency }, async () => {
  while (performance.now() < stopAt) {
    const t = performance.now();
    const response = await fetch(next(), { headers });
    bytes = (await response.arrayBuffer()).byteLength;
    latencies.push(performance.now() - t);
    statuses[response.status] = (statuses[response.status] ?? 0) + 1;
  }
}));
const elapsed = (performance.now() - started) / 1000;
latencies.sort((a, b) => a - b);
const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!;
console.log(JSON.stringify({ requests: latencies.length, seconds: elapsed, p50: at(0.5), p99: at(0.99), statuses, bytes }));
