// How the last write transaction ended. A full disk is only seen by a write
// that commits (a rolled-back probe writes nothing), so /healthz reports the
// outcome of the real writes: failing from the first unavailable write until
// one succeeds again.
//
// bun:sqlite is synchronous: a write that waits for a lock blocks every request
// of the process for up to busy_timeout. After a write found the database busy,
// the writes of the next BUSY_PAUSE_MS are refused at once instead of each
// waiting again, so a lock held for minutes costs one wait per pause, not one
// per push.

import { StoreUnavailableError, storeUnavailable, type StoreFailureKind } from "./unavailable.ts";

export const BUSY_PAUSE_MS = 1000;

export interface WriteFailure {
  kind: StoreFailureKind;
  /** When the current run of failures began (ms since the epoch). */
  since: number;
  /** The latest failure's description. */
  message: string;
}

export class WriteHealth {
  private failure: WriteFailure | undefined;
  private busyUntil = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** Runs one write transaction, remembering its outcome; store faults come out as StoreUnavailableError. */
  run<T>(write: () => T): T {
    if (this.now() < this.busyUntil) {
      throw new StoreUnavailableError("busy", "a write found it locked less than a second ago");
    }
    let result: T;
    try {
      result = write();
    } catch (error) {
      const unavailable = storeUnavailable(error);
      if (!unavailable) throw error; // a refusal (replay, not the owner) says nothing about the database
      this.failed(unavailable);
      throw unavailable;
    }
    this.succeeded();
    return result;
  }

  /** A write transaction committed (for a backend whose writes do not go through run()). */
  succeeded(): void {
    this.failure = undefined;
  }

  /** A write transaction ended in a store fault (for a backend whose writes do not go through run()). */
  failed(error: StoreUnavailableError): void {
    const now = this.now();
    if (error.kind === "busy") this.busyUntil = now + BUSY_PAUSE_MS;
    this.failure = { kind: error.kind, since: this.failure?.since ?? now, message: error.message };
  }

  /** What /healthz says of the writes: why they are failing and since when, or undefined when the last one succeeded. */
  problem(): string | undefined {
    const failure = this.failure;
    return failure && `writes are failing since ${new Date(failure.since).toISOString()}: ${failure.message}`;
  }

  /** The failure the last write ended with, or undefined after a successful one. */
  lastFailure(): WriteFailure | undefined {
    return this.failure;
  }
}
