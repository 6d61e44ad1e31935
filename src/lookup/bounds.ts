// The semaphore the lookup service caps its concurrency with: a bounded
// number of tasks at once, and a bounded waiting line.

export class Semaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    readonly limit: number,
    readonly maxWaiting: number,
  ) {}

  /** Runs `task` when a slot is free; null (without running it) when the line is full. */
  async run<T>(task: () => Promise<T>): Promise<T | null> {
    if (this.active >= this.limit) {
      if (this.waiting.length >= this.maxWaiting) return null;
      await new Promise<void>((resolve) => this.waiting.push(resolve));
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

  get inUse(): number {
    return this.active;
  }
}
