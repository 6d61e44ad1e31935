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
import { createApp } from "../src/serve/app.ts";
import { createLogger } from "../src/log.ts";
import { openSqliteStore, type SqliteStore } from "../src/store/sqlite-store.ts";
import { startSqliteSetup } from "./backends/setups.ts";
import { runLoad } from "./http/load.ts";
import { BENCH_ENV, seedDatabase } from "./http/servers.ts";
import { AT_ONCE, loadNow, ms, sendPushes, type Handle } from "./push/send-pushes.ts";

const { values: options } = parseArgs({ options: { pushes: { type: "string", default: "5000" }, serve: { type: "boolean", default: false } } });
const pushes = Number(options.pushes);
const dir = mkdtempSync(join(tmpdir(), "pennant-push-cpu-"));

let store: SqliteStore | undefined;
try {
  const dbPath = join(dir, "push.db");
  const { servers } = seedDatabase(dbPath);
  const config = loadConfig({ ...BENCH_ENV, PENNANT_DB: dbPath, PENNANT_RENDER_THREADS: "0" });
  store = openSqliteStore(dbPath);
  const app = await createApp({ config, store, now: Date.now, log: createLogger({ level: "warn" }) });
  const handle: Handle = (request) => app.handle(request);
  await sendPushes(handle, servers, Math.min(1000, pushes), 1, "warm");
  await sendPushes(handle, servers, pushes, 1, "one", `in process, ${pushes} pushes one at a time`);
  await sendPushes(handle, servers, pushes, AT_ONCE, "many", `in process, ${pushes} pushes ${AT_ONCE} at a time`);
  await store.close();
  store = undefined;
  if (options.serve) {
    const setup = await startSqliteSetup("sqlite", dbPath, dir);
    try {
      const params = { run: "serve", servers, pluginUuid: "" };
      const r = await runLoad({ url: setup.url, connections: AT_ONCE, duration: 5, scenario: "signed update", params }, setup.servers[0]!.pid);
      console.log(`serve, ${AT_ONCE} connections for 5 s: ${ms(r.serverCpuMicros / 1000)} CPU per push, ${r.rps.toFixed(0)} pushes/s, ${r.errors} errors; load average ${loadNow()}`);
    } finally {
      await setup.close();
    }
  }
} finally {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
}
