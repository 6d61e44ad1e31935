// The types of query parameters (see banner-parameters.ts): how a value is
// written, as JSON Schema keywords for the route schema and /openapi.json,
// and how it is read, refusing a bad one with a 400 that names the parameter
// and repeats (the start of) what was sent.

import { parseBadgeColor } from "../badge/colors.ts";
import { parseHexColor, type Color } from "../render/basics.ts";
import { canonicalSlug, SLUG_RULE } from "../store/network-records.ts";
import { HttpError } from "./errors.ts";
import { parseUuid } from "./uuid.ts";

export interface QueryType<T> {
  /** JSON Schema keywords of the value (a string in the query); `enum`: the choices. */
  schema: { enum?: readonly string[]; pattern?: string; maxLength?: number; format?: string };
  /** What the keywords cannot say (the range of a whole number), for the description. */
  bounds?: string;
  /** The value of `raw` (not empty; trimmed unless `untrimmed`), or a 400 naming `name`. */
  read(raw: string, name: string): T;
  /** Read as sent: whitespace around the value is refused by `read`, not dropped (a network's slug is spelled one way). */
  untrimmed?: true;
}

/** How much of a bad value an error message repeats. */
const SHOWN_VALUE_CHARS = 40;

export function bad(message: string): HttpError {
  return new HttpError(400, "invalid_request", message);
}

export function shown(value: string): string {
  return JSON.stringify(value.length > SHOWN_VALUE_CHARS ? `${value.slice(0, SHOWN_VALUE_CHARS)}…` : value);
}

export function text(maxChars: number): QueryType<string> {
  return {
    schema: { maxLength: maxChars },
    read(raw, name) {
      if (raw.length > maxChars) throw bad(`${name} must be at most ${maxChars} characters`);
      return raw;
    },
  };
}

/** Digits only (no sign, point or exponent), up to `max`. */
export function wholeNumber(max: number): QueryType<number> {
  return {
    schema: { pattern: "^[0-9]{1,10}$" },
    bounds: `0 to ${max}`,
    read(raw, name) {
      const value = /^\d{1,10}$/.test(raw) ? Number(raw) : NaN;
      if (!(value <= max)) throw bad(`${name} must be a whole number from 0 to ${max}, not ${shown(raw)}`);
      return value;
    },
  };
}

/** One of `choices`, in any letter case. */
export function choice<T extends string>(choices: readonly T[]): QueryType<T> {
  return {
    schema: { enum: choices },
    read(raw, name) {
      const found = choices.find((option) => option === raw.toLowerCase());
      if (!found) throw bad(`${name} must be ${choices.join(" or ")}, not ${shown(raw)}`);
      return found;
    },
  };
}

/** What a colour parameter accepts, for its description and its refusals. */
export const COLOR_FORMS = "a hex colour (RGB, RRGGBB or RRGGBBAA, # optional) or a colour name as badges take (red, brightgreen, CSS names)";

/**
 * A hex colour (RGB, RRGGBB or RRGGBBAA, "#" optional: it must be %23 in a
 * URL, so most leave it out), else any colour a badge accepts (its named
 * palette, CSS names and functions), in any letter case; null for anything else.
 */
export function readColor(raw: string): Color | null {
  return parseHexColor(raw.startsWith("#") ? raw : `#${raw}`) ?? parseBadgeColor(raw.toLowerCase())?.rgba ?? null;
}

/** Hex digits, or a word (a name) with or without a function's arguments: rgb(...), hsl(...). */
export const COLOR_PATTERN = "^(#?[0-9a-fA-F]{3}|#?[0-9a-fA-F]{6}|#?[0-9a-fA-F]{8}|[a-zA-Z]+(\\(.*\\))?)$";

export const color: QueryType<Color> = {
  schema: { pattern: COLOR_PATTERN },
  read(raw, name) {
    const parsed = readColor(raw);
    if (!parsed) throw bad(`${name} must be ${COLOR_FORMS}, not ${shown(raw)}`);
    return parsed;
  },
};

/**
 * A comma list of `choices` in any letter case, spaces around names
 * trimmed, empty items and repeats ignored (forms join checkboxes so);
 * read in the order of `choices`, so two spellings of one list read alike.
 */
export function choiceList<T extends string>(choices: readonly T[]): QueryType<T[]> {
  return {
    schema: { pattern: "^[a-zA-Z ,]*$" },
    read(raw, name) {
      const names = raw.split(",").map((item) => item.trim().toLowerCase()).filter((item) => item !== "");
      const unknown = names.find((item) => !(choices as readonly string[]).includes(item));
      // The wrong name first: an error image shows one line, as much of it as fits.
      if (unknown !== undefined) throw bad(`${name}: ${shown(unknown)} is none of ${choices.join(", ")} (a comma list of them)`);
      return choices.filter((option) => names.includes(option));
    },
  };
}

/** A network's slug (store/network-records.ts), read in lower case. */
export const networkSlug: QueryType<string> = {
  schema: { pattern: "^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38}[A-Za-z0-9])?$" },
  untrimmed: true,
  read(raw, name) {
    const parsed = canonicalSlug(raw);
    if (!parsed) throw bad(`${name} must be a network's slug (${SLUG_RULE}), not ${shown(raw)}`);
    return parsed;
  },
};

/** A UUID, read in its canonical lower-case form. */
export const uuid: QueryType<string> = {
  schema: { format: "uuid" },
  read(raw, name) {
    const parsed = parseUuid(raw);
    if (!parsed) throw bad(`${name} must be a UUID, not ${shown(raw)}`);
    return parsed;
  },
};
