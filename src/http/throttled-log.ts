// A log line that repeats at most once per interval per key, counting the
// repeats it held back, so that a stream of failing requests cannot flood the log.

export class ThrottledLog {
  private readonly lastWritten = new Map<string, { at: number; heldBack: number }>();

  constructor(
    private readonly intervalMs: number,
    private readonly now: () => number,
    private readonly write: (line: string) => void,
  ) {}

  /** Keys must come from a small fixed set (they are kept for the process's life). */
  log(key: string, line: string): void {
    const now = this.now();
    const last = this.lastWritten.get(key);
    if (last && now - last.at < this.intervalMs) {
      last.heldBack++;
      return;
    }
    this.write(last?.heldBack ? `${line} (${last.heldBack} more since the last such line)` : line);
    this.lastWritten.set(key, { at: now, heldBack: 0 });
  }
}
