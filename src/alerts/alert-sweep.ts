// The alert loop that serve runs: every interval it judges each watched
// server's state (so a server that crashed, and never pushes again, is found
// stale without any request) and the most players its updates reported since
// the sweep before (so a record reached and left between two sweeps is
// seen), claims each in the store (on several instances, one claim wins and
// only its deliveries are queued; a subscription hears `offline` only once
// the server has stayed offline for its grace), then leases the deliveries
// that are due, and the live Discord messages whose server would show
// something else (live-message.ts), and starts them without waiting for them
// (delivery-slots.ts). The lease is fair across tokens (round robin, each
// token's share in flight bounded), so one token's receivers, however slow,
// hold only that token's share: another token's alert leaves with the sweep
// that found it. The store's lease keeps two instances from sending one
// delivery or editing one message at once; a failed delivery is retried
// (delivery.ts), and one whose receiver did not answer holds its
// subscription's other deliveries until its retry.

import type { Store } from "../store/store.ts";
import type { DueDelivery, ServerState, Transition, WatchedServer } from "../store/webhook-records.ts";
import { PeriodicTask } from "../periodic-task.ts";
import { DeliverySlots } from "./delivery-slots.ts";
import { DELIVERY_TIMEOUT_MS, retryAt, send, succeeded, type ResolveTarget } from "./delivery.ts";
import { eventBody, formatBody, stateOf, type WebhookEvent } from "./events.ts";
import { liveShown, type ReadLiveView } from "./live-embed.ts";
import { LiveMessages } from "./live-message.ts";

/** How often serve sweeps by default: an outage is told within seconds of going stale. */
export const SWEEP_INTERVAL_MS = 10_000;
/** Deliveries one subscription may have waiting: an hour of retries of a flapping server, at most. */
export const MAX_QUEUED = 50;
/** A subscription whose deliveries all failed for this long is paused. */
export const PAUSE_AFTER_MS = 24 * 60 * 60_000;
/** Attempts one instance runs at once: each may hold a socket for the receiver's whole timeout. */
const MAX_IN_FLIGHT = 200;
/**
 * One token's deliveries in flight at once, counted over every instance (two
 * leasing at the same moment may each take that many), and as many of its
 * live messages: a server's 10 subscriptions' alert leaves at once, and a
 * token whose receivers hang holds no more sockets than this (twice, with
 * its live messages).
 */
export const PER_TOKEN_IN_FLIGHT = 10;
/** A delivery is held this long for its attempt: longer than resolving its host and its deadline. */
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
  /** How long a receiver has to answer (DELIVERY_TIMEOUT_MS unless a test shortens it). */
  deliveryTimeoutMs?: number;
  /** Live Discord messages: Discord's API (DISCORD_API; tests: a stand-in), PENNANT_PUBLIC_URL, and what a message shows of a server. */
  live: { discordApi: string; publicUrl: string | null; view: ReadLiveView };
  /** What could not be done (the store failed); the sweep goes on at the next interval. */
  reportFailure: (error: unknown) => void;
}

export class AlertSweep {
  /** One sweep at a time, however slow a receiver is. */
  readonly #task: PeriodicTask;
  /** Samples from here on hold counts this instance has not compared with the records yet: on its first sweep, every sample kept. */
  #peakSince = 0;
  readonly #slots = new DeliverySlots(MAX_IN_FLIGHT);
  /** Aborted by stop: attempts under way end at once, unrecorded (their leases end and they are tried again), so stopping never waits for a receiver. */
  readonly #stopping = new AbortController();
  readonly #live: LiveMessages;

