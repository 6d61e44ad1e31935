// The SQLite statements a signed push runs, compiled once per store. Drizzle
// builds each query's SQL text in JavaScript on every call and maps every row
// it reads; on the push path (a token look-up, a replay look-up and about ten
// statements in the transaction) that building was over half of a push's CPU
// (bench/push-cpu.ts). These run the same SQL as the drizzle queries they
// replace, bound by name, with rows read as they are. The rare steps (open
// registration, a token's total, plugin records) stay with drizzle.

import type { Database, Statement } from "bun:sqlite";
import { LAST_USED_STEP_MS, type TokenRow } from "./records.ts";
import { REPLAY_MEMORY_ROW } from "./replay-memory.ts";

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
    // servers.ts's writeServerPush explains each column.
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
