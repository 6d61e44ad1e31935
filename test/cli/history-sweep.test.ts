// `serve` rolls the servers' history up by itself: its sweep runs at start
// and every minute, so a database with older samples has buckets soon after.

import { expect, test } from "bun:test";
import { join } from "node:path";
import { openSqliteStore } from "../../src/store/sqlite-store.ts";
import { DAY_MS, HOUR_MS } from "../../src/store/history.ts";
import { tempDir } from "../support/cleanup.ts";
import { pushUpdate } from "../support/history.ts";
import { startServe } from "../support/process.ts";

const UUID = "00000000-0000-4000-8000-000000000023";

test("serve sweeps at start: two days of updates become 5-minute and hourly buckets, the samples past a day are dropped", async () => {
  const path = join(tempDir("history-sweep"), "pennant.db");
  const seeded = openSqliteStore(path);
  const start = Math.floor(Date.now() / HOUR_MS) * HOUR_MS - 2 * DAY_MS;
  for (let at = start; at < start + 2 * DAY_MS; at += 10 * 60_000) await pushUpdate(seeded, UUID, at, 5);
  await seeded.close();

  const server = await startServe({ PENNANT_DB: path });
  const history = () => fetch(`${server.url}/api/servers/${UUID}/history?range=7d`).then((response) => response.json()) as Promise<{ uptime: number | null; points: unknown[] }>;
  let answer = await history();
  for (let tries = 0; answer.points.length < 40 && tries < 50; tries++) {
    await Bun.sleep(100);
    answer = await history();
  }
  await server.kill("SIGTERM");
  expect(answer.points.length).toBeGreaterThanOrEqual(47);
  expect(answer.uptime).toBeGreaterThan(0.2);

  const store = openSqliteStore(path);
  try {
    const count = (sql: string) => (store.db.$client.query(sql).get() as { n: number }).n;
    expect(count("SELECT count(*) AS n FROM server_history WHERE step_ms = 3600000")).toBeGreaterThanOrEqual(47);
    expect(count("SELECT count(*) AS n FROM server_samples")).toBeLessThanOrEqual(24 * 6 + 6);
  } finally {
    await store.close();
  }
});
