export {};

// A small HTTP load client for bench/banner.ts (wrk is not installed and no
// npm load tool is a dependency): CONNECTIONS keep-alive fetch loops against
// one URL for SECONDS, run in its own Bun process so the server under test
// has its own core. Prints one JSON line: requests, seconds, rps, statuses.
//
// Run: bun bench/http-load.ts URL CONNECTIONS SECONDS

const [url, connectionsText = "32", secondsText = "5"] = process.argv.slice(2);
if (!url) {
  console.error("usage: bun bench/http-load.ts URL [CONNECTIONS] [SECONDS]");
  process.exit(2);
}
const connections = Number(connectionsText);
const seconds = Number(secondsText);

const statuses: Record<string, number> = {};
let requests = 0;

async function loop(stopAt: number): Promise<void> {
  while (performance.now() < stopAt) {
    const response = await fetch(url!);
    await response.arrayBuffer();
    statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    requests++;
  }
}

// A short warm-up opens the connections and warms both sides' code paths.
await Promise.all(Array.from({ length: connections }, () => loop(performance.now() + 500)));
requests = 0;
for (const status of Object.keys(statuses)) delete statuses[status];
const started = performance.now();
await Promise.all(Array.from({ length: connections }, () => loop(started + seconds * 1000)));
const elapsed = (performance.now() - started) / 1000;
console.log(JSON.stringify({ requests, seconds: elapsed, rps: requests / elapsed, statuses }));
