// A signed push on SQLite, whole: every rule a push keeps (the replay key,
// open registration, ownership, the limits, the merge of extra stats, the
// minute's history sample), in one module; the same rules on PostgreSQL are
// postgres/push-functions.sql. The request is remembered for the replay
// guard, an open-registration token is created, and the record is written,
// all in one transaction, so that a rejected request (replay, not the owner,
// over a limit, a failed write) stores nothing. The limits that count across
// requests (tokens open registration made, JSON bytes a token stores) are
// counted inside that transaction: no push can slip in between a count and
// its write. The replay key's primary key decides: of two identical pushes
// that both got past the guard's look-up, the one whose insert finds the key
// taken is the duplicate and writes nothing. Pushes that arrive together
// share the transaction (acceptPushes), each in a savepoint, so one refused
// push takes back only its own writes.
//
// The hot steps run as statements compiled once per store (PushStatements, at
// the end): drizzle builds each query's SQL text in JavaScript on every call
// and maps every row it reads; on the push path (a token look-up, a replay
// look-up and about ten statements in the transaction) that building was over
// half of a push's CPU (bench/push-cpu.ts). They run the same SQL the drizzle
// queries did, bound by name, with rows read as they are. The rare steps (open
// registration, a token's total, plugin records) stay with drizzle.

import type { Database, Statement } from "bun:sqlite";
import { count, eq, inArray, sql } from "drizzle-orm";
import { isDuplicate, type ReplayStatus } from "../auth/replay.ts";
import type { Db, Tx } from "./database.ts";
import { definedOnly } from "./defined.ts";
import { HISTORY_MS, idleRegistration, LAST_USED_STEP_MS, type PluginFields, type PluginRow, type ServerFields, type ServerPushKind, type TokenRow } from "./records.ts";
import { keyExpiry, REPLAY_MEMORY_ROW } from "./replay-memory.ts";
import { sqlitePlugins, sqliteServers, sqliteTokens } from "./schema.ts";
import type { Push, RecordWrite } from "./store.ts";
import { storeUnavailable } from "./unavailable.ts";
import { NotOwnerError, RecordLimitError, RegistrationFullError, ReplayError, StorageLimitError } from "./write-refusals.ts";

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
 * Writes a heartbeat or an update. The first push binds the server to the
 * token; another token's push throws NotOwnerError, and a new server beyond
 * the token's `maxPerToken` throws RecordLimitError. An update also writes
 * the history sample of its minute (an upsert on the unique (server, minute)
 * index, so concurrent pushes cannot both insert: the first update of a
 * minute inserts the row, later ones keep the minute's highest players
 * online, since the banner plots the highest count per 5 minutes, and take
 * the latest time, players max, TPS and status) and drops this server's
 * samples older than 30 days. Runs inside the push's transaction.
 */
function writeServerPush(
  statements: PushStatements,
  push: { uuid: string; tokenId: number; now: number; kind: ServerPushKind; fields: ServerFields; maxPerToken: number },
): void {
  const { uuid, tokenId, now, kind, fields } = push;
  const existing = statements.server(uuid);
  if (existing && existing.tokenId !== tokenId) throw new NotOwnerError("server");
  if (!existing && statements.serversOwned(tokenId) >= push.maxPerToken) throw new RecordLimitError("server", push.maxPerToken);

  const { extra, ...set } = fields;
  // Extra stats merge key by key into the stored ones.
  const mergedExtra = extra ? JSON.stringify({ ...(existing?.extra ? JSON.parse(existing.extra) : {}), ...extra }) : null;
  const columns = {
    name: set.name ?? null,
    pluginVersion: set.pluginVersion ?? null,
    status: set.status ?? null,
    playersOnline: set.playersOnline ?? null,
    playersMax: set.playersMax ?? null,
    tps: set.tps ?? null,
    motd: set.motd ?? null,
    version: set.version ?? null,
    extra: mergedExtra,
    statsUpdatedAt: kind === "update" ? now : null,
  };
  const written = existing ? statements.updateServer(uuid, now, columns) : statements.insertServer(uuid, tokenId, now, columns);

  if (kind === "update") {
    const { status, ...figures } = written;
    // Any status other than "online" reads as offline, as banners read it (minecraft/status.ts).
    statements.writeSample(uuid, now, { ...figures, online: status === "online" ? 1 : 0 });
    statements.dropSamplesBefore(uuid, now - HISTORY_MS);
  }
}

