// One value from a Prometheus text exposition (the server's GET /metrics):
// the storm bench reads the render cache's hits, misses and bytes from it.

/** The value of `name{label="value"}` (labels in any order, others ignored), or 0 when the series is absent. */
export function metricValue(exposition: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of exposition.split("\n")) {
    if (line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = new Map<string, string>();
    for (const pair of (match[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) present.set(pair[1]!, pair[2]!);
    if (Object.entries(labels).every(([key, value]) => present.get(key) === value)) return Number(match[3]);
  }
  return 0;
}
