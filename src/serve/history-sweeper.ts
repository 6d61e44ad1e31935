// Runs the history sweep (src/store/history.ts) while `serve` runs. Every
// instance runs it; the store makes a second sweep at once harmless. A run's
// work is bounded, so a backlog (the first sweep of a database with a month
// of samples) is caught up a few runs per tick, between requests.

import type { Logger } from "../log.ts";
import { PeriodicTask } from "../periodic-task.ts";
import type { Store } from "../store/store.ts";

/** How often the sweep runs: a 5-minute bucket is written within about this long of settling. */
export const HISTORY_SWEEP_EVERY_MS = 60_000;

/** Bounded runs per tick while a backlog waits. */
const RUNS_PER_TICK = 10;

export interface HistorySweeperDeps {
  store: Store;
  now: () => number;
  staleAfterMs: number;
  log: Logger;
}

/** Sweeps at once and then every HISTORY_SWEEP_EVERY_MS; the app stops it (waiting for a run under way). */
export function startHistorySweeper({ store, now, staleAfterMs, log }: HistorySweeperDeps): PeriodicTask {
  const sweeper = new PeriodicTask(
    async () => {
      for (let run = 0; run < RUNS_PER_TICK && (await store.history.sweep(now(), staleAfterMs)); run += 1);
    },
    (error) => log.warn("history sweep failed; it runs again in a minute", { error: (error as Error).message }),
  );
  sweeper.start(HISTORY_SWEEP_EVERY_MS, true);
  return sweeper;
}
