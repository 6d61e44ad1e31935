// Request bodies must arrive in time. Bun closes a connection only after
// idleTimeout (listen.ts) of silence, so a client that trickles its body, a
// byte a second, would hold its request and the handler awaiting the body for
// as long as it liked. A body read here has one deadline from its first read;
// past it the answer is a 408 and the connection is closed.

import { HttpError } from "./errors.ts";

/**
 * How long a whole body may take: the largest one taken (an update's 256 KiB)
 * needs 26 KB/s to make it, far below any link a game server runs on.
 */
export const BODY_DEADLINE_MS = 10_000;

export class BodyDeadline {
  private readonly at: number;

  constructor(private readonly ms: number) {
    this.at = performance.now() + ms;
  }

  /** The reader's next chunk; past the deadline the reader is cancelled and a 408 is thrown. */
  async read<T>(reader: { read(): Promise<T>; cancel(): Promise<unknown> }): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), Math.max(0, this.at - performance.now()));
    });
    const result = await Promise.race([reader.read(), expired]).finally(() => clearTimeout(timer));
    if (result !== null) return result;
    reader.cancel().catch(() => {});
    throw new HttpError(408, "request_timeout", `the body must arrive within ${this.ms / 1000} s; nothing was stored`, { Connection: "close" });
  }
}
