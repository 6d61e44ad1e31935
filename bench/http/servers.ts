// The processes the HTTP benches load: Pennant as users run it (`bun
// src/index.ts serve`, its own process, a database of its own) and the plain
// Bun.serve baseline (baseline.ts), both started by test/support/process.ts's
// startServe, which waits for the "listening on" line.

import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { generateToken, hashToken } from "../../src/auth/token.ts";
import { openDatabase } from "../../src/store/database.ts";
import { writePluginPush } from "../../src/store/plugins.ts";
import { sqliteCreateToken } from "../../src/store/tokens.ts";
import { startServe, type RunningServer } from "../../test/support/process.ts";
import type { SignedServer } from "./scenarios.mjs";

/**
 * Budgets no bench client exhausts, and draw queues it does not fill (a burst
 * of 1,000 new banners at once waits whole): the whole load comes from one
 * address. The per-token budget (600 signed requests a minute) is fixed, so
 * signed updates are spread over many tokens, each pushing for a server of its
 * own, as a large network's servers would.
 */
export const BENCH_ENV = {
  PENNANT_RATE_LIMIT: "1000000/1", PENNANT_DRAW_BUDGET: "1000000/1", PENNANT_PUSH_RATE_LIMIT: "1000000/1",
  PENNANT_DRAW_QUEUE_PER_CLIENT: "1000", PENNANT_DRAW_QUEUE_UNITS: "1000000", PENNANT_LOG_LEVEL: "warn",
};
export const SIGNING_TOKENS = 1_000;

export interface Seeded {
  servers: SignedServer[];
  /** A plugin with a download count: the badge's subject. */
  pluginUuid: string;
}

/** Tokens, one server UUID each, and a plugin record, written before the server starts. */
export function seedDatabase(dbPath: string): Seeded {
  const db = openDatabase(dbPath);
  try {
    const now = Date.now();
    const servers = db.$client.transaction(() =>
      Array.from({ length: SIGNING_TOKENS }, () => {
        const token = generateToken();
        sqliteCreateToken(db, { hash: hashToken(token), scope: "server", label: "bench", now });
        return { token, uuid: randomUUID() };
      }),
    )();
    const plugin = sqliteCreateToken(db, { hash: hashToken(generateToken()), scope: "plugin", label: "bench", now });
    const pluginUuid = randomUUID();
    db.transaction((tx) => writePluginPush(tx, { uuid: pluginUuid, tokenId: plugin.id, now, maxPerToken: 1, fields: { name: "Bench", meta: { alpha: { downloads: 12_345 } } } }));
    return { servers, pluginUuid };
  } finally {
    db.$client.close();
  }
}

/**
 * `serve` on a loopback port over `dir`/name.db (seeded first), configured by
 * `env` (the bench's raised budgets by default), run from source unless
 * `command` names another program (the release binary).
 */
export async function startPennant(
  dir: string, name: string, env: Record<string, string> = BENCH_ENV, command?: string[],
): Promise<{ server: RunningServer; seeded: Seeded }> {
  const dbPath = join(dir, `${name}.db`);
  const seeded = seedDatabase(dbPath);
  const server = await startServe({ ...env, PENNANT_DB: dbPath }, command ? { command } : {});
  return { server, seeded };
}

/** The plain Bun.serve answering the bytes in `files` (banner.png, badge.png). */
export function startBaseline(files: string): Promise<RunningServer> {
  return startServe({ PENNANT_BENCH_FILES: files }, { command: [process.execPath, join(import.meta.dir, "baseline.ts")] });
}
