// A long mixed load against one `serve` process (a measurement, not a test;
// not part of `npm run bench`), to see whether its memory grows over time:
// issue 38 saw 708 MiB in one process after mixed attacks. A Bun client
// (fetch, keep-alive) from 127.0.0.1 cycles through new banners of the peak
// storm's looks (every size, PNG, WebP, GIF, animated, scale 1 and 2), new
// badges, cached banners, signed updates, the pushed servers' histories of
// every range (a hundred servers pushed to), lookups of a peer that accepts
// and never answers, and bad queries; budgets raised as in the other benches
// (BENCH_ENV). Every 10 s it reads the server's RSS and VmHWM; once a minute
// what its caches hold (/metrics); it prints a line a minute and, at the end,
// a table of them.
// Run: bun bench/long-mix.ts [--minutes N] [--connections C] (default 25, 64)

import { createServer, type Server } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { peakRssBytes, rssBytes } from "../test/soak/measure.ts";
import { BANNER_SIZES, distinctBadgePath, distinctBannerPath, cachedBannerPath, BAD_BANNER_PATH, SERVER_TEMPLATES, signedUpdate } from "./http/scenarios.mjs";
import { BENCH_ENV, startPennant } from "./http/servers.ts";
import { mib, table } from "./report/markdown.ts";
import { partOptions } from "./report/options.ts";
import { STORM_LOOKS } from "./threads/peak-memory.ts";

const USAGE = "bun bench/long-mix.ts [--minutes N] [--connections C]";
const options = partOptions(process.argv.slice(2), USAGE, ["minutes", "connections"]);
const minutes = Number(options.values.minutes ?? 25), connections = Number(options.values.connections ?? 64);
if (!(minutes > 0) || !(connections > 0)) {
  console.error(`error: --minutes and --connections take positive numbers\nusage: ${USAGE}`);
  process.exit(2);
}

/** A peer that accepts connections and never answers: each lookup of it waits for its timeout. */
function silentPeer(): Promise<{ port: number; server: Server }> {
  const sockets = new Set<import("node:net").Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
  });
  server.on("close", () => sockets.forEach((socket) => socket.destroy()));
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ port: (server.address() as { port: number }).port, server })));
}

const dir = mkdtempSync(join(tmpdir(), "pennant-long-mix-"));
const peer = await silentPeer();
const { server, seeded } = await startPennant(dir, "long-mix", { ...BENCH_ENV, PENNANT_LOOKUP_PRIVATE: "1" });
const HISTORY_RANGES = ["24h", "7d", "30d", "1y"];

/** The n-th request of the cycle. */
function request(n: number): { path: string; init?: RequestInit } {
  const IMAGE = { headers: { Accept: "image/webp,image/png,image/*" } };
  const round = Math.floor(n / 10);
  switch (n % 10) {
    case 0: case 1: case 2: {
      const look = STORM_LOOKS[round % STORM_LOOKS.length]!;
      return { path: distinctBannerPath("mix", n, BANNER_SIZES[round % BANNER_SIZES.length], SERVER_TEMPLATES[round % SERVER_TEMPLATES.length], look), init: IMAGE };
    }
    case 3: case 4: return { path: distinctBadgePath(seeded.pluginUuid, "mix", n), init: IMAGE };
    case 5: return { path: cachedBannerPath(round % 10), init: IMAGE };
    case 6: {
      const { method, path, headers, body } = signedUpdate(seeded.servers[round % 100]!, n, Date.now(), { run: "mix" });
      return { path, init: { method, headers, body } };
    }
    case 7: return { path: `/api/servers/${seeded.servers[round % 100]!.uuid}/history?range=${HISTORY_RANGES[round % HISTORY_RANGES.length]}` };
    case 8: return { path: `/api/lookup?address=127.0.0.1:${peer.port}&n=${n}` };
    default: return { path: round % 2 === 0 ? BAD_BANNER_PATH : "/api/banner?scale=3" };
  }
}

const statuses = new Map<number, number>();
let next = 0, answers = 0;
const stopAt = performance.now() + minutes * 60_000;
async function worker(): Promise<void> {
  while (performance.now() < stopAt) {
    const { path, init } = request(next++);
    try {
      const response = await fetch(`${server.url}${path}`, { ...init, signal: AbortSignal.timeout(30_000) });
      await response.arrayBuffer();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    } catch {
      statuses.set(0, (statuses.get(0) ?? 0) + 1);
    }
    answers++;
  }
}

const rows: string[][] = [];
const started = performance.now();
let minute = 0;
const samples: number[] = [];
/** The bytes all caches hold, summed from /metrics. */
async function cacheBytes(): Promise<number> {
  const metrics = await (await fetch(`${server.url}/metrics`)).text();
  return [...metrics.matchAll(/^pennant_cache_bytes\{[^}]*\} (\d+)$/gm)].reduce((sum, [, bytes]) => sum + Number(bytes), 0);
}

const sampler = setInterval(async () => {
  samples.push(rssBytes(server.pid));
  const elapsed = (performance.now() - started) / 60_000;
  if (elapsed < minute + 1) return;
  minute++;
  const peak = mib(peakRssBytes(server.pid)), low = mib(Math.min(...samples)), high = mib(Math.max(...samples));
  samples.length = 0;
  const row = [String(minute), String(answers), low, high, peak, mib(await cacheBytes()), [...statuses].sort().map(([status, count]) => `${status}: ${count}`).join(", ")];
  rows.push(row);
  console.error(`  minute ${row.join(" | ")}`);
}, 10_000);
try {
  await Promise.all(Array.from({ length: connections }, worker));
} finally {
  clearInterval(sampler);
  await server.kill();
  peer.server.close();
  rmSync(dir, { recursive: true, force: true });
}
console.log(table(["minute", "answers so far", "RSS low (MiB)", "RSS high (MiB)", "VmHWM (MiB)", "caches (MiB)", "statuses so far (0: no answer)"], rows));
