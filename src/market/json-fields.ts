// Reading the sites' JSON without trusting it: a field the model needs and
// cannot do without (a project's name) must be there and of its type, or the
// whole answer is malformed (MarketUnavailable: the last value is served); a
// field it can do without is null when missing or of another type. Counts
// are whole, non-negative and safe integers; Polymart sends numbers as
// strings unless told not to, so digits in a string count too.

import { MarketUnavailable } from "./site-client.ts";

export type JsonObject = Record<string, unknown>;

/** Longest text kept from a site (names, versions): more is cut. */
const MAX_TEXT = 256;

export function objectOrNull(value: unknown): JsonObject | null {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as JsonObject) : null;
}

export function requireObject(value: unknown, what: string): JsonObject {
  const object = objectOrNull(value);
  if (object === null) throw new MarketUnavailable(`malformed answer: ${what} is not an object`);
  return object;
}

export function arrayOrEmpty(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** Text with something in it, cut to MAX_TEXT characters; null otherwise. */
export function textOrNull(value: unknown): string | null {
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value !== "string" || value.trim() === "") return null;
  return [...value.trim()].slice(0, MAX_TEXT).join("");
}

export function requireText(value: unknown, what: string): string {
  const text = textOrNull(value);
  if (text === null) throw new MarketUnavailable(`malformed answer: ${what} is missing`);
  return text;
}

export function countOrNull(value: unknown): number | null {
  const number = typeof value === "string" && /^\d{1,16}$/.test(value.trim()) ? Number(value) : value;
  return typeof number === "number" && Number.isSafeInteger(number) && number >= 0 ? number : null;
}

/** A number within [min, max] (a rating), or null. */
export function numberOrNull(value: unknown, min: number, max: number): number | null {
  const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof number === "number" && Number.isFinite(number) && number >= min && number <= max ? number : null;
}

/** An ISO-8601 date as ms since the epoch, or null. */
export function isoTimeOrNull(value: unknown): number | null {
  if (typeof value !== "string") return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : null;
}

/** Seconds since the epoch (Spiget's, Polymart's) as ms, or null. */
export function secondsTimeOrNull(value: unknown): number | null {
  const seconds = countOrNull(value);
  return seconds === null ? null : seconds * 1000;
}

/** An absolute http(s) URL (an icon), or null; whatever fetches it decides which hosts it asks. */
export function webUrlOrNull(value: unknown): string | null {
  if (typeof value !== "string" || value.length > 2048 || !URL.canParse(value)) return null;
  return ["https:", "http:"].includes(new URL(value).protocol) ? value : null;
}

/** The sum of the known counts; null when none is known. */
export function sumOrNull(counts: ReadonlyArray<number | null>): number | null {
  const known = counts.filter((count): count is number => count !== null);
  return known.length === 0 ? null : known.reduce((sum, count) => sum + count, 0);
}
