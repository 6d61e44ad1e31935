// The shape every signed body must have whatever its schema (depth, keys,
// items, number magnitudes): checked before the schema so that free-form parts
// (plugin meta) are bounded too, and PayloadError, the refusal that names the
// offending field ("stats.players.online must be ..."). String lengths are not
// refused here: text over a bound is cut or dropped (trim-to-bounds.ts), a plugin cannot
// shorten the text it relays; a string no field bounds is ignored or, in
// stored free-form content, cut.

export class PayloadError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(field ? `${field} ${message}` : message);
    this.name = "PayloadError";
  }
}

/** Bounds every JSON value must respect, whatever the endpoint. */
export const JSON_BOUNDS = {
  depth: 8,
  // As many as list items: a plugin relays maps it cannot shorten (PlaceholderAPI
  // placeholders), which trim-to-bounds.ts trims to their own bound; the body's
  // bound (64 KiB, an update's 256 KiB) bounds the parsing, the trimming what is stored.
  keysPerObject: 2_000,
  itemsPerArray: 2_000,
  /** Larger magnitudes lose integer precision and mean nothing here. */
  numberMagnitude: 1e15,
};

/** A field's name in messages: "stats.players.online", "minecraft_versions[1]". */
export function fieldName(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}[${key}]`;
  return path ? `${path}.${key}` : key;
}

/** Walks the whole value once; throws at the first thing out of bounds. */
export function checkBounds(value: unknown, path = "", depth = 0): void {
  if (typeof value === "number") {
    if (!Number.isFinite(value) || Math.abs(value) > JSON_BOUNDS.numberMagnitude) {
      throw new PayloadError(path, "is not a finite number of sane size");
    }
  } else if (value !== null && typeof value === "object") {
    if (depth >= JSON_BOUNDS.depth) throw new PayloadError(path, `nests deeper than ${JSON_BOUNDS.depth} levels`);
    if (Array.isArray(value)) {
      if (value.length > JSON_BOUNDS.itemsPerArray) {
        throw new PayloadError(path, `has more than ${JSON_BOUNDS.itemsPerArray} items`);
      }
      value.forEach((item, index) => checkBounds(item, fieldName(path, index), depth + 1));
    } else {
      const entries = Object.entries(value);
      if (entries.length > JSON_BOUNDS.keysPerObject) {
        throw new PayloadError(path, `has more than ${JSON_BOUNDS.keysPerObject} keys`);
      }
      for (const [key, item] of entries) checkBounds(item, fieldName(path, key), depth + 1);
    }
  }
}
