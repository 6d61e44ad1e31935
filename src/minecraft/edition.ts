// The games a server may run: Minecraft's Java Edition and Bedrock Edition,
// and Hytale (issue 41), each answering status requests over its own protocols.

/** In the order offered. */
export const EDITIONS = ["java", "bedrock", "hytale"] as const;

export type Edition = (typeof EDITIONS)[number];

/** A server nothing says the edition of: a banner's query, a record, a lookup. */
export const DEFAULT_EDITION: Edition = "java";

/** Whether `value` names an edition (a pushed record's, kept as the plugin sent it). */
export function isEdition(value: unknown): value is Edition {
  return EDITIONS.some((edition) => edition === value);
}

/** The edition a server's plugin pushed, kept with its extra stats (src/http/payloads/server.ts); null when it said none. */
export function pushedEdition(extra: Record<string, unknown> | null | undefined): Edition | null {
  return isEdition(extra?.edition) ? extra.edition : null;
}
