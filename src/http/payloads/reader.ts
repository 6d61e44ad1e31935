// Small typed readers over parsed JSON that name the offending field in their
// errors ("stats.players.online must be an integer from 0 to 1000000000").
// Unknown keys are ignored so that newer plugin builds keep working.

export class PayloadError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(field ? `${field} ${message}` : message);
    this.name = "PayloadError";
  }
}

export type JsonObject = Record<string, unknown>;

/** Bounds every JSON value must respect, whatever the endpoint. */
export const JSON_BOUNDS = {
  depth: 8,
  keysPerObject: 256,
  itemsPerArray: 2_000,
  stringLength: 4_096,
  /** Larger magnitudes lose integer precision and mean nothing here. */
  numberMagnitude: 1e15,
};

function join(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}[${key}]`;
  return path ? `${path}.${key}` : key;
}

/** Walks the whole value once; throws at the first thing out of bounds. */
export function checkBounds(value: unknown, path = "", depth = 0): void {
  if (typeof value === "string") {
    if (value.length > JSON_BOUNDS.stringLength) {
      throw new PayloadError(path, `is longer than ${JSON_BOUNDS.stringLength} characters`);
    }
  } else if (typeof value === "number") {
    if (!Number.isFinite(value) || Math.abs(value) > JSON_BOUNDS.numberMagnitude) {
      throw new PayloadError(path, "is not a finite number of sane size");
    }
  } else if (value !== null && typeof value === "object") {
    if (depth >= JSON_BOUNDS.depth) throw new PayloadError(path, `nests deeper than ${JSON_BOUNDS.depth} levels`);
    if (Array.isArray(value)) {
      if (value.length > JSON_BOUNDS.itemsPerArray) {
        throw new PayloadError(path, `has more than ${JSON_BOUNDS.itemsPerArray} items`);
      }
      value.forEach((item, index) => checkBounds(item, join(path, index), depth + 1));
    } else {
      const entries = Object.entries(value);
      if (entries.length > JSON_BOUNDS.keysPerObject) {
        throw new PayloadError(path, `has more than ${JSON_BOUNDS.keysPerObject} keys`);
      }
      for (const [key, item] of entries) checkBounds(item, join(path, key), depth + 1);
    }
  }
}

export function asObject(value: unknown, path: string): JsonObject {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new PayloadError(path, path ? "must be an object" : "the body must be a JSON object");
  }
  return value as JsonObject;
}

/** Reads fields of one object, building dotted field names for errors. */
export class FieldReader {
  constructor(
    readonly value: JsonObject,
    readonly path = "",
  ) {}

  private present(key: string): unknown {
    const value = this.value[key];
    return value === null ? undefined : value;
  }

  field(key: string): string {
    return join(this.path, key);
  }

  object(key: string): FieldReader | undefined {
    const value = this.present(key);
    return value === undefined ? undefined : new FieldReader(asObject(value, this.field(key)), this.field(key));
  }

  string(key: string, maxLength: number): string | undefined {
    const value = this.present(key);
    if (value === undefined) return undefined;
    if (typeof value !== "string") throw new PayloadError(this.field(key), "must be a string");
    if (value.length > maxLength) {
      throw new PayloadError(this.field(key), `must be at most ${maxLength} characters`);
    }
    return value;
  }

  number(key: string, min: number, max: number): number | undefined {
    const value = this.present(key);
    if (value === undefined) return undefined;
    if (typeof value !== "number" || !Number.isFinite(value) || value < min || value > max) {
      throw new PayloadError(this.field(key), `must be a number from ${min} to ${max}`);
    }
    return value;
  }

  integer(key: string, min: number, max: number): number | undefined {
    const value = this.present(key);
    if (value === undefined) return undefined;
    if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
      throw new PayloadError(this.field(key), `must be an integer from ${min} to ${max}`);
    }
    return value;
  }

  boolean(key: string): boolean | undefined {
    const value = this.present(key);
    if (value === undefined) return undefined;
    if (typeof value !== "boolean") throw new PayloadError(this.field(key), "must be true or false");
    return value;
  }

  stringList(key: string, maxItems: number, maxLength: number): string[] | undefined {
    const value = this.present(key);
    if (value === undefined) return undefined;
    const field = this.field(key);
    if (!Array.isArray(value)) throw new PayloadError(field, "must be a list of strings");
    if (value.length > maxItems) throw new PayloadError(field, `must have at most ${maxItems} items`);
    value.forEach((item, index) => {
      if (typeof item !== "string" || item.length > maxLength) {
        throw new PayloadError(`${field}[${index}]`, `must be a string of at most ${maxLength} characters`);
      }
    });
    return value as string[];
  }

  /** An object whose values are all numbers (named counters). */
  numberMap(key: string, maxKeys: number, maxKeyLength: number): Record<string, number> | undefined {
    const reader = this.object(key);
    if (!reader) return undefined;
    const entries = Object.entries(reader.value);
    if (entries.length > maxKeys) throw new PayloadError(reader.path, `must have at most ${maxKeys} entries`);
    for (const [name, value] of entries) {
      if (name.length === 0 || name.length > maxKeyLength) {
        throw new PayloadError(reader.path, `names must be 1 to ${maxKeyLength} characters`);
      }
      if (typeof value !== "number" || !Number.isFinite(value)) {
        throw new PayloadError(reader.field(name), "must be a number");
      }
    }
    return reader.value as Record<string, number>;
  }
}
