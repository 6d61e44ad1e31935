// A signed body trimmed to its schema's bounds before the schema is checked. A
// plugin relays text it cannot shorten (a MOTD, PlaceholderAPI values, the
// server software's version), so text over a bound is no reason to refuse the
// whole push (issue 18: a refused push makes the deployed plugin back off for
// ever). A text field is cut to its bound; an entry of named values or a list
// item whose text or name is over its bound is dropped whole (a cut value
// would read as another value); a collection keeps its first entries up to its
// bound. Each field cut or dropped is named, as in refusals, in `trimmed`.
//
// Only values of the kind the schema expects are touched: a wrong type is left
// as it is for the schema check to refuse. The result depends on the body
// alone, so reading the same body again gives the same fields and names.

import { Kind, type TSchema } from "@sinclair/typebox";
import { fieldName } from "./json-bounds.ts";
import { holds } from "./schema-kinds.ts";

/** Cuts text to at most `maxChars` characters. */
export type Cut = (text: string, maxChars: number) => string;

const CUT = Symbol("cut");
const FREE_TEXT_CHARS = Symbol("free text chars");

/** What cutBy and storedFreeForm add to a schema (symbols: the OpenAPI document does not show them). */
interface Marked {
  [CUT]?: Cut;
  [FREE_TEXT_CHARS]?: number;
}

/** A string schema whose text over its maxLength is cut by `cut` (`§` text keeps whole codes). */
export function cutBy<S extends TSchema>(cut: Cut, schema: S): S {
  return Object.assign(schema, { [CUT]: cut } satisfies Marked);
}

/** An object whose content outside its declared keys is stored as sent: each string in it is cut to `maxChars`. */
export function storedFreeForm<S extends TSchema>(schema: S, maxChars: number): S {
  return Object.assign(schema, { [FREE_TEXT_CHARS]: maxChars } satisfies Marked);
}

/** Text cut to at most `maxChars` UTF-16 units, never between the two halves of an emoji. */
export function cutText(text: string, maxChars: number): string {
  const splitsPair = /[\uD800-\uDBFF]/.test(text[maxChars - 1] ?? "");
  return text.slice(0, splitsPair ? maxChars - 1 : maxChars);
}

export interface Trimmed {
  value: unknown;
  /** The fields cut or dropped, named as in refusals, in the body's order. */
  trimmed: string[];
}

interface Walk {
  trimmed: Set<string>;
  /** The bound of strings with none of their own, inside stored free-form content; undefined elsewhere. */
  freeTextChars: number | undefined;
}

export function trimToBounds(schema: TSchema, json: unknown): Trimmed {
  const trimmed = new Set<string>();
  const value = trimValue(schema, json, "", { trimmed, freeTextChars: undefined });
  return { value, trimmed: [...trimmed] };
}

/** Any value goes here (Unknown, or the "anything but an object" of a typed key). */
const FREE = "free";

/** The schema a value is meant for (a union's variant of its kind), FREE, or undefined for a wrong kind. */
function shapeOf(schema: TSchema, value: unknown): TSchema | typeof FREE | undefined {
  if (schema[Kind] === "Union") {
    const variants: TSchema[] = schema.anyOf;
    const meant = variants.find((variant) => holds(variant, value));
    if (meant) return meant;
    return variants.some((variant) => shapeOf(variant, value) === FREE) ? FREE : undefined;
  }
  if (schema[Kind] === "Unknown" || schema[Kind] === "Not") return FREE;
  return holds(schema, value) ? schema : undefined;
}

function trimValue(schema: TSchema, value: unknown, path: string, walk: Walk): unknown {
  const shape = shapeOf(schema, value);
  if (shape === FREE) return trimFree(value, path, walk);
  if (shape === undefined) return value;
  const marked = shape as Marked;
  const inner = { ...walk, freeTextChars: marked[FREE_TEXT_CHARS] ?? walk.freeTextChars };
  switch (shape[Kind]) {
    case "String":
      return trimText(marked[CUT] ?? cutText, shape.maxLength ?? inner.freeTextChars, value as string, path, inner);
    case "Object":
      return trimObject(shape, value as Record<string, unknown>, path, inner);
    case "Record":
      return trimEntries(shape, value as Record<string, unknown>, path, inner);
    case "Array":
      return trimItems(shape, value as unknown[], path, inner);
    default:
      return value;
  }
}

function trimText(cut: Cut, maxChars: number | undefined, text: string, path: string, walk: Walk): string {
  if (maxChars === undefined || text.length <= maxChars) return text;
  walk.trimmed.add(path);
  return cut(text, maxChars);
}

/** Content no schema describes: stored free-form content has its strings cut; anything else is left as sent (ignored). */
function trimFree(value: unknown, path: string, walk: Walk): unknown {
  if (walk.freeTextChars === undefined) return value;
  if (typeof value === "string") return trimText(cutText, walk.freeTextChars, value, path, walk);
  if (Array.isArray(value)) return value.map((item, index) => trimFree(item, fieldName(path, index), walk));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, trimFree(item, fieldName(path, key), walk)]));
  }
  return value;
}

function trimObject(schema: TSchema, object: Record<string, unknown>, path: string, walk: Walk): Record<string, unknown> {
  const properties: Record<string, TSchema> = schema.properties;
  // fromEntries, not assignment: a "__proto__" key stays a key.
  return Object.fromEntries(
    Object.entries(object).map(([key, item]) => {
      const field = fieldName(path, key);
      return [key, Object.hasOwn(properties, key) ? trimValue(properties[key]!, item, field, walk) : trimFree(item, field, walk)];
    }),
  );
}

/** Whether a collection's entry is text over its bound, to be dropped rather than cut. */
function overBound(schema: TSchema, item: unknown): boolean {
  const shape = shapeOf(schema, item);
  return shape !== FREE && shape?.[Kind] === "String" && shape.maxLength !== undefined && (item as string).length > shape.maxLength;
}

function keepFirst<T>(entries: T[], max: number | undefined, path: string, walk: Walk): T[] {
  if (max === undefined || entries.length <= max) return entries;
  walk.trimmed.add(path);
  return entries.slice(0, max);
}

/** Named values: an entry whose name or text is over its bound is dropped, then the first maxProperties are kept. */
function trimEntries(schema: TSchema, object: Record<string, unknown>, path: string, walk: Walk): Record<string, unknown> {
  const { minLength = 0, maxLength = Infinity } = schema.propertyNames ?? {};
  const [valueSchema] = Object.values<TSchema>(schema.patternProperties);
  const kept: Array<[string, unknown]> = [];
  for (const [name, item] of Object.entries(object)) {
    const field = fieldName(path, name);
    // A name over its bound is not repeated in the answer: the collection is named instead.
    if (name.length < minLength || name.length > maxLength) walk.trimmed.add(path);
    else if (overBound(valueSchema!, item)) walk.trimmed.add(field);
    else kept.push([name, trimValue(valueSchema!, item, field, walk)]);
  }
  return Object.fromEntries(keepFirst(kept, schema.maxProperties, path, walk));
}

/** A list: an item whose text is over its bound is dropped, then the first maxItems are kept. */
function trimItems(schema: TSchema, items: unknown[], path: string, walk: Walk): unknown[] {
  const kept: unknown[] = [];
  items.forEach((item, index) => {
    const field = fieldName(path, index);
    if (overBound(schema.items, item)) walk.trimmed.add(field);
    else kept.push(trimValue(schema.items, item, field, walk));
  });
  return keepFirst(kept, schema.maxItems, path, walk);
}
