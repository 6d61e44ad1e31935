// Counts refused server pushes in memory and adds them to the store every few
// seconds (Store.refusals, src/store/push-refusals.ts), so that a refused
// request costs a map update, not a write: a plugin refused every second, or
// a flood of refusals, makes one upsert a flush. The store keeps them where
// `pennant servers` (another process) and every instance read them.
//
// Bounds: between two flushes the tally holds at most MAX_REFUSALS_PER_BATCH
// keys (server UUID, code, token); a refusal of a new key past them is not
// counted (the flush says how many were not), while the keys held go on
// counting. A flush that fails is dropped with a warning: what is counted is
// a diagnosis, and holding it for a retry would let a failing store grow it.

import type { Logger } from "../log.ts";
import { PeriodicTask } from "../periodic-task.ts";
import type { RefusalCounter } from "../http/signed-request.ts";
import { MAX_REFUSALS_PER_BATCH, refusalKey, type RefusalCount } from "../store/push-refusals.ts";
import type { Store } from "../store/store.ts";

/** How often an instance adds what it counted: `pennant servers` lags the refusals by at most this. */
export const REFUSAL_FLUSH_EVERY_MS = 5_000;

export interface RefusalTallyDeps {
  store: Store;
  now: () => number;
  log: Logger;
}

export class RefusalTally implements RefusalCounter {
  #counts = new Map<string, RefusalCount>();
  #uncounted = 0;
  readonly #flushes: PeriodicTask;

  constructor(private readonly deps: RefusalTallyDeps) {
    this.#flushes = new PeriodicTask(
      () => this.flush(),
      (error) => deps.log.warn("refused pushes could not be recorded; they are not counted", { error: (error as Error).message }),
    );
  }

  count(serverUuid: string, code: string, tokenId: number | null, now: number): void {
    const key = refusalKey({ serverUuid, code, tokenId });
    const held = this.#counts.get(key);
    if (held) {
      held.count += 1;
      held.lastAt = Math.max(held.lastAt, now);
    } else if (this.#counts.size < MAX_REFUSALS_PER_BATCH) {
      this.#counts.set(key, { serverUuid, code, tokenId, count: 1, lastAt: now });
    } else {
      this.#uncounted += 1;
    }
  }

  /** Flushes every `intervalMs` (REFUSAL_FLUSH_EVERY_MS); the app stops it (stop flushes what is left). */
  start(intervalMs: number): void {
    this.#flushes.start(intervalMs);
  }

  /** Adds what was counted since the last flush to the store. */
  flush(): Promise<void> {
    const counts = [...this.#counts.values()];
    const uncounted = this.#uncounted;
    this.#counts = new Map();
    this.#uncounted = 0;
    if (uncounted > 0) this.deps.log.warn("refused pushes past the tally's bound were not counted", { uncounted, bound: MAX_REFUSALS_PER_BATCH });
    return counts.length === 0 ? Promise.resolve() : this.deps.store.refusals.add(counts, this.deps.now());
  }

  /** Stops the timer, waits for a flush under way, and flushes what is left. */
  async stop(): Promise<void> {
    await this.#flushes.stop();
    await this.#flushes.run();
  }
}