  constructor(private readonly deps: AlertDeps) {
    this.#task = new PeriodicTask(() => this.#sweepOnce(), deps.reportFailure);
    this.#live = new LiveMessages({
      ...deps.live, store: deps.store, now: deps.now, staleAfterMs: deps.staleAfterMs, timeoutMs: deps.deliveryTimeoutMs ?? DELIVERY_TIMEOUT_MS, pauseAfterMs: PAUSE_AFTER_MS,
    });
  }

  start(intervalMs = SWEEP_INTERVAL_MS): void {
    this.#task.start(intervalMs);
  }

  /** Stops the timer, cuts off the attempts under way and waits for the sweep under way. */
  async stop(): Promise<void> {
    this.#stopping.abort();
    await this.#task.stop();
    await this.#slots.idle();
  }

  /** One sweep, unless one is under way (then that one), and every attempt under way ended. */
  async sweep(): Promise<void> {
    await this.#task.run();
    await this.#slots.idle();
  }

  async #sweepOnce(): Promise<void> {
    const { store } = this.deps;
    const started = this.deps.now();
    /** What each watched server's live messages would show now. */
    const shown = new Map<string, string>();
    for (const server of await store.webhooks.watched(this.#peakSince)) shown.set(server.uuid, liveShown(server, await this.#claimChanges(server)));
    // Moved only once every claim is made: after a failure, the next sweep reads the same samples again.
    this.#peakSince = started - PEAK_OVERLAP_MS;
    if (this.#slots.free === 0 || this.#stopping.signal.aborted) return;
    const due = await store.webhooks.due(this.deps.now(), LEASE_MS, { total: this.#slots.free, perToken: PER_TOKEN_IN_FLIGHT });
    for (const delivery of due) this.#slots.start(() => this.#attempt(delivery));
    const now = this.deps.now();
    if (this.#slots.free === 0 || !this.#live.open(now)) return;
    const live = await store.webhooks.leaseLive({ now, leaseMs: LEASE_MS, share: { total: this.#slots.free, perToken: PER_TOKEN_IN_FLIGHT }, shown: (uuid) => shown.get(uuid) });
    for (const lease of live) this.#slots.start(() => this.#live.attempt(lease, this.#stopping.signal).catch(this.deps.reportFailure));
  }

  /** Sends one delivery and records how it went; a store that fails is reported (the lease ends, and the delivery is tried again). */
  async #attempt(delivery: DueDelivery): Promise<void> {
    try {
      const status = await send(delivery, this.deps.resolve, this.deps.now(), this.deps.deliveryTimeoutMs, this.#stopping.signal);
      if (this.#stopping.signal.aborted) return;
      const now = this.deps.now();
      const ok = succeeded(status);
      const retry = ok ? null : retryAt(delivery, now);
      // No answer at all (a timeout, a refused connection or address): the subscription's next deliveries would fare alike.
      const holdUntil = status === 0 ? retry : null;
      await this.deps.store.webhooks.settle({
        deliveryId: delivery.id, webhookId: delivery.webhookId, now, status, ok, retryAt: retry, holdUntil, pauseAfterMs: PAUSE_AFTER_MS,
      });
    } catch (error) {
      this.deps.reportFailure(error);
    }
  }

  /** Claims the server's state (every sweep: a grace may have run out) and its record, if passed; the state. */
  async #claimChanges(server: WatchedServer): Promise<ServerState> {
    const now = this.deps.now();
    // Judged again on the server as the claim finds it: a push may have come since it was read.
    const judge = (row: Pick<WatchedServer, "status" | "lastSeen">) => stateOf(row, now, this.deps.staleAfterMs);
    const state = judge(server);
    await this.#claim(server, state, { state, stateOf: judge }, state, now);
    // The peak counts only updates saying online: a count is news only from a server up to report it.
    if (server.playersPeak !== null) {
      await this.#claim(server, "players_record", { players: server.playersPeak }, state, now, server.playersPeak);
    }
    return state;
  }

  #claim(server: WatchedServer, event: WebhookEvent, change: Transition["change"], state: ServerState, now: number, players = server.playersOnline): Promise<number | null> {
    const body = eventBody(event, server, state, now, players);
    return this.deps.store.webhooks.claim({ serverUuid: server.uuid, change, event, now, body: (hook) => formatBody(hook.format, body), maxQueued: MAX_QUEUED });
  }
}
