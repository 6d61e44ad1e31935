// What a metric is: a default label, how long its badge may be cached, and
// how to read its message and colour from a record. Plugin and server
// metrics (plugin-metrics.ts, server-metrics.ts) are tables of these.

/** How fast a metric's value changes, which sets its Cache-Control. */
export type CacheClass = "live" | "count" | "version" | "stable";

/** Seconds a badge of each class may be cached (`cacheSeconds` may only lengthen it). */
export const CACHE_SECONDS: Record<CacheClass, number> = {
  /** Online state, players, TPS, plugin activity. */
  live: 60,
  /** Downloads, followers, stars, issues. */
  count: 900,
  /** Versions, supported game versions and software. */
  version: 300,
  /** Ids and licences. */
  stable: 3600,
};

/** What a metric shows: its message and the colour of the message segment (a badge colour name or "#hex"). */
export interface MetricValue {
  message: string;
  color: string;
}

export interface Metric<R> {
  label: string;
  cache: CacheClass;
  /** The value, or undefined when the record does not hold it (the badge then shows FALLBACK). */
  read(record: R, now: number): MetricValue | undefined;
}

/** What a badge shows for a value never sent. */
export const FALLBACK: MetricValue = { message: "N/A", color: "lightgrey" };
