// Times as a page says them: a span in words ("3 h 20 min"), an instant in
// UTC ("2026-01-05 14:03 UTC"), which a reader anywhere can convert from.

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** A span of `ms` in its two largest units: "under a minute", "12 min", "3 h 20 min", "2 d 4 h", "45 d". */
export function spanWords(ms: number): string {
  if (ms < MINUTE_MS) return "under a minute";
  const days = Math.floor(ms / DAY_MS);
  const hours = Math.floor((ms % DAY_MS) / HOUR_MS);
  const minutes = Math.floor((ms % HOUR_MS) / MINUTE_MS);
  if (days >= 10) return `${days} d`;
  if (days > 0) return hours > 0 ? `${days} d ${hours} h` : `${days} d`;
  if (hours > 0) return minutes > 0 ? `${hours} h ${minutes} min` : `${hours} h`;
  return `${minutes} min`;
}

/** "2026-01-05 14:03 UTC". */
export function utcWords(at: number): string {
  const iso = new Date(at).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}
