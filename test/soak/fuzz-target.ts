// The server the soak fuzzes: the app exactly as `serve` composes it and
// listens, but with lookups that never open a socket (fuzzed addresses may be
// any public IP) and a wide per-token budget, so that the fuzz reaches the
// payloads. Configured by the environment like `serve`; prints the same
// "listening on" line. Run by test/soak/soak.ts, not by hand.

import { loadConfig } from "../../src/config.ts";
import { createApp } from "../../src/serve/app.ts";
import { listen } from "../../src/serve/listen.ts";
import { createLogger } from "../../src/log.ts";
import { openSqliteStore } from "../../src/store/sqlite-store.ts";
import { NoNetworkLookup } from "../fuzz/support/no-network-lookup.ts";

const config = loadConfig();
const store = openSqliteStore(config.dbPath);
const log = createLogger({ level: config.logLevel });
const app = await createApp({ config, store, now: Date.now, log, lookup: new NoNetworkLookup(), tokenRateLimit: { count: 1_000_000, windowSeconds: 60 } });
const port = listen(app, config.host, config.port);
console.log(`fuzz target listening on http://${config.host}:${port}`);
