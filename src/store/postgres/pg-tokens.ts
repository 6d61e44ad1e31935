// What PostgreSQL does its own way with API tokens (the rest: ../tokens.ts). Open registration's count and its
// sweep of idle tokens run under one transaction-level advisory lock (in the
// functions of push-functions.sql), so two instances
// registering at once cannot both take the last slot.

import type { SQL } from "bun";
import { REGISTRATION_IDLE_MS, type TokenRow } from "../records.ts";

/**
 * The token with this hash, revoked or not (a revoked token may not be claimed
 * again). Every signed request asks it: sent with Bun's client itself, not
 * built by drizzle each time (see pg-push.ts); its int8 columns come back as
 * strings, read here as numbers.
 */
export async function findTokenByHash(client: SQL, hash: string): Promise<TokenRow | undefined> {
  const [row] = await client`
    SELECT id, hash, scope, label, origin, created_at, last_used_at, revoked_at FROM tokens WHERE hash = ${hash}`;
  if (row === undefined) return undefined;
  const { id, scope, label, origin, created_at, last_used_at, revoked_at } = row as Record<string, string | null>;
  return {
    id: Number(id),
    hash,
    scope: scope as TokenRow["scope"],
    label: label!,
    origin: origin as TokenRow["origin"],
    createdAt: Number(created_at),
    lastUsedAt: last_used_at === null ? null : Number(last_used_at),
    revokedAt: revoked_at === null ? null : Number(revoked_at),
  };
}

/**
 * Deletes the tokens open registration made that have not pushed for
 * REGISTRATION_IDLE_MS, with their records, as tokens.ts does for SQLite; returns
 * how many. pennant_expire_idle_registrations (push-functions.sql)
 * does it under the registration lock, the one a push registering a token holds.
 */
export async function pgExpireIdleRegistrations(client: SQL, now: number): Promise<number> {
  const [row] = await client`SELECT pennant_expire_idle_registrations(${now - REGISTRATION_IDLE_MS}::int8) AS n`;
  return (row as { n: number }).n;
}
