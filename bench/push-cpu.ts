// The CPU of one signed push on SQLite, in this process, nothing else in the
// measure: the app (createApp) over a real SQLite file with the settings
// `serve` uses (WAL, synchronous=FULL), N signed server updates handed to
// app.handle one after another, timed with process.cpuUsage(). No HTTP
// transport, so the figure is the push path's own work (signature, parsing,
// limits, the store's transaction and its sync), a little below what
// bench/backends.ts measures on a `serve` process. Not part of `npm run bench`.
//
// Run: bun bench/push-cpu.ts [N] (default 5000; --cpu-prof works on it)

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config.ts";
import { createApp } from "../src/http/app.ts";
import { createLogger } from "../src/log.ts";
import { openSqliteStore } from "../src/store/sqlite-store.ts";
import { BENCH_ENV, seedDatabase } from "./http/servers.ts";
import { signedUpdate } from "./http/scenarios.mjs";
import { loadAverage } from "./report/machine.ts";

const pushes = Number(process.argv[2] ?? 5000);
const dir = mkdtempSync(join(tmpdir(), "pennant-push-cpu-"));
const store = { current: undefined as ReturnType<typeof openSqliteStore> | undefined };

/** Sends `count` signed updates, spread over the seeded tokens; returns CPU and wall milliseconds per push. */
async function send(app: { handle(request: Request): Promise<Response> }, servers: Array<{ token: string; uuid: string }>, count: number, run: string) {
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const { method, path, headers, body } = signedUpdate(servers[i % servers.length]!, i, Date.now(), { run });
    const response = await app.handle(new Request(`http://127.0.0.1${path}`, { method, headers, body }));
    if (response.status !== 200) throw new Error(`push ${i} answered ${response.status}: ${await response.text()}`);
    await response.arrayBuffer();
  }
  const spent = process.cpuUsage(cpu);
  return { cpuMs: (spent.user + spent.system) / 1000 / count, wallMs: (performance.now() - started) / count, userMs: spent.user / 1000 / count, systemMs: spent.system / 1000 / count };
}

try {
  const dbPath = join(dir, "push.db");
  const { servers } = seedDatabase(dbPath);
  const config = loadConfig({ ...BENCH_ENV, PENNANT_DB: dbPath, PENNANT_RENDER_THREADS: "0" });
  store.current = openSqliteStore(dbPath);
  const app = await createApp({ config, store: store.current, now: Date.now, log: createLogger({ level: "warn" }) });
  await send(app, servers, Math.min(1000, pushes), "warm");
  const loadAtStart = loadAverage();
  const measured = await send(app, servers, pushes, "measured");
  const f = (ms: number) => ms.toFixed(3);
  console.log(
    `${pushes} signed pushes: ${f(measured.cpuMs)} ms CPU each (user ${f(measured.userMs)}, system ${f(measured.systemMs)}), ${f(measured.wallMs)} ms wall; ` +
      `load average ${loadAtStart.map((v) => v.toFixed(2)).join(" / ")} at start, ${loadAverage().map((v) => v.toFixed(2)).join(" / ")} at end`,
  );
} finally {
  await store.current?.close();
  rmSync(dir, { recursive: true, force: true });
}
