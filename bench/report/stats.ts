// Order statistics for the benches: every percentile in the report comes from
// here, over all samples (never a histogram's buckets).

/**
 * The p-th quantile (0 < p <= 1) of values sorted ascending, by nearest rank:
 * the smallest value with at least p of the samples at or below it. p = 0
 * gives the smallest value.
 */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) throw new Error("percentile of no samples");
  if (!(p >= 0 && p <= 1)) throw new Error(`percentile rank must be from 0 to 1, not ${p}`);
  const rank = Math.max(1, Math.ceil(p * sorted.length));
  return sorted[rank - 1]!;
}

export interface Spread {
  median: number;
  p95: number;
  p99: number;
  samples: number;
}

/** Median, p95 and p99 of samples in any order (the array is not changed). */
export function spread(samples: ArrayLike<number>): Spread {
  const sorted = Float64Array.from(samples).sort();
  return { median: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), p99: percentile(sorted, 0.99), samples: sorted.length };
}

/** The middle value of a few figures (rounds of a bench), the lower one of an even count. */
export function middle(values: number[]): number {
  const sorted = Float64Array.from(values).sort();
  return percentile(sorted, 0.5);
}
