// Cached banners beside MCBanners (issue 40, point 12): both services look up
// the same live status peer (side-by-side/live-server.ts) and each banner is
// asked until it is held; then rounds of 32 keep-alive connections (the socket
// client) alternate MCBanners' server banner (its image cache and status
// cache), ours of the same server (data_mode=query: its lookup cached, as
// theirs is) and, for reference, our manual cached banner. Pennant runs with
// its limits counting (raised so that one address is not refused: the
// RateLimit headers are sent), MCBanners as its own entry point runs it. Both
// on Bun. MCBanners runs from a checkout outside this repository; without one
// the comparison is not measured, and the reason is kept.

import type { RunningServer } from "../../test/support/process.ts";
import { runLoad, type LoadResult } from "../http/load.ts";
import { cachedBannerPath } from "../http/scenarios.mjs";
import { count, micros, table, times } from "../report/markdown.ts";
import { middle } from "../report/stats.ts";
import { startLiveServer, typedAddress } from "../side-by-side/live-server.ts";
import { mcBannersUrl, startMcBanners, type RunningMcBanners } from "../side-by-side/mcbanners.ts";

interface Served {
  rps: number;
  serverCpuMicros: number;
  errors: number;
  clientBusy: number;
}

export interface CachedRound {
  mcbanners: Served;
  /** Our banner of the same looked-up server. */
  query: Served;
  /** Our manual banner (the URL alone decides it), for reference. */
  manual: Served;
}

export type CachedVsMcBanners =
  | { measured: true; commit: string | null; rounds: CachedRound[] }
  | { measured: false; reason: string };

const served = (load: LoadResult): Served => ({ rps: load.rps, serverCpuMicros: load.serverCpuMicros, errors: load.errors, clientBusy: load.clientBusy });

/** Asks `url` until two answers in a row are 200 (the first looks up and draws; the image is then held). */
async function untilHeld(url: string): Promise<void> {
  for (let i = 0; i < 4; i++) {
    const answer = await fetch(url, { headers: { Accept: "image/png" } });
    await answer.arrayBuffer();
    if (answer.status !== 200) throw new Error(`${url} answered ${answer.status}`);
  }
}

export async function measureCachedVsMcBanners(
  pennant: RunningServer, mcbannersDir: string | undefined, options: { rounds: number; seconds: number; connections: number }, progress: (line: string) => void,
): Promise<CachedVsMcBanners> {
  if (!mcbannersDir) return { measured: false, reason: "no MCBanners checkout given (--mcbanners DIR or MCBANNERS_DIR)" };
  const live = await startLiveServer();
  let mcbanners: RunningMcBanners;
  try {
    mcbanners = await startMcBanners(mcbannersDir);
  } catch (error) {
    await live.peer.close();
    return { measured: false, reason: `MCBanners did not start from ${mcbannersDir}: ${(error as Error).message}` };
  }
  try {
    const theirs = new URL(mcBannersUrl(mcbanners.url, live.host, live.port));
    const sides = {
      mcbanners: { server: { url: mcbanners.url, pid: mcbanners.pid }, path: theirs.pathname + theirs.search },
      query: { server: pennant, path: `/api/banner?data_mode=query&ip_address=${encodeURIComponent(typedAddress(live.host, live.port))}` },
      manual: { server: pennant, path: cachedBannerPath(0) },
    };
    const load = async (side: keyof typeof sides, seconds: number) => {
      const { server, path } = sides[side];
      return served(await runLoad({ url: server.url, connections: options.connections, duration: seconds, scenario: "one path", params: { path }, client: "sockets" }, server.pid));
    };
    for (const side of Object.values(sides)) await untilHeld(side.server.url + side.path);
    // Unmeasured: connections, the JIT's tiers.
    for (const side of ["mcbanners", "query", "manual"] as const) await load(side, 1);
    const rounds: CachedRound[] = [];
    for (let round = 0; round < options.rounds; round++) {
      const mcbannersRound = await load("mcbanners", options.seconds);
      const query = await load("query", options.seconds);
      const manual = await load("manual", options.seconds);
      rounds.push({ mcbanners: mcbannersRound, query, manual });
      progress(`round ${round + 1}: MCBanners ${count(mcbannersRound.rps)}/s, ours ${count(query.rps)}/s (manual ${count(manual.rps)}/s)`);
    }
    return { measured: true, commit: mcbanners.commit, rounds };
  } finally {
    await mcbanners.stop();
    await live.peer.close();
  }
}

/** The median over the rounds of our looked-up banner's rate over MCBanners', and of MCBanners' CPU per answer over ours. */
export function cachedRatios(figures: Extract<CachedVsMcBanners, { measured: true }>): { rate: number; cpu: number } {
  return {
    rate: middle(figures.rounds.map((r) => r.query.rps / r.mcbanners.rps)),
    cpu: middle(figures.rounds.map((r) => r.mcbanners.serverCpuMicros / r.query.serverCpuMicros)),
  };
}

export function formatCachedVsMcBanners(figures: CachedVsMcBanners, options: { rounds: number; seconds: number; connections: number }): string {
  if (!figures.measured) return `Not measured: ${figures.reason}.`;
  const ratios = cachedRatios(figures);
  const cell = (s: Served) => `${count(s.rps)} (${micros(s.serverCpuMicros)} µs, ${count(s.errors)} errors)`;
  return [
    `MCBanners at commit ${figures.commit ?? "unknown"}. ${options.rounds} rounds of ${options.seconds} s each side, ${options.connections} connections; ` +
      "each cell: requests per second (server CPU per answer, answers other than 200).",
    "",
    table(
      ["round", "MCBanners, server banner (300x100)", "Pennant, data_mode=query (468x60)", "rate ratio", "CPU ratio", "Pennant, manual banner", "client busy"],
      [
        ...figures.rounds.map((r, i) => [
          i + 1, cell(r.mcbanners), cell(r.query), times(r.query.rps / r.mcbanners.rps), times(r.mcbanners.serverCpuMicros / r.query.serverCpuMicros), cell(r.manual),
          `${Math.round(100 * r.mcbanners.clientBusy)}% / ${Math.round(100 * r.query.clientBusy)}%`,
        ]),
        ["median", "", "", times(ratios.rate), times(ratios.cpu), "", ""],
      ],
    ),
  ].join("\n");
}
