// The semaphore the lookup service caps its concurrency with: a bounded
// number of tasks at once, and a bounded waiting line.

export class Semaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    readonly limit: number,
    readonly maxWaiting: number,
  ) {}

  /**
   * Runs `task` when a slot is free; null (without running it) when the line
   * is full, or when no slot came free within `maxWaitMs`: a waiter that
   * leaves the line at its deadline is what keeps a storm of lookups that
   * never answer from making every later one wait in turn.
   */
  async run<T>(task: () => Promise<T>, maxWaitMs = Infinity): Promise<T | null> {
    if (this.active >= this.limit) {
      if (this.waiting.length >= this.maxWaiting) return null;
      if (!(await this.slotWithin(maxWaitMs))) return null;
    } else {
      this.active++;
    }
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next(); // the slot passes straight to the next in line
      else this.active--;
    }
  }

  /** Waits in line: true once handed a slot, false when `maxWaitMs` passed first (the line is left). */
  private slotWithin(maxWaitMs: number): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      const granted = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = Number.isFinite(maxWaitMs)
        ? setTimeout(() => {
            this.waiting.splice(this.waiting.indexOf(granted), 1);
            resolve(false);
          }, maxWaitMs)
        : undefined;
      this.waiting.push(granted);
    });
  }

  get inUse(): number {
    return this.active;
  }
}
