// API tokens: random secrets shown once, stored only as SHA-256 hashes.

import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

const TOKEN_PREFIX = "pn_";

/** What a token may sign: server pushes, plugin pushes, or both. */
export const TOKEN_SCOPES = ["server", "plugin", "all"] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** Length bounds of any token we accept, also those chosen under open registration. */
export const TOKEN_MIN_LENGTH = 16;
export const TOKEN_MAX_LENGTH = 256;

/** A new token: 256 random bits, URL-safe, recognisable by its prefix. */
export function generateToken(): string {
  return TOKEN_PREFIX + randomBytes(32).toString("base64url");
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** Compares two hex hashes without leaking where they differ. */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, "utf8");
  const right = Buffer.from(b, "utf8");
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Tokens are printable ASCII without spaces, of TOKEN_MIN_LENGTH to
 * TOKEN_MAX_LENGTH characters; anything else cannot be one of ours.
 */
export function isPlausibleToken(value: string): boolean {
  return value.length >= TOKEN_MIN_LENGTH && value.length <= TOKEN_MAX_LENGTH && /^[\x21-\x7e]+$/.test(value);
}
