// Peak memory of issue 20: one `serve` process (default render threads and
// cache budget; budgets and queues raised so that one address is refused
// nothing) takes a storm of distinct banners (every size, PNG and WebP, scale
// 1 and 2, and animated as GIF and WebP: the largest is an animated 1200x300
// WebP at scale 2), then a storm of
// distinct badges; its high-water mark (VmHWM) after each, against the cache
// budget plus the allowance docs/render-threads.md documents. The same storms on the
// release binary (compiled here as CI compiles it: what users run, ~15 MiB
// lower than from source), and on a server with one render thread: the
// thread count is what bounds the peak (docs/render-threads.md). The target
// is judged on the higher of the default-thread runs.

import { join } from "node:path";
import { compile } from "../../.ci/build.ts";
import { peakRssBytes, rssBytes } from "../../test/soak/measure.ts";
import { DEFAULT_CACHE_MB } from "../../src/config.ts";
import { count, mib, table } from "../report/markdown.ts";
import { cpuSeconds } from "../report/proc.ts";
import { runLoad, type LoadResult } from "../http/load.ts";
import { BANNER_SIZES, SERVER_TEMPLATES, type BannerLook } from "../http/scenarios.mjs";
import { BENCH_ENV, startPennant } from "../http/servers.ts";

/** What peak memory may reach beyond the cache budget (issue 20). */
export const PEAK_ALLOWANCE_MIB = 150;
/**
 * Every size as PNG and WebP at scale 1 and 2, then animated (issue 38): GIF
 * and WebP, motd (6 frames) and stats (9), at scale 1 and 2.
 */
export const STORM_LOOKS: BannerLook[] = [
  { format: "png" }, { format: "webp" }, { format: "png", scale: 2 }, { format: "webp", scale: 2 },
  { format: "gif", animate: "stats" }, { format: "webp", animate: "motd" }, { format: "gif", animate: "motd", scale: 2 }, { format: "webp", animate: "stats", scale: 2 },
];
const CONNECTIONS = 500;

export interface PeakMemoryOptions {
  banners: number;
  badges: number;
}

interface StormPeak {
  load: LoadResult;
  peak: number;
  rss: number;
}

interface ServerPeaks {
  rssBefore: number;
  banners: StormPeak;
  badges: StormPeak;
}

/** The default render threads' runs from source and as the release binary (judged against the target), and one render thread's for contrast. */
export interface PeakMemoryFigures extends ServerPeaks {
  cacheMib: number;
  binary?: ServerPeaks;
  oneThread?: ServerPeaks;
}

/** The highest VmHWM of the default-thread runs, and the errors of their storms (each refusal is a draw not made). */
export const peakOf = (f: PeakMemoryFigures) => {
  const runs = [f, ...(f.binary ? [f.binary] : [])];
  return {
    peak: Math.max(...runs.flatMap((run) => [run.banners.peak, run.badges.peak])),
    errors: runs.reduce((sum, run) => sum + run.banners.load.errors + run.badges.load.errors, 0),
  };
};

/**
 * Once the server has done the storm's work: the load client ends its run
 * while requests it sent are still being answered, and on a loaded machine
 * 99-787 of the banner storm's 2,400 were drawn during the badge storm
 * (2026-12-08), which then measured both. Waits until the server's CPU rests
 * (under a tenth of a core for two seconds in a row), a minute at most.
 */
async function drained(pid: number): Promise<void> {
  // At most a minute: a server that never rests must not hold the bench (nor CI) for ever.
  const until = Date.now() + 60_000;
  for (let last = cpuSeconds(pid), quiet = 0; quiet < 2 && Date.now() < until;) {
    await Bun.sleep(1_000);
    const now = cpuSeconds(pid);
    quiet = now - last < 0.1 ? quiet + 1 : 0;
    last = now;
  }
}

/** Both storms on a fresh server started with `env` over BENCH_ENV (by `command`, or from source). */
async function stormsOn(
  dir: string, name: string, env: Record<string, string>, options: PeakMemoryOptions, progress: (line: string) => void, command?: string[],
): Promise<ServerPeaks> {
  const { server, seeded } = await startPennant(dir, name, { ...BENCH_ENV, ...env }, command);
  try {
    const rssBefore = rssBytes(server.pid);
    const storm = async (scenario: string, amount: number, params: object): Promise<StormPeak> => {
      // Answers at the back of such a queue wait seconds: a generous timeout, so that a slow answer is not an error.
      const load = await runLoad({ url: server.url, connections: Math.min(CONNECTIONS, amount), amount, timeoutSeconds: 120, scenario, params }, server.pid);
      await drained(server.pid);
      return { load, peak: peakRssBytes(server.pid), rss: rssBytes(server.pid) };
    };
    const banners = await storm("distinct banner", options.banners, { run: "peak", sizes: BANNER_SIZES, templates: SERVER_TEMPLATES, looks: STORM_LOOKS });
    progress(`peak memory (${name}): ${count(options.banners)} banners, VmHWM ${mib(banners.peak)} MiB`);
    const badges = await storm("distinct badge", options.badges, { run: "peak", pluginUuid: seeded.pluginUuid });
    progress(`peak memory (${name}): ${count(options.badges)} badges, VmHWM ${mib(badges.peak)} MiB`);
    return { rssBefore, banners, badges };
  } finally {
    await server.kill();
  }
}

export async function measurePeakMemory(dir: string, options: PeakMemoryOptions, progress: (line: string) => void): Promise<PeakMemoryFigures> {
  const threads = await stormsOn(dir, "peak-memory", {}, options, progress);
  const executable = join(dir, "pennant");
  await compile({ outfile: executable });
  const binary = await stormsOn(dir, "peak-memory-binary", {}, options, progress, [executable]);
  const oneThread = await stormsOn(dir, "peak-memory-1-thread", { PENNANT_RENDER_THREADS: "1" }, options, progress);
  return { cacheMib: DEFAULT_CACHE_MB, ...threads, binary, oneThread };
}

export function formatPeakMemory(f: PeakMemoryFigures, options: PeakMemoryOptions): string {
  const rows = (threads: string, run: ServerPeaks) => {
    const row = (what: string, s: StormPeak) => [threads, what, count(s.load.responses), s.load.seconds.toFixed(1), count(s.load.errors), mib(run.rssBefore), mib(s.rss), mib(s.peak)];
    return [row(`${count(options.banners)} distinct banners`, run.banners), row(`then ${count(options.badges)} distinct badges`, run.badges)];
  };
  return [
    `A fresh server for each render thread count; cache budget \`PENNANT_CACHE_MB\` ${f.cacheMib} MiB (the default), allowance ${PEAK_ALLOWANCE_MIB} MiB: ` +
      `VmHWM may reach ${f.cacheMib + PEAK_ALLOWANCE_MIB} MiB (judged on the default thread count, from source and as the release binary). ${CONNECTIONS} connections; the banners are every size as PNG and WebP at scale 1 and 2 ` +
      `and animated (GIF \`stats\` and WebP \`motd\` at scale 1, GIF \`motd\` and WebP \`stats\` at scale 2; 9 and 6 frames) ` +
      `(five server templates), the badges a colour of their own each, the five styles in turn.`,
    "",
    table(
      ["render threads", "storm", "answers", "wall time (s)", "errors", "RSS before (MiB)", "RSS after (MiB)", "VmHWM after (MiB)"],
      [...rows("default", f), ...(f.binary ? rows("default, release binary", f.binary) : []), ...(f.oneThread ? rows("1", f.oneThread) : [])],
    ),
  ].join("\n");
}
