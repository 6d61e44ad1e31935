// The CPU of one signed push on PostgreSQL (issue 21: at most 2x SQLite's),
// in this process: the app (createApp) over a PostgresStore on a throwaway
// cluster (test/support/postgres.ts) seeded as bench/backends.ts seeds it,
// signed server updates handed to app.handle one at a time, then 32 at a
// time, timed with process.cpuUsage() (Pennant's CPU only: the PostgreSQL
// server is another process). Then the same with the limits counted in a
// throwaway Redis (test/support/redis.ts), as `serve` with PENNANT_REDIS_URL
// counts them: the difference is what a push's Redis checks cost this
// process. Not part of `npm run bench`.
//
// Run: bun bench/pg-push-cpu.ts [--pushes N]

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../src/config.ts";
import { createApp } from "../src/serve/app.ts";
import { createLogger } from "../src/log.ts";
import { openPostgresStore, type PostgresStore } from "../src/store/postgres/postgres-store.ts";
import { openSqliteStore } from "../src/store/sqlite-store.ts";
import { startPostgres } from "../test/support/postgres.ts";
import { startRedis } from "../test/support/redis.ts";
import { BENCH_ENV, seedDatabase } from "./http/servers.ts";
import { AT_ONCE, sendPushes, type Handle } from "./push/send-pushes.ts";

const { values: options } = parseArgs({ options: { pushes: { type: "string", default: "3000" } } });
const pushes = Number(options.pushes);
const dir = mkdtempSync(join(tmpdir(), "pennant-pg-push-cpu-"));

const [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
let store: PostgresStore | undefined;
try {
  const dbPath = join(dir, "seed.db");
  const { servers } = seedDatabase(dbPath);
  const url = await postgres.database();
  store = await openPostgresStore(url);
  const from = openSqliteStore(dbPath);
  await store.load(from.dump(Date.now()));
  await from.close();
  for (const [name, env] of [["postgres", {}], ["postgres + redis", { PENNANT_REDIS_URL: redis.url }]] as const) {
    const config = loadConfig({ ...BENCH_ENV, ...env, PENNANT_DB: dbPath, PENNANT_RENDER_THREADS: "0" });
    const app = await createApp({ config, store, now: Date.now, log: createLogger({ level: "warn" }) });
    const handle: Handle = (request) => app.handle(request);
    await sendPushes(handle, servers, Math.min(1000, pushes), 1, `warm ${name}`);
    await sendPushes(handle, servers, pushes, 1, `one ${name}`, `${name} in process, ${pushes} pushes one at a time`);
    await sendPushes(handle, servers, pushes, AT_ONCE, `many ${name}`, `${name} in process, ${pushes} pushes ${AT_ONCE} at a time`);
  }
} finally {
  await store?.close();
  await Promise.all([postgres.close(), redis.close()]);
  rmSync(dir, { recursive: true, force: true });
}
