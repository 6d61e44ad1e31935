// X-Timestamp: Unix time in seconds, or in milliseconds (values above 10^12,
// as deployed plugin builds send). The clock window is symmetric.

const MILLISECONDS_THRESHOLD = 1e12;

/** The timestamp in milliseconds, or null when the header is not a plain integer. */
export function parseTimestamp(header: string): number | null {
  const trimmed = header.trim();
  if (!/^\d{1,16}$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return value > MILLISECONDS_THRESHOLD ? value : value * 1000;
}

export function withinWindow(timestampMs: number, nowMs: number, skewSeconds: number): boolean {
  return Math.abs(nowMs - timestampMs) <= skewSeconds * 1000;
}
