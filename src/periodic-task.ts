// A task a server repeats while it runs (the history roll-up, the alert
// sweep): one run at a time (a tick while one is under way joins it), a
// failure reported and the next tick tried, the timer unref'd so that a serve
// that failed to start still exits, and a stop that waits for the run under
// way, so the store is not closed beneath it.

export class PeriodicTask {
  #timer: ReturnType<typeof setInterval> | undefined;
  #running: Promise<void> | undefined;

  constructor(
    private readonly task: () => Promise<void>,
    private readonly reportFailure: (error: unknown) => void,
  ) {}

  /** Runs the task every `intervalMs`, and once at once when `runNow`. */
  start(intervalMs: number, runNow = false): void {
    this.#timer = setInterval(() => void this.run(), intervalMs);
    this.#timer.unref();
    if (runNow) void this.run();
  }

  /** One run, unless one is under way (then that one). */
  run(): Promise<void> {
    this.#running ??= this.task()
      .catch(this.reportFailure)
      .finally(() => {
        this.#running = undefined;
      });
    return this.#running;
  }

  /** Stops the timer and waits for the run under way. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#running;
  }
}
