// The CPU of one signed push on PostgreSQL (issue 21: at most 2x SQLite's),
// in this process: the app (createApp) over a PostgresStore on a throwaway
// cluster (test/support/postgres.ts) seeded as bench/backends.ts seeds it,
// signed server updates handed to app.handle one at a time, then 32 at a
// time, timed with process.cpuUsage() (Pennant's CPU only: the PostgreSQL
// server is another process). Not part of `npm run bench`.
//
// Run: bun bench/pg-push-cpu.ts [--pushes N]

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../src/config.ts";
import { createApp } from "../src/http/app.ts";
import { createLogger } from "../src/log.ts";
import { openPostgresStore, type PostgresStore } from "../src/store/postgres/postgres-store.ts";
import { openSqliteStore } from "../src/store/sqlite-store.ts";
import { startPostgres } from "../test/support/postgres.ts";
import { BENCH_ENV, seedDatabase } from "./http/servers.ts";
import { signedUpdate, type SignedServer } from "./http/scenarios.mjs";
import { loadAverage } from "./report/machine.ts";

const { values: options } = parseArgs({ options: { pushes: { type: "string", default: "3000" } } });
const pushes = Number(options.pushes);
const AT_ONCE = 32;
const dir = mkdtempSync(join(tmpdir(), "pennant-pg-push-cpu-"));
const load = () => loadAverage().map((v) => v.toFixed(2)).join(" / ");
const ms = (value: number) => `${value.toFixed(3)} ms`;

type Handle = (request: Request) => Promise<Response>;

async function pushOne(handle: Handle, server: SignedServer, n: number, run: string): Promise<void> {
  const { method, path, headers, body } = signedUpdate(server, n, Date.now(), { run });
  const response = await handle(new Request(`http://127.0.0.1${path}`, { method, headers, body }));
  if (response.status !== 200) throw new Error(`push ${n} answered ${response.status}: ${await response.text()}`);
  await response.arrayBuffer();
}

async function send(handle: Handle, servers: SignedServer[], count: number, atOnce: number, run: string, label?: string): Promise<void> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let first = 0; first < count; first += atOnce) {
    const wave = Array.from({ length: Math.min(atOnce, count - first) }, (_, i) => first + i);
    await Promise.all(wave.map((n) => pushOne(handle, servers[n % servers.length]!, n, run)));
  }
  const spent = process.cpuUsage(cpu);
  if (!label) return;
  const per = (micros: number) => ms(micros / 1000 / count);
  console.log(`${label}: ${per(spent.user + spent.system)} CPU per push (user ${per(spent.user)}, system ${per(spent.system)}), ${ms((performance.now() - started) / count)} wall; load average ${load()}`);
}

const postgres = await startPostgres();
let store: PostgresStore | undefined;
try {
  const dbPath = join(dir, "seed.db");
  const { servers } = seedDatabase(dbPath);
  const url = await postgres.database();
  store = await openPostgresStore(url);
  const from = openSqliteStore(dbPath);
  await store.load(from.dump(Date.now()));
  await from.close();
  const config = loadConfig({ ...BENCH_ENV, PENNANT_DB: dbPath, PENNANT_RENDER_THREADS: "0" });
  const app = await createApp({ config, store, now: Date.now, log: createLogger({ level: "warn" }) });
  const handle: Handle = (request) => app.handle(request);
  await send(handle, servers, Math.min(1000, pushes), 1, "warm");
  await send(handle, servers, pushes, 1, "one", `postgres in process, ${pushes} pushes one at a time`);
  await send(handle, servers, pushes, AT_ONCE, "many", `postgres in process, ${pushes} pushes ${AT_ONCE} at a time`);
} finally {
  await store?.close();
  await postgres.close();
  rmSync(dir, { recursive: true, force: true });
}
