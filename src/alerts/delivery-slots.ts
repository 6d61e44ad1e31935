// The attempts one instance has under way, bounded. A sweep starts its
// attempts here and does not wait for them: a receiver that takes its whole
// timeout holds its own slot, never the sweep, so the next sweep leases (and
// sends) other tokens' deliveries meanwhile. Each token's share of the
// deliveries leased at once is the store's to keep (it sees every instance's).

export class DeliverySlots {
  readonly #running = new Set<Promise<void>>();

  /** At most `capacity` attempts run at once: the sockets and memory deliveries may hold. */
  constructor(readonly capacity: number) {}

  /** How many more attempts may start now. */
  get free(): number {
    return this.capacity - this.#running.size;
  }

  /** Runs `attempt` in a free slot without waiting for it: it must report its own failures, not reject. */
  start(attempt: () => Promise<void>): void {
    if (this.free <= 0) throw new Error("no free delivery slot: lease at most `free` deliveries");
    const running: Promise<void> = attempt().finally(() => this.#running.delete(running));
    this.#running.add(running);
  }

  /** Resolves once every attempt under way, and any started meanwhile, has ended. */
  async idle(): Promise<void> {
    while (this.#running.size > 0) await Promise.allSettled(this.#running);
  }
}
