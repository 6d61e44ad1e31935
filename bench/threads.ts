// Render-thread benches of issue 20 (numbers, not tests), each against real
// `serve` processes loaded from client processes of their own:
//
// 1. new banners per second and server CPU, one render thread against the default (threads/throughput.ts);
// 2. /healthz and cached-banner latency while 4 addresses storm large WebP banners, default limits (threads/storm.ts);
// 3. peak memory under a distinct-banner and a distinct-badge storm (threads/peak-memory.ts).
//
// Run: bun bench/threads.ts [--quick] [--json FILE]
// Part of `npm run bench` (bench/index.ts), which writes docs/performance.md.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { killOnExit } from "../test/support/cleanup.ts";
import { nodePath } from "./http/load.ts";
import { partOptions } from "./report/options.ts";
import { formatPeakMemory, measurePeakMemory } from "./threads/peak-memory.ts";
import { formatDrawStorm, measureDrawStorm } from "./threads/storm.ts";
import { formatThroughput, measureThroughput } from "./threads/throughput.ts";

const options = partOptions(process.argv.slice(2), "bun bench/threads.ts [--quick] [--json FILE]");
const settings = options.quick
  ? { throughput: { rounds: 1, seconds: 3, connections: 16 }, peak: { banners: 600, badges: 2_000 } }
  : { throughput: { rounds: 3, seconds: 6, connections: 16 }, peak: { banners: 6_000, badges: 20_000 } };

const progress = (line: string) => console.error(`  ${line}`);
// A failure part-way must not leave a server running.
process.on("exit", killOnExit);
const dir = mkdtempSync(join(tmpdir(), "pennant-bench-threads-"));
const markdown: Record<string, string> = {};
const figures: Record<string, unknown> = { settings };
try {
  nodePath(); // fails at once, not after the first server started
  const throughput = await measureThroughput(dir, settings.throughput, progress);
  figures.throughput = throughput;
  markdown.throughput = formatThroughput(throughput, settings.throughput);

  const storm = await measureDrawStorm(dir, progress);
  figures.storm = storm;
  markdown.storm = formatDrawStorm(storm, throughput.threads);

  const peak = await measurePeakMemory(dir, settings.peak, progress);
  figures.peakMemory = peak;
  markdown.peakMemory = formatPeakMemory(peak, settings.peak);

  for (const [section, text] of Object.entries(markdown)) console.log(`## ${section}\n\n${text}\n`);
  if (options.json) writeFileSync(options.json, JSON.stringify({ figures, markdown }));
} catch (error) {
  // One line; PENNANT_DEBUG=1 adds the stack, as for the server's own unexpected failures.
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  if (process.env.PENNANT_DEBUG === "1" && error instanceof Error) console.error(error.stack);
  process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
