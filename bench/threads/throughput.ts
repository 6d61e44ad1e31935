// New banners per second with one render thread against the default (one per
// core), on the same machine: two `serve` processes, loaded in alternating
// rounds by autocannon (its own process) with a new banner every request, a
// mix of every size as PNG and WebP. Budgets and queue limits are raised so
// that nothing is refused: the rounds measure drawing, not refusals.

import { availableParallelism } from "node:os";
import type { RunningServer } from "../../test/support/process.ts";
import { count, mib, ms, table, times } from "../report/markdown.ts";
import { middle } from "../report/stats.ts";
import { mainThreadCpuSeconds } from "../report/proc.ts";
import { runLoad, type LoadResult } from "../http/load.ts";
import { BANNER_SIZES, SERVER_TEMPLATES, type BannerLook } from "../http/scenarios.mjs";
import { BENCH_ENV, startPennant } from "../http/servers.ts";

/** Every size as PNG, then as WebP (scale 1): 1 to 52 units a banner, 12 on average. */
export const THROUGHPUT_LOOKS: BannerLook[] = [{ format: "png" }, { format: "webp" }];

export interface ThroughputOptions {
  rounds: number;
  seconds: number;
  /**
   * Seconds of load on each server before the rounds, unmeasured: a server
   * that has run for a while has its drawing code compiled by the JIT's
   * optimizing tiers (after 1 s, the JIT's threads still took 0.35 ms of CPU
   * per banner and a render thread 4.9 ms; after 20 s, 0.11 and 4.2).
   */
  warmSeconds: number;
  connections: number;
}

/** A load, and the CPU its server's main thread (the answering thread) spent per answer, µs. */
export type ThreadsLoad = LoadResult & { mainThreadCpuMicros: number };

export interface ThroughputRound {
  one: ThreadsLoad;
  all: ThreadsLoad;
}

export interface ThroughputFigures {
  /** Render threads of the default server (the cores this process sees). */
  threads: number;
  rounds: ThroughputRound[];
}

/** New banners per second of the default over one thread's, in one round. */
export const throughputRatio = (round: ThroughputRound): number => round.all.rps / round.one.rps;

/** The median round's ratio. */
export const medianThroughputRatio = (figures: ThroughputFigures): number => middle(figures.rounds.map(throughputRatio));

/** Requests outside 2xx, socket errors and timeouts over every round: each would flatter a rate. */
export const throughputErrors = (figures: ThroughputFigures): number =>
  figures.rounds.reduce((sum, round) => sum + round.one.errors + round.all.errors, 0);

export async function measureThroughput(dir: string, options: ThroughputOptions, progress: (line: string) => void): Promise<ThroughputFigures> {
  const threads = availableParallelism();
  const { server: one } = await startPennant(dir, "threads-1", { ...BENCH_ENV, PENNANT_RENDER_THREADS: "1" });
  try {
    const { server: all } = await startPennant(dir, "threads-default", BENCH_ENV);
    try {
      const load = async (server: RunningServer, run: string, seconds: number): Promise<ThreadsLoad> => {
        const mainBefore = mainThreadCpuSeconds(server.pid);
        const result = await runLoad(
          { url: server.url, connections: options.connections, duration: seconds, client: "sockets", scenario: "distinct banner", params: { run, sizes: BANNER_SIZES, templates: SERVER_TEMPLATES, looks: THROUGHPUT_LOOKS } },
          server.pid,
        );
        return { ...result, mainThreadCpuMicros: ((mainThreadCpuSeconds(server.pid) - mainBefore) * 1e6) / Math.max(1, result.responses) };
      };
      // Unmeasured: the JIT, the threads' fonts and the WebP encoder warm on both.
      await load(one, "warm-1", options.warmSeconds);
      await load(all, "warm-all", options.warmSeconds);
      const rounds: ThroughputRound[] = [];
      for (let round = 1; round <= options.rounds; round++) {
        // Alternating which goes first, so that a neighbour's burst does not always hit the same one.
        const oneFirst = round % 2 === 1;
        const first = await load(oneFirst ? one : all, `round${round}-a`, options.seconds);
        const second = await load(oneFirst ? all : one, `round${round}-b`, options.seconds);
        const result = oneFirst ? { one: first, all: second } : { one: second, all: first };
        rounds.push(result);
        progress(`render threads, round ${round}: 1 thread ${count(result.one.rps)}/s, ${threads} threads ${count(result.all.rps)}/s (${times(throughputRatio(result))})`);
      }
      return { threads, rounds };
    } finally {
      await all.kill();
    }
  } finally {
    await one.kill();
  }
}

export function formatThroughput(figures: ThroughputFigures, options: ThroughputOptions): string {
  const row = (round: number, threads: string, load: ThreadsLoad, ratio: string) => [
    round, threads, count(load.rps), ms(load.p50), ms(load.p99), ms(load.serverCpuMicros / 1000), ms(load.mainThreadCpuMicros / 1000),
    `${Math.round(100 * load.clientBusy)}%`, mib(load.peakRss), count(load.errors), ratio,
  ];
  return [
    `${options.rounds} round(s) of ${options.seconds} s per server after ${options.warmSeconds} s of the same load on each, unmeasured, ` +
      `${options.connections} connections, a new banner every request: ` +
      `the four sizes, each as PNG and as WebP (scale 1), five server templates. Median ratio over the rounds: ` +
      `**${times(medianThroughputRatio(figures))}** (${figures.threads} threads over 1).`,
    "",
    table(
      ["round", "render threads", "new banners/s", "p50 ms", "p99 ms", "server CPU per banner (ms)", "of which the answering thread (ms)", "load client CPU", "peak RSS (MiB)", "errors", "rate ratio"],
      figures.rounds.flatMap((r, i) => [row(i + 1, "1", r.one, ""), row(i + 1, `${figures.threads} (default)`, r.all, times(throughputRatio(r)))]),
    ),
  ].join("\n");
}
