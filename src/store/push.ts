// Accepting a signed push: the request is remembered for the replay guard, an
// open-registration token is created, and the record is written, all in one
// transaction, so that a rejected request (replay, not the owner, over a
// limit, a failed write) stores nothing. The limits that count across
// requests (tokens open registration made, JSON bytes a token stores) are
// counted inside that transaction: no push can slip in between a count and
// its write. The replay key's primary key decides:
// of two identical pushes that both got past the guard's look-up, the one
// whose insert finds the key taken is the duplicate and writes nothing.
// Pushes that arrive together share the transaction (acceptPushes), each in
// a savepoint, so one refused push takes back only its own writes.

import { eq, sql } from "drizzle-orm";
import { isDuplicate, type ReplayStatus } from "../auth/replay.ts";
import type { Db, Tx } from "./database.ts";
import { writePluginPush } from "./plugins.ts";
import type { PushStatements } from "./push-statements.ts";
import { keyExpiry } from "./replay-memory.ts";
import { RegistrationFullError, ReplayError, StorageLimitError } from "./write-refusals.ts";
import { sqlitePlugins, sqliteServers, sqliteTokens } from "./schema.ts";
import { writeServerPush } from "./servers.ts";
import { storeUnavailable } from "./unavailable.ts";
import type { Push, RecordWrite } from "./store.ts";
import { countRegisteredTokens, sqliteExpireIdleRegistrations } from "./tokens.ts";

/** What became of one push of a batch: its status, or the refusal it was rolled back with. */
export type PushOutcome = { status: ReplayStatus } | { refusal: unknown };

/**
 * Accepts `pushes` in one transaction, in order, each in a savepoint of its
 * own: a refused push is rolled back alone and the others are kept. A fault
 * of the database (storeUnavailable) throws, and then none is kept. The
 * transaction's one commit (and sync) is what a batch saves.
 */
export function acceptPushes(db: Db, statements: PushStatements, pushes: Push[]): PushOutcome[] {
  return db.transaction((tx) =>
    pushes.map((push) => {
      statements.savepoint();
      try {
        const status = acceptPush(tx, statements, push);
        statements.release();
        return { status };
      } catch (error) {
        if (storeUnavailable(error)) throw error;
        statements.rollbackToSavepoint();
        return { refusal: error };
      }
    }),
  );
}

/** Remembers the push and writes its record; "duplicate" (nothing written) when this exact push is already remembered. */
function acceptPush(tx: Tx, statements: PushStatements, push: Push): ReplayStatus {
  const { credentials, replay, now, bounds, record } = push;
  statements.sweepKeys(now);
  if (!statements.rememberKey(replay.key, keyExpiry(replay, statements.recordedWindow()), replay.fingerprint)) {
    if (isDuplicate(replay, sqliteRememberedFingerprint(statements, replay.key, now) ?? null)) return "duplicate";
    throw new ReplayError();
  }

  const tokenId = credentials.tokenId ?? registerToken(tx, credentials.tokenHash, now, bounds.registrationMax);
  statements.touchToken(tokenId, now);
  const before = statements.recordJsonBytes(record.kind, record.uuid);
  writeRecord(tx, statements, record, tokenId, now);
  // Only a record that grew can take its token over; the token's total is a
  // scan of its records, so most pushes (the same meta again) skip it.
  if (statements.recordJsonBytes(record.kind, record.uuid) > before) {
    const stored = tokenJsonBytes(tx, tokenId);
    if (stored > bounds.maxBytesPerToken) throw new StorageLimitError(bounds.maxBytesPerToken, stored);
  }
  return "new";
}

function writeRecord(tx: Tx, statements: PushStatements, record: RecordWrite, tokenId: number, now: number): void {
  const { uuid, maxPerToken } = record;
  if (record.kind === "server") writeServerPush(statements, { uuid, tokenId, now, kind: record.serverPush, fields: record.fields, maxPerToken });
  else writePluginPush(tx, { uuid, tokenId, now, fields: record.fields, maxPerToken });
}

/**
 * Creates the token of open registration, once idle registrations have made
 * room: registrations are rare (PENNANT_REGISTRATION_LIMIT per address), so
 * sweeping here keeps the count honest without a timer.
 */
function registerToken(tx: Tx, hash: string, now: number, max: number): number {
  // The token was looked up before this transaction: a push of the same new
  // token may have registered it since. This push is then that token's.
  const registered = tx.select({ id: sqliteTokens.id }).from(sqliteTokens).where(eq(sqliteTokens.hash, hash)).get();
  if (registered) return registered.id;
  sqliteExpireIdleRegistrations(tx, now);
  if (countRegisteredTokens(tx) >= max) throw new RegistrationFullError(max);
  const row = tx
    .insert(sqliteTokens)
    .values({ hash, scope: "all", label: "self-registered", origin: "registration", createdAt: now })
    .returning({ id: sqliteTokens.id })
    .get();
  return row.id;
}

// The free-form JSON a record holds: a plugin's meta and stats, a server's
// extra stats. The other stored fields have fixed bounds.
const bytes = (column: unknown) => sql<number>`coalesce(sum(length(cast(${column} as blob))), 0)`;
const PLUGIN_JSON = sql`${sqlitePlugins.meta} || ${sqlitePlugins.stats}`;

/** The stored JSON bytes of every record the token owns. */
function tokenJsonBytes(tx: Tx, tokenId: number): number {
  const inPlugins = tx.select({ n: bytes(PLUGIN_JSON) }).from(sqlitePlugins).where(eq(sqlitePlugins.tokenId, tokenId)).get();
  const inServers = tx.select({ n: bytes(sqliteServers.extra) }).from(sqliteServers).where(eq(sqliteServers.tokenId, tokenId)).get();
  return (inPlugins?.n ?? 0) + (inServers?.n ?? 0);
}

/**
 * The fingerprint remembered under a replay key whose request's timestamp is
 * still inside the window (null for a row kept from before fingerprints);
 * undefined when the key is not remembered.
 */
export function sqliteRememberedFingerprint(statements: PushStatements, key: string, now: number): string | null | undefined {
  const row = statements.rememberedKey(key);
  return row !== undefined && row.expiresAt >= now ? row.fingerprint : undefined;
}
