// Writing a server's history through the store, as pushes do.

import { join } from "node:path";
import { DAY_MS, FIVE_MINUTES_MS, HOUR_MS, MINUTE_MS } from "../../src/store/history.ts";
import { openSqliteStore, type SqliteStore } from "../../src/store/sqlite-store.ts";
import type { ServerFields } from "../../src/store/records.ts";
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

/** An accepted update of server `uuid` at `now` with `players` online, saying `status`. */
export async function pushUpdate(store: Store, uuid: string, now: number, players: number, status = "online", maxPerToken = 10): Promise<void> {
  keys += 1;
  const replay = { key: `history-${keys}-`.padEnd(64, "0"), fingerprint: `history-${keys}-`.padEnd(64, "0"), timestampMs: now, expiresAt: Number.MAX_SAFE_INTEGER };
  await store.push({
    credentials: await tokenOf(store),
    replay,
    now,
    bounds: { registrationMax: 10, maxBytesPerToken: 1 << 20 },
    record: { kind: "server", uuid, serverPush: "update", fields: { status, playersOnline: players, playersMax: 100 }, maxPerToken },
  });
}

/** An accepted update of server `uuid` at `now` setting `fields` (its name, MOTD...), by the token of the history pushes. */
export async function pushFields(store: Store, uuid: string, now: number, fields: ServerFields): Promise<void> {
  keys += 1;
  const replay = { key: `fields-${keys}-`.padEnd(64, "0"), fingerprint: `fields-${keys}-`.padEnd(64, "0"), timestampMs: now, expiresAt: Number.MAX_SAFE_INTEGER };
  await store.push({
    credentials: await tokenOf(store),
    replay,
    now,
    bounds: { registrationMax: 10, maxBytesPerToken: 1 << 20 },
    record: { kind: "server", uuid, serverPush: "update", fields, maxPerToken: 10 },
  });
}

/** A new SQLite store in a temporary file, closed after the test. */
export function sqliteStore(): SqliteStore {
  const store = openSqliteStore(join(tempDir("history"), "pennant.db"));
  track(() => store.close());
  return store;
}

/** Monday 5 January 2026, 00:00 UTC. */
export const WEEK_START = Date.UTC(2026, 0, 5);
/** PENNANT_STALE_AFTER of the simulated week. */
export const STALE_SECONDS = 900;

/**
 * A week of updates of `uuid` every 10 minutes, 10 players, with 50 once (day
 * 3, 01:00) and none for 3 hours from day 2, 00:00: online until 00:05 (the
 * last update at 23:50 plus 15 minutes of staleness), offline until 03:00.
 * Each says `statusAt(at)`: "online" unless told otherwise.
 */
export async function pushWeek(store: Store, uuid: string, statusAt: (at: number) => string = () => "online"): Promise<void> {
  for (let at = WEEK_START; at < WEEK_START + 7 * DAY_MS; at += 10 * MINUTE_MS) {
    if (at >= WEEK_START + 2 * DAY_MS && at < WEEK_START + 2 * DAY_MS + 3 * HOUR_MS) continue;
    await pushUpdate(store, uuid, at, at === WEEK_START + 3 * DAY_MS + HOUR_MS ? 50 : 10, statusAt(at));
  }
}

/** Sweeps at `now` until nothing is waiting; how many runs it took. */
export async function sweepAll(store: Store, now: number, staleAfterMs = STALE_SECONDS * 1000): Promise<number> {
  let runs = 1;
  while (await store.history.sweep(now, staleAfterMs)) runs += 1;
  return runs;
}

/**
 * A network of `count` servers (numbered from `first`: networks of one store
 * need servers of their own), each with `fiveMinuteDays` of 5-minute buckets
 * and `hourDays` of hourly ones up to `now`, written straight into the SQLite
 * file (pushing that much takes minutes). All of one token.
 */
export async function seedNetworkHistory(
  store: SqliteStore,
  { slug, count, now, fiveMinuteDays, hourDays, first = 0 }: { slug: string; count: number; now: number; fiveMinuteDays: number; hourDays: number; first?: number },
): Promise<string[]> {
  const uuids = Array.from({ length: count }, (_, i) => `00000000-0000-4000-8000-${String(first + i).padStart(12, "0")}`);
  for (const uuid of uuids) await pushUpdate(store, uuid, now - hourDays * DAY_MS, 1, "online", first + count);
  const sqlite = store.db.$client;
  const { tokenId } = await tokenOf(store);
  sqlite.transaction(() => {
    sqlite.query("insert into networks (slug, token_id, name, created_at, updated_at) values (?, ?, ?, ?, ?)").run(slug, tokenId, slug, now, now);
    const member = sqlite.query("insert into network_members (network_slug, server_uuid, position) values (?, ?, ?)");
    uuids.forEach((uuid, position) => member.run(slug, uuid, position));
    // Each level's buckets made by SQLite itself, a row per step per server: a million rows in about a second.
    const level = sqlite.query(`
      with recursive steps(at) as (select ?1 union all select at + ?2 from steps where at + ?2 < ?3)
      insert or replace into server_history (server_uuid, step_ms, at, players_min, players_avg, players_max, samples, online)
      select m.server_uuid, ?2, steps.at, m.position % 7, m.position % 7 + 1.5, m.position % 7 + 3, ?4, 1
      from steps cross join network_members m where m.network_slug = ?5`);
    const fiveMinutesUntil = Math.floor(now / FIVE_MINUTES_MS) * FIVE_MINUTES_MS;
    const hoursUntil = Math.floor(now / HOUR_MS) * HOUR_MS;
    level.run(fiveMinutesUntil - fiveMinuteDays * DAY_MS, FIVE_MINUTES_MS, fiveMinutesUntil, 5, slug);
    level.run(hoursUntil - hourDays * DAY_MS, HOUR_MS, hoursUntil, 60, slug);
    sqlite.query("insert or replace into history_marks (id, five_minutes_until, hours_until) values (1, ?, ?)").run(fiveMinutesUntil, hoursUntil);
  })();
  return uuids;
}
