// The methods the app serves at a path, read from its registered routes, so
// that a known path asked with another method is a 405 with Allow, not a 404.

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

/** A lookup built on first use, once `routes()` lists every route. */
export function allowedMethods(routes: () => readonly RouteEntry[]): (path: string) => string[] {
  let table: Array<{ method: string; pattern: RegExp }> | undefined;
  return (path) => {
    table ??= routes().map((route) => ({ method: route.method, pattern: pathPattern(route.path) }));
    const methods = new Set(table.filter((route) => route.pattern.test(path)).map((route) => route.method));
    if (methods.has("GET")) methods.add("HEAD"); // Bun answers HEAD with the GET route
    return [...methods].sort();
  };
}
