// Accepting a signed push in PostgreSQL: the same steps and refusals as
// ../push.ts, in one transaction, made safe for pushes that run at the same
// time on other connections and instances (READ COMMITTED, where SQLite's
// single writer serialised them):
// - the replay key is inserted with ON CONFLICT, which waits for a
//   transaction inserting the same key and then finds it: of two identical
//   pushes, one is applied and the other is the duplicate;
// - a record is claimed by an upsert that updates only the owner's row
//   (pg-servers.ts, pg-plugins.ts): of tokens racing for a new record one
//   owns it, the others get NotOwnerError;
// - what is counted per token (its records, its JSON bytes) is counted after
//   locking the token's row, so pushes of one token that create records or
//   grow them take turns; the other pushes never wait on that row;
// - open registration counts under an advisory lock (pg-tokens.ts).
// Locks are taken record first, token row after, so that two pushes cannot
// each hold what the other waits for (a new record has no row to hold yet).

import { and, count, eq, ne, sql } from "drizzle-orm";
import { isDuplicate, type ReplayStatus } from "../../auth/replay.ts";
import { lastUseStale } from "../records.ts";
import { REPLAY_MEMORY_ROW } from "../replay-memory.ts";
import type { Push, RecordWrite } from "../store.ts";
import { NotOwnerError, RecordLimitError, RegistrationFullError, ReplayError, StorageLimitError } from "../write-refusals.ts";
import type { PgDb, PgTx } from "./open-postgres.ts";
import { PLUGIN_JSON_BYTES, writePluginPush } from "./pg-plugins.ts";
import { SERVER_JSON_BYTES, writeServerPush } from "./pg-servers.ts";
import { countRegisteredTokens, expireIdleRegistrations, findTokenByHash, lockRegistrations } from "./pg-tokens.ts";
import { plugins, servers, tokens, usedSignatures } from "./postgres-schema.ts";

/**
 * Remembers the push and writes its record; "duplicate" (nothing written) when
 * this exact push is already remembered. `sweep` says whether this push also
 * deletes the expired replay keys (the store does it at most once a second:
 * a key left over is taken over by rememberKey and never read as held).
 */
export function acceptPush(db: PgDb, push: Push, sweep = true): Promise<ReplayStatus> {
  const { credentials, replay, now, bounds, record } = push;
  return db.transaction(async (tx) => {
    if (sweep) await sweepReplayKeys(tx, now);
    if (!(await rememberKey(tx, push))) {
      if (isDuplicate(replay, (await rememberedFingerprint(tx, replay.key, now)) ?? null)) return "duplicate";
      throw new ReplayError();
    }

    const tokenId = credentials.tokenId ?? (await registerToken(tx, credentials.tokenHash, now, bounds.registrationMax));
    const lockToken = once(async () => {
      await tx.select({ id: tokens.id }).from(tokens).where(eq(tokens.id, tokenId)).for("update");
    });
    const before = await recordBefore(tx, record);
    if (before && before.tokenId !== tokenId) throw new NotOwnerError(record.kind);
    if (!before) {
      await lockToken();
      const owned = await countOwned(tx, record, tokenId);
      if (owned >= record.maxPerToken) throw new RecordLimitError(record.kind, record.maxPerToken);
    }
    const after = await writeRecord(tx, record, tokenId, now);
    // Only a record that grew can take its token over (see ../push.ts).
    if (after > (before?.jsonBytes ?? 0)) {
      await lockToken();
      const stored = await tokenJsonBytes(tx, tokenId);
      if (stored > bounds.maxBytesPerToken) throw new StorageLimitError(bounds.maxBytesPerToken, stored);
    }
    await touchToken(tx, tokenId, now);
    return "new";
  });
}

/** `run` on its first call; later calls return the first call's promise (a query builder would run again each time it is awaited). */
function once<T>(run: () => Promise<T>): () => Promise<T> {
  let done: Promise<T> | undefined;
  return () => (done ??= run());
}

/**
 * Deletes replay keys whose window has closed. Rows another push is deleting
 * are skipped rather than waited for: every push sweeps, and none should
 * queue behind another's sweep.
 */
async function sweepReplayKeys(tx: PgTx, now: number): Promise<void> {
  await tx.execute(sql`
    DELETE FROM used_signatures WHERE signature IN (
      SELECT signature FROM used_signatures WHERE expires_at < ${now} FOR UPDATE SKIP LOCKED)`);
}

/**
 * Inserts the push's replay key, or takes over an expired row of it the sweep
 * skipped; false when the key is held. One statement: the expiry is
 * keyExpiry (../replay-memory.ts) with the recorded window read in place.
 */
