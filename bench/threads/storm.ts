// The draw storm of issue 20: 4 addresses each send 120 new 1200x300 WebP
// banners at scale 2 at once (storm-client.mjs, under Node), with the default
// limits, while another client process asks for /healthz and a cached banner
// one request at a time. Most of the large banners are refused (429 past the
// draw budget, 503 past the draw queue); what is judged is that the cheap
// requests neither wait behind the draws nor are refused. Run with the
// default render threads, then with PENNANT_RENDER_THREADS=0 (drawing on the
// answering thread, as before issue 20) for contrast.

import { join } from "node:path";
import { count, ms, table } from "../report/markdown.ts";
import { spread, type Spread } from "../report/stats.ts";
import { nodePath } from "../http/load.ts";
import { cachedBannerPath } from "../http/scenarios.mjs";
import { startPennant } from "../http/servers.ts";

const CLIENT = join(import.meta.dir, "storm-client.mjs");
export const STORM_ADDRESSES = 4;
export const STORM_PER_ADDRESS = 120;
/** The cheap requests' p99 the storm may cost at most, ms (issue 20). */
export const STORM_P99_MS = 50;

export interface ProbeFigures {
  /** Undefined when no request was answered in the storm's time. */
  latency: Spread | undefined;
  statuses: Record<string, number>;
}

export interface StormRun {
  /** "default" or the PENNANT_RENDER_THREADS value. */
  threads: string;
  /** The large banners' answers by status. */
  statuses: Record<string, number>;
  /** Seconds from the storm's start to its last answer. */
  seconds: number;
  healthz: ProbeFigures;
  cached: ProbeFigures;
}

/** Answers of a probe other than 200 (refusals, failures). */
export const refused = (probe: ProbeFigures): number =>
  Object.entries(probe.statuses).reduce((sum, [status, n]) => sum + (status === "200" ? 0 : n), 0);

async function stormOnce(dir: string, threads: string | undefined): Promise<StormRun> {
  const env: Record<string, string> = { PENNANT_LOG_LEVEL: "error", ...(threads === undefined ? {} : { PENNANT_RENDER_THREADS: threads }) };
  const { server } = await startPennant(dir, `storm-threads-${threads ?? "default"}`, env);
  try {
    const cachedPath = cachedBannerPath(0);
    const first = await fetch(server.url + cachedPath, { headers: { Accept: "image/png" } });
    await first.arrayBuffer();
    if (first.status !== 200) throw new Error(`GET ${cachedPath}: ${first.status}`);
    const node = nodePath();
    const probe = Bun.spawn([node, CLIENT, "probe", server.url, cachedPath], { stdin: "pipe", stdout: "pipe", stderr: "pipe" });
    const probeOut = new Response(probe.stdout).text();
    const probeErr = new Response(probe.stderr).text();
    await Bun.sleep(500); // its connections open and its code warm before anything is recorded
    probe.stdin.write("start\n");
    await probe.stdin.flush();
    const storm = Bun.spawn([node, CLIENT, "storm", server.url, String(STORM_ADDRESSES), String(STORM_PER_ADDRESS), `t${threads ?? "d"}`], { stdout: "pipe", stderr: "pipe" });
    const [stormOut, stormErr, stormCode] = await Promise.all([new Response(storm.stdout).text(), new Response(storm.stderr).text(), storm.exited]);
    await probe.stdin.end();
    const probeCode = await probe.exited;
    if (stormCode !== 0) throw new Error(`storm client exited ${stormCode}: ${stormErr.trim()}`);
    if (probeCode !== 0) throw new Error(`probe client exited ${probeCode}: ${(await probeErr).trim()}`);
    const { statuses, seconds } = JSON.parse(stormOut) as { statuses: Record<string, number>; seconds: number };
    const probed = JSON.parse(await probeOut) as Record<"healthz" | "cached", { latencies: number[]; statuses: Record<string, number> }>;
    const figures = (p: { latencies: number[]; statuses: Record<string, number> }): ProbeFigures => ({
      latency: p.latencies.length > 0 ? spread(p.latencies) : undefined,
      statuses: p.statuses,
    });
    return { threads: threads ?? "default", statuses, seconds, healthz: figures(probed.healthz), cached: figures(probed.cached) };
  } finally {
    await server.kill();
  }
}

/** The storm with the default thread count, then with drawing on the answering thread. */
export async function measureDrawStorm(dir: string, progress: (line: string) => void): Promise<StormRun[]> {
  const runs: StormRun[] = [];
  for (const threads of [undefined, "0"]) {
    const run = await stormOnce(dir, threads);
    runs.push(run);
    progress(`draw storm, threads ${run.threads}: /healthz p99 ${ms(run.healthz.latency?.p99 ?? Number.NaN)} ms, cached banner p99 ${ms(run.cached.latency?.p99 ?? Number.NaN)} ms, last answer after ${run.seconds.toFixed(1)} s`);
  }
  return runs;
}

const statusList = (statuses: Record<string, number>) =>
  Object.entries(statuses).sort(([a], [b]) => a.localeCompare(b)).map(([status, n]) => `${status}: ${count(n)}`).join(", ");

export function formatDrawStorm(runs: StormRun[], threads: number): string {
  const probeCells = (p: ProbeFigures) => [count(p.latency?.samples ?? 0), ms(p.latency?.median ?? Number.NaN), ms(p.latency?.p99 ?? Number.NaN), statusList(p.statuses)];
  return table(
    ["render threads", "large banners: answers", "last answer after (s)", "/healthz: requests", "p50 ms", "p99 ms", "statuses", "cached banner: requests", "p50 ms", "p99 ms", "statuses"],
    runs.map((run) => [
      run.threads === "default" ? `${threads} (default)` : `${run.threads} (the answering thread)`,
      statusList(run.statuses), run.seconds.toFixed(1), ...probeCells(run.healthz), ...probeCells(run.cached),
    ]),
  );
}
