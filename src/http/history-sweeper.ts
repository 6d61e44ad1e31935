// Runs the history sweep (src/store/history.ts) while `serve` runs. Every
// instance runs it; the store makes a second sweep at once harmless. A run's
// work is bounded, so a backlog (the first sweep of a database with a month
// of samples) is caught up a few runs per tick, between requests.

import type { Logger } from "../log.ts";
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

/** Starts sweeping every HISTORY_SWEEP_EVERY_MS; returns what stops it. */
export function startHistorySweeper({ store, now, staleAfterMs, log }: HistorySweeperDeps): () => void {
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      for (let run = 0; run < RUNS_PER_TICK && (await store.history.sweep(now(), staleAfterMs)); run += 1);
    } catch (error) {
      log.warn("history sweep failed; it runs again in a minute", { error: (error as Error).message });
    } finally {
      running = false;
    }
  };
  const timer = setInterval(tick, HISTORY_SWEEP_EVERY_MS);
  timer.unref();
  void tick();
  return () => clearInterval(timer);
}