async function rememberKey(tx: PgTx, { replay, now }: Push): Promise<boolean> {
  const consumed = await tx.execute(sql`
    INSERT INTO used_signatures (signature, fingerprint, expires_at)
    VALUES (${replay.key}, ${replay.fingerprint}, GREATEST(${replay.expiresAt}::int8, ${replay.timestampMs}::int8
      + COALESCE((SELECT clock_skew_ms FROM replay_memory WHERE id = ${REPLAY_MEMORY_ROW}), 0)))
    ON CONFLICT (signature) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, expires_at = EXCLUDED.expires_at
      WHERE used_signatures.expires_at < ${now}
    RETURNING signature`);
  return consumed.length > 0;
}

/**
 * Creates the token of open registration (see ../push.ts), under the
 * registration lock: a push of the same new token that registered it while
 * this one waited makes this push that token's.
 */
async function registerToken(tx: PgTx, hash: string, now: number, max: number): Promise<number> {
  await lockRegistrations(tx);
  const registered = await findTokenByHash(tx, hash);
  if (registered) return registered.id;
  await expireIdleRegistrations(tx, now);
  if ((await countRegisteredTokens(tx)) >= max) throw new RegistrationFullError(max);
  const [row] = await tx
    .insert(tokens)
    .values({ hash, scope: "all", label: "self-registered", origin: "registration", createdAt: now })
    .returning({ id: tokens.id });
  return row!.id;
}

/** The record's owner and stored JSON bytes, or undefined while it does not exist. */
async function recordBefore(tx: PgTx, record: RecordWrite): Promise<{ tokenId: number; jsonBytes: number } | undefined> {
  const [row] =
    record.kind === "server"
      ? await tx.select({ tokenId: servers.tokenId, jsonBytes: SERVER_JSON_BYTES }).from(servers).where(eq(servers.uuid, record.uuid))
      : await tx.select({ tokenId: plugins.tokenId, jsonBytes: PLUGIN_JSON_BYTES }).from(plugins).where(eq(plugins.uuid, record.uuid));
  return row;
}

/** Records of the push's kind the token owns, this one left out (another push of the token may have just created it). */
async function countOwned(tx: PgTx, record: RecordWrite, tokenId: number): Promise<number> {
  const [row] =
    record.kind === "server"
      ? await tx.select({ n: count() }).from(servers).where(and(eq(servers.tokenId, tokenId), ne(servers.uuid, record.uuid)))
      : await tx.select({ n: count() }).from(plugins).where(and(eq(plugins.tokenId, tokenId), ne(plugins.uuid, record.uuid)));
  return row?.n ?? 0;
}

function writeRecord(tx: PgTx, record: RecordWrite, tokenId: number, now: number): Promise<number> {
  const { uuid } = record;
  if (record.kind === "server") return writeServerPush(tx, { uuid, tokenId, now, kind: record.serverPush, fields: record.fields });
  return writePluginPush(tx, { uuid, tokenId, now, fields: record.fields });
}

/** The stored JSON bytes of every record the token owns. */
async function tokenJsonBytes(tx: PgTx, tokenId: number): Promise<number> {
  const sum = (bytes: typeof SERVER_JSON_BYTES) => sql<number>`coalesce(sum(${bytes}), 0)`.mapWith(Number);
  const [inPlugins] = await tx.select({ n: sum(PLUGIN_JSON_BYTES) }).from(plugins).where(eq(plugins.tokenId, tokenId));
  const [inServers] = await tx.select({ n: sum(SERVER_JSON_BYTES) }).from(servers).where(eq(servers.tokenId, tokenId));
  return (inPlugins?.n ?? 0) + (inServers?.n ?? 0);
}

/** Moves the token's last use to `now` once the stored one is older than LAST_USED_STEP_MS (records.ts). */
async function touchToken(tx: PgTx, tokenId: number, now: number): Promise<void> {
  await tx
    .update(tokens)
    .set({ lastUsedAt: now })
    .where(and(eq(tokens.id, tokenId), lastUseStale(tokens, now)));
}

/** The fingerprint remembered under a replay key still inside the window (see ../push.ts); undefined when none is. */
export async function rememberedFingerprint(db: PgDb | PgTx, key: string, now: number): Promise<string | null | undefined> {
  const [row] = await db
    .select({ fingerprint: usedSignatures.fingerprint, expiresAt: usedSignatures.expiresAt })
    .from(usedSignatures)
    .where(eq(usedSignatures.signature, key));
  return row !== undefined && row.expiresAt >= now ? row.fingerprint : undefined;
}
