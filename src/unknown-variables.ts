// Variables meant for Pennant that it does not read: a misspelled or guessed
// name would otherwise be ignored without a word, and the server would run
// on its defaults. Each is named with the variable it most likely stands for.
//
// A name is Pennant's when it begins with PENNANT_, or with a near miss of it
// (PENANT_DB, PENNAT_PORT, PENNANTDB, pennant_db: names are case-sensitive, so
// these are ignored too). What it stands for is found, in this order: the same
// words under the right prefix and case; the table of names people give
// Pennant's settings (edit distance cannot tell that PENNANT_PORT means PORT:
// PENNANT_DB is nearer); the nearest known or tabled name a slip or two away.
// Otherwise no name is offered rather than an unrelated one.

import { closest, editDistance } from "./closest.ts";
import { knownVariables } from "./config.ts";

const PREFIX = "PENNANT_";

/**
 * Names people give Pennant's settings, each with the variables it means (two
 * where either is meant: a database may be a file or a PostgreSQL URL). PORT and
 * HOST carry no prefix, as platforms that start servers set them.
 */
export const VARIABLE_MEANINGS: Readonly<Record<string, readonly string[]>> = {
  PENNANT_PORT: ["PORT"],
  PENNANT_HTTP_PORT: ["PORT"],
  PENNANT_LISTEN_PORT: ["PORT"],
  PENNANT_HOST: ["HOST"],
  PENNANT_HOSTNAME: ["HOST"],
  PENNANT_BIND: ["HOST"],
  PENNANT_BIND_ADDRESS: ["HOST"],
  PENNANT_LISTEN: ["HOST"],
  PENNANT_LISTEN_ADDRESS: ["HOST"],
  PENNANT_ADDRESS: ["HOST"],
  PENNANT_DB_PATH: ["PENNANT_DB"],
  PENNANT_DB_FILE: ["PENNANT_DB"],
  PENNANT_DATABASE_PATH: ["PENNANT_DB"],
  PENNANT_DATABASE_FILE: ["PENNANT_DB"],
  PENNANT_SQLITE: ["PENNANT_DB"],
  PENNANT_SQLITE_PATH: ["PENNANT_DB"],
  PENNANT_DATABASE: ["PENNANT_DB", "PENNANT_DATABASE_URL"],
  PENNANT_DB_URL: ["PENNANT_DATABASE_URL"],
  PENNANT_POSTGRES: ["PENNANT_DATABASE_URL"],
  PENNANT_POSTGRES_URL: ["PENNANT_DATABASE_URL"],
  PENNANT_POSTGRESQL_URL: ["PENNANT_DATABASE_URL"],
  PENNANT_PG_URL: ["PENNANT_DATABASE_URL"],
  PENNANT_REDIS: ["PENNANT_REDIS_URL"],
  PENNANT_REDIS_HOST: ["PENNANT_REDIS_URL"],
  PENNANT_REDIS_ADDRESS: ["PENNANT_REDIS_URL"],
  PENNANT_THREADS: ["PENNANT_RENDER_THREADS"],
  PENNANT_WORKERS: ["PENNANT_RENDER_THREADS"],
  PENNANT_RENDER_WORKERS: ["PENNANT_RENDER_THREADS"],
  PENNANT_CACHE: ["PENNANT_CACHE_MB"],
  PENNANT_CACHE_SIZE: ["PENNANT_CACHE_MB"],
  PENNANT_LOG: ["PENNANT_LOG_LEVEL"],
  PENNANT_VERBOSE: ["PENNANT_LOG_LEVEL"],
  PENNANT_PROXY: ["PENNANT_TRUST_PROXY"],
  PENNANT_BEHIND_PROXY: ["PENNANT_TRUST_PROXY"],
  PENNANT_METRICS: ["PENNANT_METRICS_TOKEN"],
  PENNANT_TIMEOUT: ["PENNANT_SHUTDOWN_TIMEOUT"],
  PENNANT_LEGACY: ["PENNANT_LEGACY_SIGNATURES"],
};

/** How far a name's first word may be from PENNANT and still be Pennant's: a slip or two of the fingers. */
const PREFIX_SLIPS = 2;

/**
 * The words after Pennant's prefix, written as Pennant writes them (PENNANT_DB
 * for pennant_db, PENANT_DB or PENNANTDB); undefined for a name that is not Pennant's.
 */
function asPennantName(name: string): string | undefined {
  const upper = name.toUpperCase();
  const head = /^([A-Z]+)_+(.+)$/.exec(upper);
  if (head && editDistance(head[1]!, "PENNANT") <= PREFIX_SLIPS) return PREFIX + head[2]!;
  // The underscore left out: PENNANTDB.
  if (upper.startsWith("PENNANT") && upper.length > "PENNANT".length) return PREFIX + upper.slice("PENNANT".length);
  return undefined;
}

/** The variables `written` (a name under Pennant's prefix) stands for; none when nothing is near enough to say. */
function meantBy(written: string, known: readonly string[]): readonly string[] {
  if (known.includes(written)) return [written];
  const tabled = VARIABLE_MEANINGS[written];
  if (tabled) return tabled;
  // A slip per four letters of the words after the prefix, at least one: PENNANT_PROT is PORT, PENNANT_FOO nothing.
  const slips = Math.max(1, Math.floor((written.length - PREFIX.length) / 4));
  const nearest = closest(written, [...known, ...Object.keys(VARIABLE_MEANINGS)]);
  if (!nearest || nearest.distance > slips) return [];
  return VARIABLE_MEANINGS[nearest.name] ?? [nearest.name];
}

export interface UnknownVariable {
  name: string;
  /** The variables it most likely stands for (usually one); empty when none is near enough to name. */
  meant: readonly string[];
}

/** The variables of `env` that look meant for Pennant but that it does not read, sorted by name. */
export function unknownVariables(env: Record<string, string | undefined>): UnknownVariable[] {
  const known = knownVariables();
  const unknown: UnknownVariable[] = [];
  for (const name of Object.keys(env).sort()) {
    if (known.includes(name)) continue;
    const written = asPennantName(name);
    if (written !== undefined) unknown.push({ name, meant: meantBy(written, known) });
  }
  return unknown;
}

/** The warning line for one: what `serve` and every other command that reads the configuration print first. */
export function unknownVariableWarning({ name, meant }: UnknownVariable): string {
  const hint = meant.length > 0 ? `; did you mean ${meant.join(" or ")}?` : " (README.md, Configuration, lists the variables)";
  return `warning: ${name} is not a variable Pennant reads and is ignored${hint}`;
}
