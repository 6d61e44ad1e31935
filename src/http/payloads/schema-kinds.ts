// Which JSON values a TypeBox schema's kind holds: how the payload read picks
// the variant of a union (a nullable field, a typed key that may be anything
// but an object) that a value is meant for, to fit it and to explain a refusal.

import { Kind, type TSchema } from "@sinclair/typebox";

type JsonKind = "null" | "boolean" | "number" | "string" | "array" | "object";

function jsonKind(value: unknown): JsonKind {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value as JsonKind;
}

/** The kind of JSON value each TypeBox kind holds. */
const KIND_HOLDS: Record<string, JsonKind> = {
  Null: "null",
  Boolean: "boolean",
  Number: "number",
  Integer: "number",
  String: "string",
  Array: "array",
  Object: "object",
  Record: "object",
};

/** Whether `value` is the kind of JSON value `schema` describes (an integer schema holds any number). */
export function holds(schema: TSchema, value: unknown): boolean {
  return KIND_HOLDS[schema[Kind]] === jsonKind(value);
}
