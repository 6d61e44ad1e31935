// Query parameters as the routes describe them (schemas Elysia is told not to
// enforce: each route checks its own input, see the routes).

import { t } from "elysia";

/**
 * An optional parameter taking one of a few values. Not Elysia's t.UnionEnum:
 * Elysia fills a parameter left out with that type's default (its first
 * value), even in a schema it does not enforce.
 */
export function choiceParameter(values: readonly string[], description: string) {
  return t.Optional(t.String({ enum: [...values], description }));
}
