// Render-thread benches of issue 20 (numbers, not tests), each against real
// `serve` processes loaded from client processes of their own:
//
// 1. new banners per second and server CPU, one render thread against the default (threads/throughput.ts);
// 2. /healthz and cached-banner latency while 4 addresses storm large WebP banners, default limits (threads/storm.ts);
// 3. peak memory under a distinct-banner and a distinct-badge storm (threads/peak-memory.ts).
//
// Run: bun bench/threads.ts [--quick] [--json FILE] [--only peak|throughput]
// (--only: that one bench alone, for working on it; `npm run bench` runs all three).
// Part of `npm run bench` (bench/index.ts), which writes docs/performance.md.

import { partOptions } from "./report/options.ts";
import { runServerPart, type PartOutput } from "./report/server-part.ts";
import { formatPeakMemory, measurePeakMemory } from "./threads/peak-memory.ts";
import { formatDrawStorm, measureDrawStorm } from "./threads/storm.ts";
import { formatThroughput, measureThroughput } from "./threads/throughput.ts";

const USAGE = "bun bench/threads.ts [--quick] [--json FILE] [--only peak|throughput]";
const options = partOptions(process.argv.slice(2), USAGE, ["only"]);
const only = options.values.only;
if (only !== undefined && only !== "peak" && only !== "throughput") {
  console.error(`error: --only takes "peak" or "throughput"\nusage: ${USAGE}`);
  process.exit(2);
}
const settings = options.quick
  ? { throughput: { rounds: 1, seconds: 3, warmSeconds: 1, connections: 16 }, peak: { banners: 600, badges: 2_000 } }
  : { throughput: { rounds: 3, seconds: 6, warmSeconds: 15, connections: 16 }, peak: { banners: 6_000, badges: 20_000 } };

const progress = (line: string) => console.error(`  ${line}`);
const output: PartOutput = { figures: { settings }, markdown: {} };
const { figures, markdown } = output;
await runServerPart("threads", options.json, output, async (dir) => {
  if (only !== "peak") await throughputAndStorm(dir);
  if (only === "throughput") return;
  const peak = await measurePeakMemory(dir, settings.peak, progress);
  figures.peakMemory = peak;
  markdown.peakMemory = formatPeakMemory(peak, settings.peak);
});

async function throughputAndStorm(dir: string): Promise<void> {
  const throughput = await measureThroughput(dir, settings.throughput, progress);
  figures.throughput = throughput;
  markdown.throughput = formatThroughput(throughput, settings.throughput);

  if (only === "throughput") return;
  const storm = await measureDrawStorm(dir, progress);
  figures.storm = storm;
  markdown.storm = formatDrawStorm(storm, throughput.threads);
}
