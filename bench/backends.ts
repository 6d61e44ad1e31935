// The backends bench (issue 21), numbers not tests: per-request server CPU
// and requests/s of signed pushes, cached banners, new banners and cached
// badges on three set-ups side by side in one run (backends/setups.ts): one
// `serve` over SQLite, one over PostgreSQL + Redis, two over PostgreSQL +
// Redis behind a round-robin proxy. Rounds alternate the set-ups load by
// load, so a neighbour's load hits all three alike. PostgreSQL and Redis are
// started for the run on loopback by the test harness (PostgreSQL with
// fsync off): what a database server on the same machine costs, not a
// network's round trips or a disk's syncs.
//
// Run: bun bench/backends.ts [--quick] [--json FILE]
// Part of `npm run bench` (bench/index.ts), which writes docs/performance.md.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { killOnExit, runEnded } from "../test/support/cleanup.ts";
import { postgresBin, startPostgres } from "../test/support/postgres.ts";
import { redisServer, startRedis } from "../test/support/redis.ts";
import { addUp, measureLoad, type Measured } from "./backends/measure.ts";
import { backendTargets, formatBackends, formatRatios, KINDS, SETUPS, type BackendsFigures } from "./backends/report.ts";
import { servicePids } from "./backends/service-cpu.ts";
import { seed, startSharedSetup, startSqliteSetup, type Setup } from "./backends/setups.ts";
import { nodePath } from "./http/load.ts";
import { badgePath, cachedBannerPath } from "./http/scenarios.mjs";
import { loadAverage } from "./report/machine.ts";
import { partOptions } from "./report/options.ts";

const options = partOptions(process.argv.slice(2), "bun bench/backends.ts [--quick] [--json FILE]");
const settings = options.quick ? { rounds: 1, seconds: 2, connections: 32 } : { rounds: 2, seconds: 5, connections: 32 };

const progress = (line: string) => console.error(`  ${line}`);
// A failure part-way must not leave a server, PostgreSQL or Redis running.
process.on("exit", killOnExit);
const dir = mkdtempSync(join(tmpdir(), "pennant-bench-backends-"));
const setups: Setup[] = [];

/** A few requests of each cached kind first, so that no measured run pays for the first draw or a cold JIT. */
async function warmUp(setup: Setup, pluginUuid: string): Promise<void> {
  for (let i = 0; i < 50; i++) {
    for (const path of [cachedBannerPath(0), badgePath(pluginUuid)]) {
      const response = await fetch(setup.url + path, { headers: { Accept: "image/png" } });
      if (response.status !== 200) throw new Error(`${setup.name}: GET ${path} answered ${response.status}`);
      await response.arrayBuffer();
    }
  }
}

/** The version number a program prints for --version ("postgres (PostgreSQL) 15.18 (Debian ...)", "Redis server v=7.0.15 sha=..."). */
function version(program: string): string {
  const printed = Bun.spawnSync([program, "--version"]).stdout.toString();
  return /\d+\.\d+(\.\d+)?/.exec(printed)?.[0] ?? "(version unknown)";
}

const load = (values: number[]) => values.map((v) => v.toFixed(2)).join(" / ");

try {
  const loadAtStart = loadAverage();
  nodePath(); // fails at once, not after the services started
  progress("starting PostgreSQL, Redis and the set-ups");
  const [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
  const ports = { postgres: Number(new URL(postgres.url()).port), redis: Number(new URL(redis.url).port) };
  const services = () => servicePids(ports.postgres, ports.redis);
  const { path: seededPath, seeded } = seed(dir);
  setups.push(await startSqliteSetup(SETUPS.sqlite, seededPath, dir));
  setups.push(await startSharedSetup(SETUPS.shared, seededPath, postgres, redis, 1));
  setups.push(await startSharedSetup(SETUPS.pair, seededPath, postgres, redis, 2));
  for (const setup of setups) await warmUp(setup, seeded.pluginUuid);

  const runs = new Map<string, Measured[]>();
  for (let round = 0; round < settings.rounds; round++) {
    for (const kind of KINDS) {
      for (const [index, setup] of setups.entries()) {
        progress(`round ${round + 1}/${settings.rounds}: ${kind.name}, ${setup.name}`);
        const params = { run: `${round}-${index}`, servers: seeded.servers, pluginUuid: seeded.pluginUuid };
        const measured = await measureLoad(setup, kind.scenario, params, settings, setup === setups[0] ? () => [] : services);
        const key = `${kind.name}\n${setup.name}`;
        runs.set(key, [...(runs.get(key) ?? []), measured]);
      }
    }
  }

  const figures: BackendsFigures = {
    cells: KINDS.flatMap((kind) => setups.map((setup) => ({ kind: kind.name, setup: setup.name, measured: addUp(runs.get(`${kind.name}\n${setup.name}`)!) }))),
  };
  const conditions =
    `${settings.rounds} round${settings.rounds > 1 ? "s" : ""} of ${settings.seconds} s per load and set-up, ${settings.connections} connections; ` +
    `PostgreSQL ${version(join(postgresBin(), "postgres"))}, Redis ${version(redisServer())}. ` +
    `Load average (1 / 5 / 15 min) while this part ran: ${load(loadAtStart)} at its start, ${load(loadAverage())} at its end.`;
  const markdown = { backends: formatBackends(figures), ratios: formatRatios(figures), conditions };
  const targets = backendTargets(figures);
  for (const [section, text] of Object.entries(markdown)) console.log(`## ${section}\n\n${text}\n`);
  for (const t of targets) console.log(`${t.verdict.padEnd(12)} ${t.target} (${t.measured})`);
  if (options.json) writeFileSync(options.json, JSON.stringify({ figures: { ...figures, settings }, markdown }));
} catch (error) {
  // One line; PENNANT_DEBUG=1 adds the stack, as for the server's own unexpected failures.
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  if (process.env.PENNANT_DEBUG === "1" && error instanceof Error) console.error(error.stack);
  process.exitCode = 1;
} finally {
  for (const setup of setups.reverse()) await setup.close();
  await runEnded(); // PostgreSQL and Redis (the harness registered their closing)
  rmSync(dir, { recursive: true, force: true });
}
