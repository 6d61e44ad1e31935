// HTTP load of Pennant beside a plain Bun.serve, in alternating rounds: one
// cached banner URL, a new banner every request, a cached badge, and signed
// updates (each unique, so the replay guard accepts it). The plain server
// answers the same bytes (GETs) or reads the body and answers a small JSON
// (POST), so the ratio is what Pennant's work costs over HTTP itself.

import type { RunningServer } from "../../test/support/process.ts";
import { count, micros, mib, ms, table, times } from "../report/markdown.ts";
import { middle } from "../report/stats.ts";
import { runLoad, type LoadResult } from "./load.ts";
import type { ScenarioParams } from "./scenarios.mjs";

export interface VersusOptions {
  rounds: number;
  seconds: number;
  connections: number;
}

export interface Round {
  baseline: LoadResult;
  pennant: LoadResult;
}

export interface VersusKind {
  scenario: string;
  label: string;
  rounds: Round[];
}

export const VERSUS_KINDS: Array<{ scenario: string; label: string }> = [
  { scenario: "cached banner", label: "cached banner (one URL)" },
  { scenario: "distinct banner", label: "uncached banners (a new URL each request)" },
  { scenario: "badge", label: "cached badge (`/shields/plugins/{uuid}/downloads.png`)" },
  { scenario: "signed update", label: "signed updates (`POST /api/server/update`)" },
];

export async function measureVersus(
  pennant: RunningServer,
  baseline: RunningServer,
  params: ScenarioParams,
  options: VersusOptions,
  progress: (line: string) => void,
): Promise<VersusKind[]> {
  const results: VersusKind[] = [];
  let runs = 0;
  for (const { scenario, label } of VERSUS_KINDS) {
    // Each run its own tag: no banner or signed body of an earlier run comes back.
    const load = (server: RunningServer, seconds: number) =>
      runLoad({ url: server.url, connections: options.connections, duration: seconds, scenario, params: { ...params, run: `${params.run}.${runs++}` } }, server.pid);
    // A short unmeasured run on each side first: connections, JIT, caches.
    await load(baseline, 1);
    await load(pennant, 1);
    const rounds: Round[] = [];
    for (let round = 0; round < options.rounds; round++) {
      // Alternating: a neighbour's load on a shared machine hits both sides alike.
      const base = await load(baseline, options.seconds);
      const ours = await load(pennant, options.seconds);
      rounds.push({ baseline: base, pennant: ours });
      progress(`${scenario}: round ${round + 1}, plain ${count(base.rps)}/s, Pennant ${count(ours.rps)}/s`);
    }
    results.push({ scenario, label, rounds });
  }
  return results;
}

/** Pennant's rate over the plain server's, per round. */
export const rateRatio = (round: Round) => round.pennant.rps / round.baseline.rps;
/** The plain server's CPU per request over Pennant's: the rate ratio two servers would show each with a core of its own. */
export const cpuRatio = (round: Round) => round.baseline.serverCpuMicros / round.pennant.serverCpuMicros;

export function formatVersus(kinds: VersusKind[], options: VersusOptions): string {
  const rows = kinds.flatMap((kind) =>
    kind.rounds.map((round, i) => [
      i === 0 ? kind.label : "",
      i + 1,
      `${count(round.baseline.rps)} / ${count(round.pennant.rps)}`,
      times(rateRatio(round)),
      `${ms(round.baseline.p50)} / ${ms(round.pennant.p50)}`,
      `${ms(round.baseline.p99)} / ${ms(round.pennant.p99)}`,
      `${count(round.baseline.errors)} / ${count(round.pennant.errors)}`,
      `${micros(round.baseline.serverCpuMicros)} / ${micros(round.pennant.serverCpuMicros)}`,
      times(cpuRatio(round)),
      `${mib(round.baseline.rss)} / ${mib(round.pennant.rss)}`,
      `${Math.round(100 * round.baseline.clientBusy)}% / ${Math.round(100 * round.pennant.clientBusy)}%`,
    ]),
  );
  const summary = kinds.map((kind) => [
    kind.label,
    times(middle(kind.rounds.map(rateRatio))),
    times(middle(kind.rounds.map(cpuRatio))),
  ]);
  return [
    `${options.connections} keep-alive connections, ${options.seconds} s per round, ${options.rounds} round(s) per kind, plain server first in each. ` +
      "Each cell: plain Bun.serve / Pennant.",
    "",
    table(
      ["load", "round", "requests/s", "ratio", "p50 ms", "p99 ms", "errors", "server CPU per request (µs)", "CPU ratio", "server RSS after (MiB)", "load client busy"],
      rows,
    ),
    "",
    "Median over the rounds:",
    "",
    table(["load", "requests/s ratio (Pennant / plain)", "CPU ratio (plain µs / Pennant µs)"], summary),
  ].join("\n");
}
