// The CPU of one signed push on SQLite (issue 21's target: at most 0.4 ms),
// with nothing else in the measure. In this process: the app (createApp)
// over a real SQLite file with the settings `serve` uses (WAL,
// synchronous=FULL), signed server updates handed to app.handle one at a
// time, then 32 at a time (what group commit batches), timed with
// process.cpuUsage(); no HTTP transport, so it is the push path's own work.
// With --serve, also a `serve` process under 32 connections of signed updates
// (autocannon, as bench/backends.ts loads it), its CPU per request from /proc.
// Not part of `npm run bench`.
//
// Run: bun bench/push-cpu.ts [--pushes N] [--serve] (--cpu-prof works on it)

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../src/config.ts";
import { createApp } from "../src/http/app.ts";
import { createLogger } from "../src/log.ts";
import { openSqliteStore, type SqliteStore } from "../src/store/sqlite-store.ts";
import { startSqliteSetup } from "./backends/setups.ts";
import { runLoad } from "./http/load.ts";
import { BENCH_ENV, seedDatabase } from "./http/servers.ts";
import { signedUpdate, type SignedServer } from "./http/scenarios.mjs";
import { loadAverage } from "./report/machine.ts";

const { values: options } = parseArgs({ options: { pushes: { type: "string", default: "5000" }, serve: { type: "boolean", default: false } } });
const pushes = Number(options.pushes);
const AT_ONCE = 32;
const dir = mkdtempSync(join(tmpdir(), "pennant-push-cpu-"));
const load = () => loadAverage().map((v) => v.toFixed(2)).join(" / ");
const ms = (value: number) => `${value.toFixed(3)} ms`;

type Handle = (request: Request) => Promise<Response>;

async function pushOne(handle: Handle, server: SignedServer, n: number, run: string): Promise<void> {
  const { method, path, headers, body } = signedUpdate(server, n, Date.now(), { run });
  const response = await handle(new Request(`http://127.0.0.1${path}`, { method, headers, body }));
  if (response.status !== 200) throw new Error(`push ${n} answered ${response.status}: ${await response.text()}`);
  await response.arrayBuffer();
}

/** Sends `count` signed updates, `atOnce` at a time, spread over the seeded tokens; prints CPU and wall time per push. */
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
  console.log(
    `${label}: ${per(spent.user + spent.system)} CPU per push (user ${per(spent.user)}, system ${per(spent.system)}), ` +
      `${ms((performance.now() - started) / count)} wall; load average ${load()}`,
  );
}

let store: SqliteStore | undefined;
try {
  const dbPath = join(dir, "push.db");
  const { servers } = seedDatabase(dbPath);
  const config = loadConfig({ ...BENCH_ENV, PENNANT_DB: dbPath, PENNANT_RENDER_THREADS: "0" });
  store = openSqliteStore(dbPath);
  const app = await createApp({ config, store, now: Date.now, log: createLogger({ level: "warn" }) });
  const handle: Handle = (request) => app.handle(request);
  await send(handle, servers, Math.min(1000, pushes), 1, "warm");
  await send(handle, servers, pushes, 1, "one", `in process, ${pushes} pushes one at a time`);
  await send(handle, servers, pushes, AT_ONCE, "many", `in process, ${pushes} pushes ${AT_ONCE} at a time`);
  await store.close();
  store = undefined;
  if (options.serve) {
    const setup = await startSqliteSetup("sqlite", dbPath, dir);
    try {
      const params = { run: "serve", servers, pluginUuid: "" };
      const r = await runLoad({ url: setup.url, connections: AT_ONCE, duration: 5, scenario: "signed update", params }, setup.servers[0]!.pid);
      console.log(`serve, ${AT_ONCE} connections for 5 s: ${ms(r.serverCpuMicros / 1000)} CPU per push, ${r.rps.toFixed(0)} pushes/s, ${r.errors} errors; load average ${load()}`);
    } finally {
      await setup.close();
    }
  }
} finally {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
}
