// The OpenAPI 3.1 document, generated from the app's registered routes: each
// route's path, params, query and headers schemas become its parameters, its
// body schema (the one the signed pipeline checks) its request body, and its
// detail (summary, description, tags, responses built in responses.ts) the
// rest. Schemas are TypeBox, that is JSON Schema: they go in as they are.

export interface DescribedRoute {
  method: string;
  path: string;
  hooks?: {
    params?: unknown;
    query?: unknown;
    headers?: unknown;
    body?: unknown;
    detail?: object;
  };
}

export interface DocumentInfo {
  title: string;
  version: string;
  description: string;
  tags: ReadonlyArray<{ name: string; description: string }>;
}

interface ObjectSchema {
  properties?: Record<string, { description?: string }>;
  required?: string[];
}

type Location = "path" | "query" | "header";

/** One parameter per property of an object schema; its description lifted onto the parameter. */
function parameters(schema: unknown, location: Location): object[] {
  const { properties = {}, required = [] } = (schema ?? {}) as ObjectSchema;
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property;
    return { name, in: location, required: location === "path" || required.includes(name), ...(description ? { description } : {}), schema: rest };
  });
}

/** Path parameters: from the params schema, else each `:name` of the path as a string. */
function pathParameters(path: string, schema: unknown): object[] {
  if (schema) return parameters(schema, "path");
  return [...path.matchAll(/:([^/]+)/g)].map((match) => ({ name: match[1], in: "path", required: true, schema: { type: "string" } }));
}

/** "GET /api/plugins/:plugin_uuid/data" -> "getApiPluginsPluginUuidData". */
function operationId(method: string, path: string): string {
  const words = path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return method.toLowerCase() + words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join("");
}

function operation({ method, path, hooks = {} }: DescribedRoute): object {
  const params = [...pathParameters(path, hooks.params), ...parameters(hooks.query, "query"), ...parameters(hooks.headers, "header")];
  const { responses, ...about } = (hooks.detail ?? {}) as { responses?: object };
  return {
    operationId: operationId(method, path),
    ...about,
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(hooks.body ? { requestBody: { required: true, content: { "application/json": { schema: hooks.body } } } } : {}),
    responses,
  };
}

/**
 * Plain JSON: TypeBox's symbol keys drop out; Elysia's NoValidate marker (a
 * schema the route checks itself, see the routes) means nothing to a reader.
 */
function plainJson(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (key, item) => (key === "noValidate" ? undefined : item)));
}

export function openApiDocument(routes: readonly DescribedRoute[], info: DocumentInfo): Record<string, unknown> {
  const paths: Record<string, Record<string, object>> = {};
  for (const route of routes) {
    const path = route.path.replace(/:([^/]+)/g, "{$1}");
    (paths[path] ??= {})[route.method.toLowerCase()] = operation(route);
  }
  const { tags, ...about } = info;
  return plainJson({ openapi: "3.1.0", info: about, tags, paths }) as Record<string, unknown>;
}
