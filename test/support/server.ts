// A real Pennant HTTP server on a loopback port, over a real SQLite file in a
// temporary folder, with a clock the test can move. Closed and removed after
// the test even when the test fails before its own close (cleanup.ts).

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateToken, hashToken } from "../../src/auth/token.ts";
import { loadConfig, type Config } from "../../src/config.ts";
import { createApp, type App, type AppContext } from "../../src/serve/app.ts";
import { listen } from "../../src/serve/listen.ts";
import { createLogger } from "../../src/log.ts";
import type { LookupService } from "../../src/lookup/lookup-service.ts";
import type { Db } from "../../src/store/database.ts";
import type { TokenScope } from "../../src/auth/token.ts";
import { openSqliteStore } from "../../src/store/sqlite-store.ts";
import type { Store } from "../../src/store/store.ts";
import { sqliteCreateToken } from "../../src/store/tokens.ts";
import { track } from "./cleanup.ts";

export interface TestServer {
  url: string;
  /** The application itself: its registered routes, and handle() for requests built by hand. */
  app: App;
  store: Store;
  /** The SQLite database behind the store, for tests that look into the file or break it. */
  db: Db;
  dbPath: string;
  clock: { now: number };
  config: Config;
  /** The log lines the app wrote so far, parsed (PENNANT_LOG_LEVEL applies). */
  logs(): Array<Record<string, any>>;
  /** A new token in the database, as `token create` makes it. */
  token(scope?: TokenScope): string;
  close(): Promise<void>;
}

export async function startTestServer(
  env: Record<string, string> = {},
  options: Pick<AppContext, "tokenRateLimit" | "lookup" | "renderCache" | "bodyDeadlineMs" | "holdDraws" | "alertIntervalMs" | "webhookResolver" | "discordApi" | "marketTimeoutMs"> & { clockStart?: number } = {},
): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), "pennant-test-"));
  // PENNANT_DB in env picks a database of the test's own (one that outlives this server).
  const config = loadConfig({ PENNANT_DB: join(dir, "pennant.db"), ...env });
  const dbPath = config.dbPath;
  const { clockStart, ...appOptions } = options;
  const clock = { now: clockStart ?? Date.now() };
  const store = openSqliteStore(dbPath, () => clock.now);
  const lines: string[] = [];
  const log = createLogger({ level: config.logLevel, write: (line) => lines.push(line) });
  const app = await createApp({ config, store, now: () => clock.now, log, ...appOptions });
  // The same transport settings as `serve`.
  const port = listen(app, "127.0.0.1", 0);
  const close = track(async () => {
    await app.stop(true);
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    app,
    store,
    db: store.db,
    dbPath,
    clock,
    config,
    logs: () => lines.map((line) => JSON.parse(line)),
    token(scope: TokenScope = "all") {
      const secret = generateToken();
      // Straight into the file, so that a test gets its token without awaiting.
      sqliteCreateToken(store.db, { hash: hashToken(secret), scope, label: "test", now: clock.now });
      return secret;
    },
    close,
  };
}
