// Reads the result autocannon (the load generator of the HTTP benches) gives
// for one run, as `autocannon --json` prints it or its API resolves to. Only
// what the report uses is kept; anything missing or malformed is an error, so
// a changed autocannon fails the bench instead of filling it with zeros.

export interface AutocannonSummary {
  /** Responses received (any status). */
  responses: number;
  /** Requests sent, answered or not. */
  sent: number;
  seconds: number;
  /** Socket errors, timeouts included (autocannon counts both as errors). */
  socketErrors: number;
  timeouts: number;
  /** Responses outside 200-299 (a 304 counts). */
  non2xx: number;
  /** Responses by status code. */
  statuses: Record<string, number>;
  /** Bytes received in 2xx answers, headers included. */
  bytes: number;
  /** autocannon's own latency percentiles: whole milliseconds, of 2xx answers only. */
  wholeMs: { p50: number; p99: number };
}

function field(value: unknown, path: string): number {
  let node: unknown = value;
  for (const key of path.split(".")) {
    if (typeof node !== "object" || node === null || !(key in node)) throw new Error(`autocannon result has no ${path}`);
    node = (node as Record<string, unknown>)[key];
  }
  if (typeof node !== "number" || !Number.isFinite(node) || node < 0) throw new Error(`autocannon result: ${path} is not a count (${String(node)})`);
  return node;
}

export function parseAutocannon(result: unknown): AutocannonSummary {
  const stats = (result as { statusCodeStats?: unknown } | null)?.statusCodeStats;
  if (typeof stats !== "object" || stats === null) throw new Error("autocannon result has no statusCodeStats");
  const statuses: Record<string, number> = {};
  let answered = 0;
  for (const [code, entry] of Object.entries(stats)) {
    if (!/^[1-5]\d\d$/.test(code)) throw new Error(`autocannon result: status ${code} is not an HTTP status`);
    statuses[code] = field(entry, "count");
    answered += statuses[code];
  }
  const responses = field(result, "requests.total");
  if (responses !== answered) throw new Error(`autocannon result: ${responses} responses but ${answered} counted by status`);
  const non2xx = field(result, "non2xx");
  const outside = Object.entries(statuses).filter(([code]) => !code.startsWith("2")).reduce((sum, [, n]) => sum + n, 0);
  if (non2xx !== outside) throw new Error(`autocannon result: non2xx ${non2xx} but ${outside} answers outside 2xx`);
  return {
    responses,
    sent: field(result, "requests.sent"),
    seconds: field(result, "duration"),
    socketErrors: field(result, "errors"),
    timeouts: field(result, "timeouts"),
    non2xx,
    statuses,
    bytes: field(result, "throughput.total"),
    wholeMs: { p50: field(result, "latency.p50"), p99: field(result, "latency.p99") },
  };
}
