// The history storm of issue 38, point 1 (bench/history.ts runs it): four
// addresses (127.0.0.2-5) each ask, one request at a time for a while, for
// the 30-day, 7-day and 24-hour sparklines of a network of the largest size
// the limits allow (PENNANT_MAX_SERVERS_PER_TOKEN: 100 servers; a network of
// its own each, so no address warms another's), each with a new server_name,
// and for each member's yearly history; with the default limits. The
// history is seeded straight into the SQLite file: 30 days of 5-minute
// buckets and a year of hourly ones per server (17,400 rows each). Meanwhile
// another client process asks for /healthz and a cached banner one request at
// a time (threads/storm-client.mjs's probe). What is judged: the cheap
// requests' p99 (under STORM_P99_MS) and that none of them is refused.

import { join } from "node:path";
import { seedNetworkHistory } from "../../test/support/history.ts";
import { startServe } from "../../test/support/process.ts";
import { openSqliteStore } from "../../src/store/sqlite-store.ts";
import { nodePath } from "../http/load.ts";
import { count, ms, table } from "../report/markdown.ts";
import { spread, type Spread } from "../report/stats.ts";

/** The addresses that ask, a network of their own each. */
export const HISTORY_ADDRESSES = 4;
const ATTACKER = join(import.meta.dir, "history-client.mjs");
const PROBE = join(import.meta.dir, "../threads/storm-client.mjs");
const CACHED_PATH = "/api/banner?server_name=Cached%20before%20the%20storm";

export interface HistoryStormFigures {
  members: number;
  seconds: number;
  /** The attackers' answers by status. */
  statuses: Record<string, number>;
  healthz: { latency: Spread | undefined; statuses: Record<string, number> };
  cached: { latency: Spread | undefined; statuses: Record<string, number> };
}

export interface HistoryStormSettings {
  members: number;
  seconds: number;
}

export async function measureHistoryStorm(dir: string, settings: HistoryStormSettings, progress: (line: string) => void): Promise<HistoryStormFigures> {
  const dbPath = join(dir, "history.db");
  const now = Date.now();
  const store = openSqliteStore(dbPath);
  const networks: Array<{ slug: string; members: string[] }> = [];
  for (let n = 0; n < HISTORY_ADDRESSES; n++) {
    const slug = `network-${n}`;
    const members = await seedNetworkHistory(store, { slug, count: settings.members, now, fiveMinuteDays: 30, hourDays: 365, first: n * settings.members });
    networks.push({ slug, members });
    progress(`seeded ${slug}: ${settings.members} servers`);
  }
  await store.close();
  const server = await startServe({ PENNANT_DB: dbPath, PENNANT_LOG_LEVEL: "error" });
  try {
    const first = await fetch(server.url + CACHED_PATH, { headers: { Accept: "image/png" } });
    await first.arrayBuffer();
    const node = nodePath();
    const probe = Bun.spawn([node, PROBE, "probe", server.url, CACHED_PATH], { stdin: "pipe", stdout: "pipe", stderr: "pipe" });
    const probeOut = new Response(probe.stdout).text();
    const probeErr = new Response(probe.stderr).text();
    await Bun.sleep(500);
    probe.stdin.write("start\n");
    await probe.stdin.flush();
    const attack = Bun.spawn([node, ATTACKER, server.url, String(settings.seconds), JSON.stringify(networks)], { stdout: "pipe", stderr: "pipe" });
    const [attackOut, attackErr, attackCode] = await Promise.all([new Response(attack.stdout).text(), new Response(attack.stderr).text(), attack.exited]);
    await probe.stdin.end();
    if (attackCode !== 0) throw new Error(`history client exited ${attackCode}: ${attackErr.trim()}`);
    if ((await probe.exited) !== 0) throw new Error(`probe client failed: ${(await probeErr).trim()}`);
    const probed = JSON.parse(await probeOut) as Record<"healthz" | "cached", { latencies: number[]; statuses: Record<string, number> }>;
    const figures = (p: { latencies: number[]; statuses: Record<string, number> }) => ({ latency: p.latencies.length > 0 ? spread(p.latencies) : undefined, statuses: p.statuses });
    return { ...settings, statuses: JSON.parse(attackOut), healthz: figures(probed.healthz), cached: figures(probed.cached) };
  } finally {
    await server.kill();
  }
}

const statusList = (statuses: Record<string, number>) =>
  Object.entries(statuses).sort(([a], [b]) => a.localeCompare(b)).map(([status, n]) => `${status}: ${count(n)}`).join(", ");

export function formatHistoryStorm(f: HistoryStormFigures): string {
  const probe = (label: string, p: HistoryStormFigures["healthz"]) =>
    [label, count(p.latency?.samples ?? 0), ms(p.latency?.median ?? Number.NaN), ms(p.latency?.p99 ?? Number.NaN), statusList(p.statuses)];
  return [
    `${HISTORY_ADDRESSES} addresses, a network of ${f.members} servers each, for ${f.seconds} s; their answers: ${statusList(f.statuses)}.`,
    "",
    table(["probe", "requests", "p50 ms", "p99 ms", "statuses"], [probe("/healthz", f.healthz), probe("cached banner", f.cached)]),
  ].join("\n");
}

