// Starting the HTTP server with the transport settings every instance shares
// (`serve` and the tests), and start-up failures as one clear line.

import type { App } from "./app.ts";

/**
 * Bun's own body cap, far above any real request: over it Bun answers an empty
 * 413 before Pennant sees the request. body-limit.ts answers oversize bodies
 * with the JSON 413 instead.
 */
export const TRANSPORT_BODY_CAP_BYTES = Number.MAX_SAFE_INTEGER;

/**
 * Seconds of silence after which Bun closes a connection: idle keep-alive
 * sockets, and a request whose answer takes this long. Any byte resets it, so
 * it does not stop a client that trickles: a body has its own deadline
 * (body-deadline.ts); a head not complete is closed by Bun 12 s after its
 * connection opened, and never reaches Pennant, so connections per address are
 * capped by the reverse proxy (docs/deploy.md).
 * Above the slowest answer (a lookup's 5 s deadline), below a minute.
 */
export const IDLE_TIMEOUT_SECONDS = 30;

/** The server could not start listening; the message names the host or port. */
export class ListenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ListenError";
  }
}

function reason(error: unknown, host: string, port: number): string {
  const { code, message } = error as { code?: string; message?: string };
  switch (code) {
    case "EADDRINUSE":
      return `port ${port} on ${host} is already in use (is pennant already running? choose another with PORT or --port)`;
    case "EADDRNOTAVAIL":
      return `cannot listen on ${host}: not an address of this machine (HOST or --host: one of its addresses, 0.0.0.0 or ::)`;
    case "EACCES":
      return `cannot listen on port ${port}: permission denied (ports below 1024 need privileges)`;
    default:
      return `cannot listen on ${host} port ${port}: ${message ?? String(error)}`;
  }
}

/** Listens on host:port and returns the port (the chosen one when port is 0). */
export function listen(app: App, host: string, port: number): number {
  try {
    // reusePort would let a second instance share the port, each with its own database.
    app.listen({ hostname: host, port, reusePort: false, maxRequestBodySize: TRANSPORT_BODY_CAP_BYTES, idleTimeout: IDLE_TIMEOUT_SECONDS });
  } catch (error) {
    throw new ListenError(reason(error, host, port));
  }
  return app.server!.port!;
}
