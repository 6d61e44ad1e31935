// Reading badge values out of pushed records. meta is free-form JSON, so every
// read checks the type it needs and tries the spellings plugins use for the
// same thing (resource_id, resourceId, id...); anything else counts as not sent.

import type { MetricValue } from "./metric.ts";
import { plainNumber, versionColor, versionText } from "./value-display.ts";

/** The value at a dotted path ("alpha.downloads") of a JSON-like object; undefined where the path breaks. */
export function valueAt(root: unknown, path: string): unknown {
  let node = root;
  for (const key of path.split(".")) {
    if (node === null || typeof node !== "object" || Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** An amount: a finite number of at least 0, fractions kept (a numeric string too, as some plugins send). */
export function asAmount(value: unknown): number | undefined {
  const number = typeof value === "string" && /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value;
  return typeof number === "number" && Number.isFinite(number) && number >= 0 ? number : undefined;
}

/**
 * A count: an amount rounded to a whole number, as counts are (10^-7 stars is
 * 0 stars, 12.7 downloads 13), so that what is shown and the colour chosen
 * from it agree. -0 becomes 0.
 */
export function asCount(value: unknown): number | undefined {
  const amount = asAmount(value);
  return amount === undefined ? undefined : Math.round(amount) + 0;
}

/** A text: a non-blank string, or a number written out in plain digits (resource ids are often numbers). */
export function asText(value: unknown): string | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return plainNumber(value);
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/** The first of `paths` under `root` that `read` accepts. */
export function firstOf<T>(root: unknown, paths: readonly string[], read: (value: unknown) => T | undefined): T | undefined {
  for (const path of paths) {
    const value = read(valueAt(root, path));
    if (value !== undefined) return value;
  }
  return undefined;
}

/** The size of a list; a count is accepted in its place. */
export function asListSize(value: unknown): number | undefined {
  return Array.isArray(value) ? value.length : asCount(value);
}

/** Longest message a badge shows, in characters; longer values end in "…" (layout also bounds the width). */
export const MAX_MESSAGE_CHARACTERS = 96;

export function capMessage(text: string): string {
  const chars = [...text];
  return chars.length <= MAX_MESSAGE_CHARACTERS ? text : `${chars.slice(0, MAX_MESSAGE_CHARACTERS - 1).join("")}\u2026`;
}

/** A version as its badge shows it: cut to the message's length, "v" prefixed and coloured as shields does. */
export function versionValue(version: string | undefined): MetricValue | undefined {
  if (version === undefined) return undefined;
  const shown = capMessage(version);
  return { message: versionText(shown), color: versionColor(shown) };
}
