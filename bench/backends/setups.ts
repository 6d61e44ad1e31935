// The three set-ups the backends bench loads side by side, each over a
// database of its own seeded alike (bench/http/servers.ts's tokens and
// plugin): one `serve` over SQLite; one over PostgreSQL + Redis; two over
// PostgreSQL + Redis behind the round-robin proxy (proxy.ts). PostgreSQL and
// Redis are the test harness's own (test/support/postgres.ts, redis.ts):
// loopback, started for this run, PostgreSQL without fsync.

import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { openPostgresStore } from "../../src/store/postgres/postgres-store.ts";
import { openSqliteStore } from "../../src/store/sqlite-store.ts";
import { startServe, type RunningServer } from "../../test/support/process.ts";
import type { Postgres } from "../../test/support/postgres.ts";
import type { Redis } from "../../test/support/redis.ts";
import { BENCH_ENV, seedDatabase, type Seeded } from "../http/servers.ts";

/**
 * BENCH_ENV's limits out of reach, but over windows of 60 s, the defaults'
 * length, instead of 1 s: with Redis an instance leases a client's units
 * (src/serve/window-leases.ts), a window's first lease one unit and each next
 * at most twice the last, so a client sending 15,000 a second through
 * one-second windows made a dozen lease round trips every second, each
 * holding its key's takes, which no real window length does (a cached
 * banner measured 1.11-1.24x SQLite's CPU so, 1.02x over 60 s windows).
 * And the draw queue at its largest, so that 32 connections from one address
 * drawing new banners at once are queued, not refused.
 */
export const BACKENDS_ENV = {
  ...BENCH_ENV,
  PENNANT_RATE_LIMIT: "1000000/60", PENNANT_DRAW_BUDGET: "1000000/60", PENNANT_PUSH_RATE_LIMIT: "1000000/60",
  PENNANT_DRAW_QUEUE_PER_CLIENT: "1000", PENNANT_DRAW_QUEUE_UNITS: "1000000",
};

export interface Setup {
  name: string;
  /** Where the load goes: the instance, or the proxy in front. */
  url: string;
  /** Every `serve` process: their CPU is the set-up's server CPU. */
  servers: RunningServer[];
  proxy?: RunningServer;
  close(): Promise<void>;
}

/** Copies the seeded SQLite file into a new database of `postgres`, as `pennant copy` does (Store.dump into Store.load). */
async function seededPostgres(sqlitePath: string, postgres: Postgres): Promise<string> {
  const url = await postgres.database();
  const from = openSqliteStore(sqlitePath);
  const to = await openPostgresStore(url);
  try {
    await to.load(from.dump(Date.now()));
  } finally {
    await Promise.all([from.close(), to.close()]);
  }
  return url;
}

async function closeAll(processes: RunningServer[]): Promise<void> {
  await Promise.all(processes.map((p) => p.kill()));
}

/** The tokens and plugin every set-up starts from, in `dir`/seed.db (closed, so a plain copy of the file is whole). */
export function seed(dir: string): { path: string; seeded: Seeded } {
  const path = join(dir, "seed.db");
  return { path, seeded: seedDatabase(path) };
}

export async function startSqliteSetup(name: string, seededPath: string, dir: string): Promise<Setup> {
  const dbPath = join(dir, "sqlite.db");
  copyFileSync(seededPath, dbPath);
  const server = await startServe({ ...BACKENDS_ENV, PENNANT_DB: dbPath });
  return { name, url: server.url, servers: [server], close: () => closeAll([server]) };
}

/**
 * `instances` servers over a copy of the seeded SQLite file in PostgreSQL,
 * all counting limits in `redis`; with more than one, the proxy in front.
 */
export async function startSharedSetup(name: string, seededPath: string, postgres: Postgres, redis: Redis, instances: number): Promise<Setup> {
  const databaseUrl = await seededPostgres(seededPath, postgres);
  const env = { ...BACKENDS_ENV, PENNANT_DATABASE_URL: databaseUrl, PENNANT_REDIS_URL: redis.url };
  const servers: RunningServer[] = [];
  try {
    for (let i = 0; i < instances; i++) servers.push(await startServe(env));
    if (instances === 1) return { name, url: servers[0]!.url, servers, close: () => closeAll(servers) };
    const proxy = await startServe(
      { PENNANT_BENCH_UPSTREAMS: servers.map((s) => s.url).join(",") },
      { command: [process.execPath, join(import.meta.dir, "proxy.ts")] },
    );
    return { name, url: proxy.url, servers, proxy, close: () => closeAll([proxy, ...servers]) };
  } catch (error) {
    await closeAll(servers);
    throw error;
  }
}
