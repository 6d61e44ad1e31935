// A signed body's one schema (TypeBox): the route declares it so the OpenAPI
// document describes it, and the signed-request pipeline reads the parsed JSON
// with it, after the signature over the raw bytes was checked: first trimmed to
// the schema's bounds (trim-to-bounds.ts: text over a bound is cut or dropped, never
// refused), then checked. A refusal names the offending field in words built
// from the schema itself ("stats.players.online must be an integer from 0 to 1000000000").
//
// Payload schemas are written with TypeBox's own Type, not Elysia's t, whose
// numbers also accept numeric strings (right for a query string, wrong for JSON).

import { Kind, Type, type ObjectOptions, type Static, type TProperties, type TSchema } from "@sinclair/typebox";
import { TypeCompiler, type TypeCheck } from "@sinclair/typebox/compiler";
import { ValueErrorType, type ValueError } from "@sinclair/typebox/errors";
import { trimToBounds } from "./trim-to-bounds.ts";
import { PayloadError, fieldName } from "./json-bounds.ts";
import { holds } from "./schema-kinds.ts";

/** A body read: the fields to store, and the fields cut or dropped to fit their bounds (empty when none). */
export interface PayloadRead<T> {
  fields: T;
  trimmed: readonly string[];
}

export interface Payload<T> {
  /** The body's schema: the route's `body:`, and what `read` trims and checks. */
  readonly schema: TSchema;
  /**
   * Fits parsed JSON to the schema's bounds, checks it against the schema
   * (PayloadError naming the field) and maps it onto store fields. Pure: the
   * same body reads the same.
   */
  read(json: unknown): PayloadRead<T>;
}

/** A payload read by one compiled schema. */
export function payload<S extends TSchema, T>(schema: S, toFields: (body: Static<S>) => T): Payload<T> {
  // Compiled on first use: compiling every payload at start-up cost ~20 ms before the first answer.
  let compiled: TypeCheck<S> | undefined;
  return {
    schema,
    read(json) {
      compiled ??= TypeCompiler.Compile(schema);
      const { value, trimmed } = trimToBounds(schema, json);
      if (compiled.Check(value)) return { fields: toFields(value), trimmed };
      throw explain(compiled.Errors(value).First()!, value);
    },
  };
}

// ---- schema parts shared by the payloads --------------------------------

/**
 * An object whose unknown keys are ignored (newer plugin builds send more).
 * Said explicitly, so the document says it too, and so that Elysia, given
 * the schema as a route's body, leaves it as it is (it sets
 * additionalProperties: false on an object schema that does not say).
 */
export function openObject<P extends TProperties>(properties: P, options: ObjectOptions = {}) {
  return Type.Object(properties, { additionalProperties: true, ...options });
}

/** A field that may be left out or sent as null: null counts as absent (some plugin builds send it). */
export function optional<S extends TSchema>(schema: S) {
  return Type.Optional(Type.Union([schema, Type.Null()]));
}

/**
 * An object of named values: at most `maxEntries`, names `minName` to `maxName`
 * characters. The name bound is documented as the key pattern and as
 * propertyNames, which trim-to-bounds.ts reads: an entry named outside it is dropped.
 */
export function namedEntries<S extends TSchema>(value: S, bounds: { maxEntries: number; minName: number; maxName: number }, description: string) {
  return Type.Record(Type.String({ pattern: `^[\\s\\S]{${bounds.minName},${bounds.maxName}}$` }), value, {
    maxProperties: bounds.maxEntries,
    additionalProperties: false,
    propertyNames: { minLength: bounds.minName, maxLength: bounds.maxName },
    description,
  });
}

/** Any value; when it is an object, its listed keys must have their types (free-form parts read by badges). */
export function whenObject<S extends TSchema>(schema: S) {
  return Type.Optional(Type.Union([schema, Type.Not(Type.Object({}))], { description: "Free-form; when an object, the keys listed must have their types" }));
}

/** A field's value with null read as absent. */
export const present = <T>(value: T | null | undefined): T | undefined => value ?? undefined;

// ---- refusals -----------------------------------------------------------

/**
 * The error to report: inside a union (a nullable field, a typed key that may
 * be anything but an object), the one of the variant the value is a kind of.
 */
function innermost(error: ValueError): ValueError {
  if (error.type !== ValueErrorType.Union) return error;
  const variants: TSchema[] = error.schema.anyOf;
  const index = variants.findIndex((variant) => holds(variant, error.value));
  const inner = index < 0 ? undefined : error.errors[index]?.First();
  return inner ? innermost(inner) : error;
}

function range(schema: TSchema): string {
  const { minimum, maximum } = schema;
  if (minimum !== undefined && maximum !== undefined) return ` from ${minimum} to ${maximum}`;
  if (minimum !== undefined) return ` of at least ${minimum}`;
  if (maximum !== undefined) return ` of at most ${maximum}`;
  return "";
}

const PLURALS: Record<string, string> = { String: "strings", Number: "numbers", Integer: "integers", Boolean: "booleans" };

function alternatives(choices: string[]): string {
  return choices.length < 2 ? (choices[0] ?? "") : `${choices.slice(0, -1).join(", ")} or ${choices.at(-1)}`;
}

/** What a value must be, in words: "an integer from 0 to 1000000000". */
function expectation(schema: TSchema): string {
  switch (schema[Kind]) {
    case "String":
      return "a string";
    case "Boolean":
      return "true or false";
    case "Integer":
      return `an integer${range(schema)}`;
    case "Number":
      return `a number${range(schema)}`;
    case "Array": {
      const items = PLURALS[schema.items?.[Kind]];
      return items ? `a list of ${items}` : "a list";
    }
    case "Object":
    case "Record":
      return "an object";
    case "Literal":
      return JSON.stringify(schema.const);
    case "Union":
      return alternatives((schema.anyOf as TSchema[]).filter((variant) => variant[Kind] !== "Null").map(expectation));
    default:
      return "valid";
  }
}

/** A JSON pointer's segments ("/stats/a~1b" -> ["stats", "a/b"]). */
function segments(pointer: string): string[] {
  return pointer === "" ? [] : pointer.slice(1).split("/").map((part) => part.replaceAll("~1", "/").replaceAll("~0", "~"));
}

/** The field at a pointer, named as in messages; array items by index. */
function fieldAt(json: unknown, parts: string[]): string {
  let node = json;
  let field = "";
  for (const part of parts) {
    field = Array.isArray(node) ? fieldName(field, Number(part)) : fieldName(field, part);
    node = node !== null && typeof node === "object" ? (node as Record<string, unknown>)[part] : undefined;
  }
  return field;
}

function explain(error: ValueError, json: unknown): PayloadError {
  const problem = innermost(error);
  const parts = segments(problem.path);
  const field = fieldAt(json, parts);
  // Lengths, counts and names were trimmed to their bounds (trim-to-bounds.ts): what is left is a wrong kind or number.
  if (field === "") return new PayloadError("", "the body must be a JSON object");
  return new PayloadError(field, `must be ${expectation(problem.schema)}`);
}
