// The routes the app serves, read from its registered routes: a known path
// asked with another method is a 405 with Allow, not a 404, and a request's
// route template (for logs and metrics) is known even when no route ran.

export interface RouteEntry {
  method: string;
  path: string;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Elysia's path syntax: `:name` is one segment, `*` the rest; everything else is literal. */
function pathPattern(path: string): RegExp {
  const segments = path.split("/").map((segment) => {
    if (segment.startsWith(":")) return "[^/]+";
    if (segment === "*") return ".*";
    return escapeRegExp(segment);
  });
  return new RegExp(`^${segments.join("/")}$`);
}

export interface RouteTable {
  /** The methods served at a path ([] for an unknown path). */
  methodsAt(path: string): string[];
  /** The template of the first route matching a path, e.g. "/api/plugins/:plugin_uuid/data". */
  templateOf(path: string): string | undefined;
}

/** A table built on first use, once `routes()` lists every route. */
export function routeTable(routes: () => readonly RouteEntry[]): RouteTable {
  let table: Array<{ method: string; path: string; pattern: RegExp }> | undefined;
  const matching = (path: string) => {
    table ??= routes().map((route) => ({ method: route.method, path: route.path, pattern: pathPattern(route.path) }));
    return table.filter((route) => route.pattern.test(path));
  };
  return {
    methodsAt(path) {
      const methods = new Set(matching(path).map((route) => route.method));
      if (methods.has("GET")) methods.add("HEAD"); // Bun answers HEAD with the GET route
      return [...methods].sort();
    },
    templateOf: (path) => matching(path)[0]?.path,
  };
}
