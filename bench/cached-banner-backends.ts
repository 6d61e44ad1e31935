// The backends bench's cached-banner load alone (bench/backends.ts runs all
// four loads, about 4 minutes): server CPU per cached banner on SQLite and on
// PostgreSQL + Redis, one instance each, the same set-ups, load and
// accounting, rounds alternating the set-ups. For work on the per-client
// check's cost with PENNANT_REDIS_URL (issue 21: within 10% of SQLite).
//
// Run: bun bench/cached-banner-backends.ts [--quick]

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { killOnExit, runEnded } from "../test/support/cleanup.ts";
import { startPostgres } from "../test/support/postgres.ts";
import { startRedis } from "../test/support/redis.ts";
import { addUp, measureLoad, type Measured } from "./backends/measure.ts";
import { perRequestMs, SETUPS } from "./backends/report.ts";
import { servicePids } from "./backends/service-cpu.ts";
import { seed, startSharedSetup, startSqliteSetup, type Setup } from "./backends/setups.ts";
import { cachedBannerPath } from "./http/scenarios.mjs";
import { partOptions } from "./report/options.ts";

const options = partOptions(process.argv.slice(2), "bun bench/cached-banner-backends.ts [--quick]");
const settings = options.quick ? { rounds: 1, seconds: 2, connections: 32 } : { rounds: 3, seconds: 5, connections: 32 };

process.on("exit", killOnExit);
const dir = mkdtempSync(join(tmpdir(), "pennant-bench-cached-banner-"));
const setups: Setup[] = [];

try {
  const [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
  const ports = { postgres: Number(new URL(postgres.url()).port), redis: Number(new URL(redis.url).port) };
  const { path: seededPath, seeded } = seed(dir);
  setups.push(await startSqliteSetup(SETUPS.sqlite, seededPath, dir));
  setups.push(await startSharedSetup(SETUPS.shared, seededPath, postgres, redis, 1));
  for (const setup of setups) {
    for (let i = 0; i < 50; i++) await (await fetch(setup.url + cachedBannerPath(0), { headers: { Accept: "image/png" } })).arrayBuffer();
  }
  const runs = new Map<string, Measured[]>();
  for (let round = 0; round < settings.rounds; round++) {
    for (const [index, setup] of setups.entries()) {
      const params = { run: `${round}-${index}`, servers: seeded.servers, pluginUuid: seeded.pluginUuid };
      const services = index === 0 ? () => [] : () => servicePids(ports.postgres, ports.redis);
      runs.set(setup.name, [...(runs.get(setup.name) ?? []), await measureLoad(setup, "cached banner", params, settings, services)]);
    }
  }
  const perRequest = new Map<string, number>();
  for (const setup of setups) {
    const m = addUp(runs.get(setup.name)!);
    perRequest.set(setup.name, perRequestMs(m.serverCpu, m));
    console.log(
      `${setup.name.padEnd(32)} ${(m.responses / m.seconds).toFixed(0).padStart(6)} req/s  server ${perRequestMs(m.serverCpu, m).toFixed(4)} ms/req  ` +
        `PostgreSQL + Redis ${perRequestMs(m.serviceCpu, m).toFixed(4)} ms/req  errors ${m.errors}`,
    );
  }
  console.log(`ratio ${(perRequest.get(SETUPS.shared)! / perRequest.get(SETUPS.sqlite)!).toFixed(3)}x (target: at most 1.10x)`);
} catch (error) {
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  for (const setup of setups.reverse()) await setup.close();
  await runEnded();
  rmSync(dir, { recursive: true, force: true });
}
