// API tokens: random secrets shown once, stored only as SHA-256 hashes.

import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

const TOKEN_PREFIX = "pn_";

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
 * Tokens are printable ASCII without spaces, at least 16 characters (also the
 * floor for a self-chosen token under open registration); anything else
 * cannot be one of ours.
 */
export function isPlausibleToken(value: string): boolean {
  return value.length >= 16 && value.length <= 256 && /^[\x21-\x7e]+$/.test(value);
}
