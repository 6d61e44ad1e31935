// Writing a server's history through the store, as pushes do.

import { join } from "node:path";
import { openSqliteStore, type SqliteStore } from "../../src/store/sqlite-store.ts";
import type { Store } from "../../src/store/store.ts";
import { tempDir, track } from "./cleanup.ts";

let keys = 0;
const tokens = new WeakMap<Store, Promise<{ tokenId: number; tokenHash: string }>>();

/** The one token of `store` that its history pushes use. */
function tokenOf(store: Store) {
  let token = tokens.get(store);
  if (!token) {
    token = store.tokens.create({ hash: "history.".padEnd(64, "0"), scope: "all", label: "history", now: 0 }).then((row) => ({ tokenId: row.id, tokenHash: row.hash }));
    tokens.set(store, token);
  }
  return token;
}

/** An accepted update of server `uuid` at `now` with `players` online. */
export async function pushUpdate(store: Store, uuid: string, now: number, players: number): Promise<void> {
  keys += 1;
  const replay = { key: `history-${keys}-`.padEnd(64, "0"), fingerprint: `history-${keys}-`.padEnd(64, "0"), timestampMs: now, expiresAt: Number.MAX_SAFE_INTEGER };
  await store.push({
    credentials: await tokenOf(store),
    replay,
    now,
    bounds: { registrationMax: 10, maxBytesPerToken: 1 << 20 },
    record: { kind: "server", uuid, serverPush: "update", fields: { status: "online", playersOnline: players, playersMax: 100 }, maxPerToken: 10 },
  });
}

/** A new SQLite store in a temporary file, closed after the test. */
export function sqliteStore(): SqliteStore {
  const store = openSqliteStore(join(tempDir("history"), "pennant.db"));
  track(() => store.close());
  return store;
}
