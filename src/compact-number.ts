// Compact counts as shields.io writes them ("1.3k", "35k"): badges and
// banners print large numbers the same way, so they live below both.

const PREFIXES = ["k", "M", "G", "T", "P", "E", "Z", "Y"];

/**
 * A count in shields' compact form: 999 -> "999", 1049 -> "1k",
 * 1050 -> "1.1k", 9999 -> "10k", 12345 -> "12k", 999500 -> "1M". Counts are
 * whole: a fraction is rounded first (0.4 -> "0", 999.5 -> "1k"). One decimal
 * below 10 of a unit unless it is ".0"; a value that rounds to 1000 of a unit
 * moves to the next (past the last, it stays: "1000Y").
 */
export function compactNumber(value: number): string {
  const whole = Math.round(Math.abs(value));
  const sign = value < 0 && whole > 0 ? "-" : "";
  for (let i = PREFIXES.length - 1; i >= 0; i--) {
    const unit = 1000 ** (i + 1);
    if (whole < unit) continue;
    const scaled = whole / unit;
    if (scaled < 10) {
      const oneDecimal = scaled.toFixed(1);
      if (!oneDecimal.endsWith("0")) return `${sign}${oneDecimal}${PREFIXES[i]}`;
    }
    const rounded = Math.round(scaled);
    const next = PREFIXES[i + 1];
    if (rounded < 1000 || next === undefined) return `${sign}${rounded}${PREFIXES[i]}`;
    return `${sign}1${next}`;
  }
  return `${sign}${whole}`;
}
