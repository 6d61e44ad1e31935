// Stopping `serve` on SIGTERM or SIGINT: stop accepting connections (new
// ones are refused, idle keep-alive ones closed), let the requests in flight
// finish for at most PENNANT_SHUTDOWN_TIMEOUT, then cut off what is left and
// close the database (which checkpoints the WAL into the file and removes it).
// A push that was answered is on disk; one cut off was never answered 2xx.

import { nextTurn } from "../next-turn.ts";
import type { Logger } from "../log.ts";
import type { Store } from "../store/store.ts";
import type { App } from "./app.ts";

export interface StopOptions {
  timeoutMs: number;
  log: Logger;
  /** Aborted by a second signal: stop waiting and cut off what is in flight now. */
  hurry: AbortSignal;
}

function elapsed(timeoutMs: number, hurry: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (hurry.aborted) return resolve();
    const timer = setTimeout(resolve, timeoutMs);
    hurry.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

export async function stopGracefully(app: App, store: Store, { timeoutMs, log, hurry }: StopOptions): Promise<void> {
  const server = app.server;
  if (server) {
    const inFlight = server.pendingRequests;
    // Stop listening first: once the line below is out, new connections are refused.
    const drained = app.stop(false).then(() => true);
    log.info("shutting down: refusing new connections, finishing requests in flight", {
      in_flight: inFlight,
      timeout_s: timeoutMs / 1000,
    });
    const finished = await Promise.race([drained, elapsed(timeoutMs, hurry).then(() => false)]);
    if (!finished) {
      log.warn("requests still in flight were cut off", { cut_off: server.pendingRequests });
      await server.stop(true);
    }
    // Elysia writes a request's log line and metrics just after its answer,
    // on the next turn of the event loop: let those of the last answers run.
    await nextTurn();
  }
  await store.close();
  log.info("stopped: database closed");
}

/**
 * SIGTERM and SIGINT run `stop`, then the process exits 0 (1 if stopping
 * failed). A second signal aborts `hurry`: stop waiting for requests in flight.
 */
export function exitOnSignals(log: Logger, stop: (hurry: AbortSignal) => Promise<void>): void {
  const hurry = new AbortController();
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return hurry.abort();
    stopping = true;
    log.info(`received ${signal}`);
    stop(hurry.signal).then(
      () => process.exit(0),
      (error: unknown) => {
        log.error("shutdown failed", { error });
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
}
