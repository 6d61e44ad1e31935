// Runs one load (bench/http/load.mjs: autocannon under Node, a process of its
// own) against a server process and measures that process meanwhile: its CPU
// time per request (from /proc, steadier than rates on a shared machine) and
// its resident memory after the run.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { peakRssBytes, rssBytes } from "../../test/soak/measure.ts";
import { parseAutocannon, type AutocannonSummary } from "../report/autocannon.ts";
import { cpuSeconds } from "../report/proc.ts";
import { spread } from "../report/stats.ts";
import type { ScenarioParams } from "./scenarios.mjs";

export interface LoadSpec {
  url: string;
  connections: number;
  /** Seconds, or a number of requests with `amount`. */
  duration?: number;
  amount?: number;
  scenario: string;
  params: ScenarioParams;
  /** Seconds a request may wait for its answer before autocannon counts a timeout (10 by default). */
  timeoutSeconds?: number;
  /**
   * The load client: autocannon under Node (the default: every scenario), or
   * socket-load.ts under Bun (one kind of request for a duration; a fraction
   * of autocannon's CPU, for loads on the server's cores that the client must
   * not take a share of).
   */
  client?: "autocannon" | "sockets";
}

export interface LoadResult extends AutocannonSummary {
  rps: number;
  /** Exact percentiles of every response's latency, ms. */
  p50: number;
  p99: number;
  /** Answers outside 2xx plus socket errors and timeouts. */
  errors: number;
  /** Statuses per kind of request (mixed loads only). */
  kinds: Record<string, Record<string, number>>;
  /** The load client's CPU time over the wall time: near 1, the client (not the server) was the limit. */
  clientBusy: number;
  /** The server's CPU time per response, µs. */
  serverCpuMicros: number;
  /** The server's resident memory after the run, and its highest so far. */
  rss: number;
  peakRss: number;
}

/** The Node.js that runs autocannon; without one the HTTP benches cannot run. */
export function nodePath(): string {
  const node = Bun.which("node");
  if (!node) throw new Error("the HTTP benches need Node.js 20 or newer on PATH (autocannon runs under it)");
  return node;
}

export async function runLoad(spec: LoadSpec, serverPid: number): Promise<LoadResult> {
  const node = nodePath();
  const dir = mkdtempSync(join(tmpdir(), "pennant-load-"));
  try {
    const latencies = join(dir, "latencies.f64");
    writeFileSync(join(dir, "spec.json"), JSON.stringify({ ...spec, latencies }));
    const cpuBefore = cpuSeconds(serverPid);
    const started = performance.now();
    const command = spec.client === "sockets"
      ? [process.execPath, join(import.meta.dir, "socket-load.ts"), join(dir, "spec.json")]
      : [node, join(import.meta.dir, "load.mjs"), join(dir, "spec.json")];
    const child = Bun.spawn(command, { stdout: "pipe", stderr: "pipe" });
    const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
    if (code !== 0) throw new Error(`load client (${spec.scenario}) exited ${code}: ${err.trim()}`);
    const wall = (performance.now() - started) / 1000;
    const serverCpu = cpuSeconds(serverPid) - cpuBefore;
    const { result, kinds, clientCpuSeconds } = JSON.parse(out) as { result: unknown; kinds: LoadResult["kinds"]; clientCpuSeconds: number };
    const summary = parseAutocannon(result);
    const bytes = readFileSync(latencies);
    const times = new Float64Array(bytes.byteLength / 8);
    new Uint8Array(times.buffer).set(bytes);
    const { median, p99 } = times.length > 0 ? spread(times) : { median: Number.NaN, p99: Number.NaN };
    return {
      ...summary,
      rps: summary.responses / summary.seconds,
      p50: median,
      p99,
      errors: summary.non2xx + summary.socketErrors,
      kinds,
      clientBusy: clientCpuSeconds / wall,
      serverCpuMicros: (serverCpu * 1e6) / Math.max(1, summary.responses),
      rss: rssBytes(serverPid),
      peakRss: peakRssBytes(serverPid),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
