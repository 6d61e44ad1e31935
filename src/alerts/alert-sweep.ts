// The alert loop that serve runs: every interval it judges each watched
// server's state (so a server that crashed, and never pushes again, is found
// stale without any request) and the most players its updates reported since
// the sweep before (so a record reached and left between two sweeps is
// seen), claims each change in the store (on several instances, one claim
// wins and only its deliveries are queued), then sends the deliveries that
// are due. The store's lease keeps two instances from sending one delivery;
// a failed one is retried (delivery.ts).

import type { Store } from "../store/store.ts";
import type { ServerState, Transition, WatchedServer } from "../store/webhook-records.ts";
import { PeriodicTask } from "../periodic-task.ts";
import { retryAt, send, succeeded, type ResolveTarget } from "./delivery.ts";
import { eventBody, formatBody, stateOf, type WebhookEvent } from "./events.ts";

/** How often serve sweeps by default: an outage is told within seconds of going stale. */
export const SWEEP_INTERVAL_MS = 10_000;
/** Deliveries one subscription may have waiting: an hour of retries of a flapping server, at most. */
export const MAX_QUEUED = 50;
/** A subscription whose deliveries all failed for this long is paused. */
export const PAUSE_AFTER_MS = 24 * 60 * 60_000;
/** Deliveries sent per sweep, at once. */
const BATCH = 20;
/** A delivery is held this long for its attempt: longer than the attempt's deadline. */
const LEASE_MS = 60_000;
/**
 * How far before its start each sweep reads the samples the one before read:
 * an update stamped before the sweep but written after it read (a slow
 * transaction, another instance's clock a little behind) is still seen.
 * Reading a sample twice is harmless: only passing the record is news.
 */
const PEAK_OVERLAP_MS = 60_000;

export interface AlertDeps {
  store: Store;
  now: () => number;
  staleAfterMs: number;
  resolve: ResolveTarget;
  /** What could not be done (the store failed); the sweep goes on at the next interval. */
  reportFailure: (error: unknown) => void;
}

export class AlertSweep {
  /** One sweep at a time, however slow a receiver is. */
  readonly #task: PeriodicTask;
  /** Samples from here on hold counts this instance has not compared with the records yet: on its first sweep, every sample kept. */
  #peakSince = 0;

  constructor(private readonly deps: AlertDeps) {
    this.#task = new PeriodicTask(() => this.#sweepOnce(), deps.reportFailure);
  }

  start(intervalMs = SWEEP_INTERVAL_MS): void {
    this.#task.start(intervalMs);
  }

  /** Stops the timer and waits for the sweep under way. */
  stop(): Promise<void> {
    return this.#task.stop();
  }

  /** One sweep, unless one is under way (then that one). */
  sweep(): Promise<void> {
    return this.#task.run();
  }

  async #sweepOnce(): Promise<void> {
    const { store } = this.deps;
    const started = this.deps.now();
    for (const server of await store.webhooks.watched(this.#peakSince)) await this.#claimChanges(server);
    // Moved only once every claim is made: after a failure, the next sweep reads the same samples again.
    this.#peakSince = started - PEAK_OVERLAP_MS;
    const due = await store.webhooks.due(this.deps.now(), LEASE_MS, BATCH);
    await Promise.all(due.map(async (delivery) => {
      const status = await send(delivery, this.deps.resolve, this.deps.now());
      const now = this.deps.now();
      const ok = succeeded(status);
      await store.webhooks.settle({
        deliveryId: delivery.id, webhookId: delivery.webhookId, now, status, ok, retryAt: ok ? null : retryAt(delivery, now), pauseAfterMs: PAUSE_AFTER_MS,
      });
    }));
  }

  async #claimChanges(server: WatchedServer): Promise<void> {
    const now = this.deps.now();
    const state = stateOf(server, now, this.deps.staleAfterMs);
    await this.#claim(server, state, { state }, state, now);
    // The peak counts only updates saying online: a count is news only from a server up to report it.
    if (server.playersPeak !== null) {
      await this.#claim(server, "players_record", { players: server.playersPeak }, state, now, server.playersPeak);
    }
  }

  #claim(server: WatchedServer, event: WebhookEvent, change: Transition["change"], state: ServerState, now: number, players = server.playersOnline): Promise<number | null> {
    const body = eventBody(event, server, state, now, players);
    return this.deps.store.webhooks.claim({ serverUuid: server.uuid, change, event, now, body: (hook) => formatBody(hook.format, body), maxQueued: MAX_QUEUED });
  }
}
