// Accepting a signed push in PostgreSQL: the same steps and refusals as the
// SQLite push (../sqlite-push.ts), as one call of a function of
// push-functions.sql (pennant_server_push, pennant_plugin_push), where every
// rule is, with how it holds while pushes run at once on other connections
// and instances: one statement, so its own transaction, and one round trip,
// sent with Bun's client itself (building each of a push's statements in
// drizzle was half of a push's CPU). A refusal is an error the function
// raises (SQLSTATE class PN), which rolls the whole call back; here it
// becomes the refusal of ../write-refusals.ts.

import { SQL } from "bun";
import type { ReplayStatus } from "../../auth/replay.ts";
import { HISTORY_MS, LAST_USED_STEP_MS, REGISTRATION_IDLE_MS } from "../records.ts";
import type { Push, RecordWrite } from "../store.ts";
import { NotOwnerError, RecordLimitError, RegistrationFullError, ReplayError, StorageLimitError } from "../write-refusals.ts";

/** A statement calling `name` with parameters of these types, in order. */
function callOf(name: string, types: string[]): string {
  return `SELECT ${name}(${types.map((type, i) => `$${i + 1}::${type}`).join(", ")}) AS outcome`;
}

/** The parameters every push function starts with (pushParameters). */
const PUSH_TYPES = ["boolean", "int8", "text", "text", "int8", "int8", "int8", "text", "int4", "int8", "int8", "int8", "int4"];
const SERVER_PUSH = callOf("pennant_server_push", [
  ...PUSH_TYPES,
  ...["int8", "text", "boolean", "text", "text", "text", "int4", "int4", "float8", "text", "text", "jsonb"],
]);
const PLUGIN_PUSH = callOf("pennant_plugin_push", [...PUSH_TYPES, ...["text", "text", "text", "jsonb", "jsonb", "jsonb", "jsonb"]]);

/**
 * Remembers the push and writes its record; "duplicate" (nothing written) when
 * this exact push is already remembered. `sweep` says whether this push also
 * deletes the expired replay keys (the store does it at most once a second:
 * a key left over is taken over by the next push of it and never read as held).
 */
export async function acceptPush(client: SQL, push: Push, sweep: boolean): Promise<ReplayStatus> {
  const { record } = push;
  const common = pushParameters(push, sweep);
  try {
    const [row] =
      record.kind === "server"
        ? await client.unsafe(SERVER_PUSH, [...common, ...serverParameters(record, push.now)])
        : await client.unsafe(PLUGIN_PUSH, [...common, ...pluginParameters(record)]);
    return (row as { outcome: ReplayStatus }).outcome;
  } catch (error) {
    throw refusal(error, push) ?? error;
  }
}

/** Replay key, token, bounds and the times the rules give (records.ts), in PUSH_TYPES' order. */
function pushParameters({ credentials, replay, now, bounds, record }: Push, sweep: boolean): unknown[] {
  return [
    sweep,
    now,
    replay.key,
    replay.fingerprint,
    replay.expiresAt,
    replay.timestampMs,
    credentials.tokenId,
    credentials.tokenHash,
    bounds.registrationMax,
    now - REGISTRATION_IDLE_MS,
    bounds.maxBytesPerToken,
    now - LAST_USED_STEP_MS,
    record.maxPerToken,
  ];
}

/** A field left undefined is passed as NULL: the function keeps the stored value then. */
function serverParameters(record: Extract<RecordWrite, { kind: "server" }>, now: number): unknown[] {
  const { name, pluginVersion, status, playersOnline, playersMax, tps, motd, version, extra } = record.fields;
  return [now - HISTORY_MS, record.uuid, record.serverPush === "update", name, pluginVersion, status, playersOnline, playersMax, tps, motd, version, extra].map(
    (value) => value ?? null,
  );
}

function pluginParameters(record: Extract<RecordWrite, { kind: "plugin" }>): unknown[] {
  const { name, version, stats, meta, minecraftVersions, serverSoftware } = record.fields;
  return [record.uuid, name, version, stats, meta, minecraftVersions, serverSoftware].map((value) => value ?? null);
}

/** The refusal the push function raised (SQLSTATE PN...), or undefined for any other error. */
function refusal(error: unknown, { record, bounds }: Push): Error | undefined {
  if (!(error instanceof SQL.PostgresError)) return undefined;
  switch (error.errno) {
    case "PNRPL":
      return new ReplayError();
    case "PNREG":
      return new RegistrationFullError(bounds.registrationMax);
    case "PNOWN":
      return new NotOwnerError(record.kind);
    case "PNLIM":
      return new RecordLimitError(record.kind, record.maxPerToken);
    case "PNBYT":
      return new StorageLimitError(bounds.maxBytesPerToken, Number(error.detail));
    default:
      return undefined;
  }
}

/** The fingerprint remembered under a replay key still inside the window (see ../sqlite-push.ts); undefined when none is. */
export async function pgRememberedFingerprint(client: SQL, key: string, now: number): Promise<string | null | undefined> {
  const [row] = await client`SELECT fingerprint FROM used_signatures WHERE signature = ${key} AND expires_at >= ${now}::int8`;
  return row === undefined ? undefined : (row as { fingerprint: string | null }).fingerprint;
}