/**
 * The first push binds the plugin to the token; another token's push throws
 * NotOwnerError, and a new plugin beyond the token's `maxPerToken` throws
 * RecordLimitError.
 */
export function writePluginPush(
  tx: Tx,
  push: { uuid: string; tokenId: number; now: number; fields: PluginFields; maxPerToken: number },
): PluginRow {
  const { uuid, tokenId, now, fields } = push;
  const existing = tx.select().from(sqlitePlugins).where(eq(sqlitePlugins.uuid, uuid)).get();
  if (existing && existing.tokenId !== tokenId) throw new NotOwnerError("plugin");
  if (!existing) {
    const owned = tx.select({ n: count() }).from(sqlitePlugins).where(eq(sqlitePlugins.tokenId, tokenId)).get()?.n ?? 0;
    if (owned >= push.maxPerToken) throw new RecordLimitError("plugin", push.maxPerToken);
  }

  const values = {
    ...definedOnly(fields),
    lastSeen: now,
  };
  return existing
    ? tx.update(sqlitePlugins).set(values).where(eq(sqlitePlugins.uuid, uuid)).returning().get()
    : tx
        .insert(sqlitePlugins)
        .values({ uuid, tokenId, firstSeen: now, ...values })
        .returning()
        .get();
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

/** Tokens open registration has made and not yet expired, revoked ones included (a revoked token is never expired: it may not be claimed again). */
function countRegisteredTokens(db: Db | Tx): number {
  return db.select({ n: count() }).from(sqliteTokens).where(eq(sqliteTokens.origin, "registration")).get()?.n ?? 0;
}

/**
 * Deletes the tokens open registration made that have not pushed for
 * REGISTRATION_IDLE_MS, with every record they own (and those servers'
 * history); their slots under PENNANT_REGISTRATION_MAX come free and the same
 * token may register again. Tokens of `token create` and revoked ones stay.
 * Returns how many tokens were deleted. The tokens table is small (bounded by
 * PENNANT_REGISTRATION_MAX plus the operator's), so the scan is cheap.
 */
export function sqliteExpireIdleRegistrations(db: Db | Tx, now: number): number {
  const idle = db
    .select({ id: sqliteTokens.id })
    .from(sqliteTokens)
    .where(idleRegistration(sqliteTokens, now))
    .all()
    .map((row) => row.id);
  if (idle.length === 0) return 0;
  db.delete(sqlitePlugins).where(inArray(sqlitePlugins.tokenId, idle)).run();
  db.delete(sqliteServers).where(inArray(sqliteServers.tokenId, idle)).run();
  db.delete(sqliteTokens).where(inArray(sqliteTokens.id, idle)).run();
  return idle.length;
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

type Params = Record<string, string | number | null>;

/** A stored server's owner and extra stats (JSON text), as the push's ownership check and merge read them. */
export interface StoredServer {
  tokenId: number;
  extra: string | null;
}

/** A written server's figures, as its minute's history sample takes them. */
export interface WrittenServer {
  playersOnline: number | null;
  playersMax: number | null;
  tps: number | null;
  status: string | null;
}

/** What a minute's history sample takes: the written figures, and whether the written status is "online" (1) or not (0). */
export interface SampleFigures extends Omit<WrittenServer, "status"> {
  online: number;
}

/** The server columns a push may set, each bound as null when the push leaves it as it is. */
const SERVER_SET = [
  ["name", "name"],
  ["plugin_version", "pluginVersion"],
  ["status", "status"],
  ["players_online", "playersOnline"],
  ["players_max", "playersMax"],
  ["tps", "tps"],
  ["motd", "motd"],
  ["version", "version"],
  ["extra", "extra"],
  ["stats_updated_at", "statsUpdatedAt"],
] as const;

export type ServerColumns = Record<(typeof SERVER_SET)[number][1], string | number | null>;

const TOKEN_COLUMNS =
  "id, hash, scope, label, origin, created_at AS createdAt, last_used_at AS lastUsedAt, revoked_at AS revokedAt";
const JSON_BYTES = (json: string) => `coalesce(sum(length(cast(${json} as blob))), 0) AS n`;

export class PushStatements {
  readonly #tokenByHash: Statement<TokenRow, [Params]>;
  readonly #touchToken: Statement<unknown, [Params]>;
  readonly #sweepKeys: Statement<unknown, [Params]>;
  readonly #recordedWindow: Statement<{ window: number }, [Params]>;
  readonly #rememberKey: Statement<{ signature: string }, [Params]>;
  readonly #rememberedKey: Statement<{ fingerprint: string | null; expiresAt: number }, [Params]>;
  readonly #serverJsonBytes: Statement<{ n: number }, [Params]>;
  readonly #pluginJsonBytes: Statement<{ n: number }, [Params]>;
  readonly #server: Statement<StoredServer, [Params]>;
  readonly #serversOwned: Statement<{ n: number }, [Params]>;
  readonly #insertServer: Statement<WrittenServer, [Params]>;
  readonly #updateServer: Statement<WrittenServer, [Params]>;
  readonly #writeSample: Statement<unknown, [Params]>;
  readonly #dropOldSamples: Statement<unknown, [Params]>;
  readonly #savepoint: Statement;
  readonly #release: Statement;
  readonly #rollbackToSavepoint: Statement;

  constructor(sqlite: Database) {
    const prepare = <R>(sql: string) => sqlite.prepare<R, [Params]>(sql);
    this.#tokenByHash = prepare(`SELECT ${TOKEN_COLUMNS} FROM tokens WHERE hash = $hash`);
    // records.ts's LAST_USED_STEP_MS: only a last use older than a step is moved.
    this.#touchToken = prepare(
      "UPDATE tokens SET last_used_at = $now WHERE id = $id AND (last_used_at IS NULL OR last_used_at < $staleBefore)",
    );
    this.#sweepKeys = prepare("DELETE FROM used_signatures WHERE expires_at < $now");
    this.#recordedWindow = prepare("SELECT clock_skew_ms AS window FROM replay_memory WHERE id = $id");
    this.#rememberKey = prepare(
      "INSERT INTO used_signatures (signature, expires_at, fingerprint) VALUES ($key, $expiresAt, $fingerprint) ON CONFLICT DO NOTHING RETURNING signature",
    );
    this.#rememberedKey = prepare("SELECT fingerprint, expires_at AS expiresAt FROM used_signatures WHERE signature = $key");
    this.#serverJsonBytes = prepare(`SELECT ${JSON_BYTES("extra")} FROM servers WHERE uuid = $uuid`);
    this.#pluginJsonBytes = prepare(`SELECT ${JSON_BYTES("meta || stats")} FROM plugins WHERE uuid = $uuid`);
    this.#server = prepare("SELECT token_id AS tokenId, extra FROM servers WHERE uuid = $uuid");
    this.#serversOwned = prepare("SELECT count(*) AS n FROM servers WHERE token_id = $tokenId");
    const written = "RETURNING players_online AS playersOnline, players_max AS playersMax, tps, status";
    this.#insertServer = prepare(
      `INSERT INTO servers (uuid, token_id, first_seen, last_seen, ${SERVER_SET.map(([column]) => column).join(", ")}) ` +
        `VALUES ($uuid, $tokenId, $now, $now, ${SERVER_SET.map(([, name]) => `$${name}`).join(", ")}) ${written}`,
    );
    // A column bound as null keeps its stored value: a push never sets one to null.
    this.#updateServer = prepare(
      `UPDATE servers SET last_seen = $now, ${SERVER_SET.map(([column, name]) => `${column} = coalesce($${name}, ${column})`).join(", ")} ` +
        `WHERE uuid = $uuid ${written}`,
    );
    // writeServerPush explains each column.
    this.#writeSample = prepare(
      "INSERT INTO server_samples (server_uuid, at, players_online, players_max, tps, online) VALUES ($uuid, $at, $playersOnline, $playersMax, $tps, $online) " +
        "ON CONFLICT (server_uuid, minute) DO UPDATE SET at = max(at, excluded.at), " +
        "players_online = coalesce(max(players_online, excluded.players_online), players_online, excluded.players_online), " +
        "players_max = CASE WHEN excluded.at >= at THEN excluded.players_max ELSE players_max END, " +
        "tps = CASE WHEN excluded.at >= at THEN excluded.tps ELSE tps END, " +
        "online = CASE WHEN excluded.at >= at THEN excluded.online ELSE online END",
    );
    this.#dropOldSamples = prepare("DELETE FROM server_samples WHERE server_uuid = $uuid AND at < $before");
    this.#savepoint = sqlite.prepare("SAVEPOINT push");
    this.#release = sqlite.prepare("RELEASE push");
    this.#rollbackToSavepoint = sqlite.prepare("ROLLBACK TO push");
  }

  /** Opens the savepoint one push of a batch runs in (push.ts). */
  savepoint(): void {
    this.#savepoint.run();
  }

  /** Keeps the push's writes in the batch's transaction. */
  release(): void {
    this.#release.run();
  }

  /** Undoes the push's writes and closes its savepoint. */
  rollbackToSavepoint(): void {
    this.#rollbackToSavepoint.run();
    this.#release.run();
  }

  tokenByHash(hash: string): TokenRow | undefined {
    return this.#tokenByHash.get({ hash }) ?? undefined;
  }

  /** Moves the token's last use to `now` when the stored one is older than LAST_USED_STEP_MS. */
  touchToken(id: number, now: number): void {
    this.#touchToken.run({ id, now, staleBefore: now - LAST_USED_STEP_MS });
  }

  sweepKeys(now: number): void {
    this.#sweepKeys.run({ now });
  }

  recordedWindow(): number {
    return this.#recordedWindow.get({ id: REPLAY_MEMORY_ROW })?.window ?? 0;
  }

  /** Remembers a replay key; false when it is already remembered. */
  rememberKey(key: string, expiresAt: number, fingerprint: string): boolean {
    return this.#rememberKey.all({ key, expiresAt, fingerprint }).length > 0;
  }

  rememberedKey(key: string): { fingerprint: string | null; expiresAt: number } | undefined {
    return this.#rememberedKey.get({ key }) ?? undefined;
  }

  /** The stored JSON bytes of one record (0 while it does not exist). */
  recordJsonBytes(kind: "server" | "plugin", uuid: string): number {
    return ((kind === "server" ? this.#serverJsonBytes : this.#pluginJsonBytes).get({ uuid })?.n ?? 0);
  }

  server(uuid: string): StoredServer | undefined {
    return this.#server.get({ uuid }) ?? undefined;
  }

  serversOwned(tokenId: number): number {
    return this.#serversOwned.get({ tokenId })?.n ?? 0;
  }

  insertServer(uuid: string, tokenId: number, now: number, columns: ServerColumns): WrittenServer {
    return this.#insertServer.get({ uuid, tokenId, now, ...columns })!;
  }

  updateServer(uuid: string, now: number, columns: ServerColumns): WrittenServer {
    return this.#updateServer.get({ uuid, now, ...columns })!;
  }

  writeSample(uuid: string, at: number, sample: SampleFigures): void {
    this.#writeSample.run({ uuid, at, ...sample });
  }

  dropSamplesBefore(uuid: string, before: number): void {
    this.#dropOldSamples.run({ uuid, before });
  }
}
