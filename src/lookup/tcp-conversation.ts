// One short TCP conversation with a deadline: connect to an already-checked IP,
// write, read until the protocol says it is done. The socket is always
// destroyed, on success, error, timeout or hang-up, and the promise never rejects.

import { Socket } from "node:net";

export type FailureReason = "timeout" | "refused" | "unreachable" | "bad_reply" | "closed";
// "closed": the peer hung up before answering (or we cancelled).

export interface Failure {
  ok: false;
  reason: FailureReason;
  message: string;
}

export interface Conversation<T> {
  ip: string;
  port: number;
  timeoutMs: number;
  /** Ends the conversation early (e.g. the race was won by another protocol). */
  signal?: AbortSignal;
  /** Called once connected; returns the first bytes to send. */
  opening(): Uint8Array;
  /**
   * Called with every chunk. Returns a result to finish, or null to keep
   * reading; may call `write` to answer. Throwing means a bad reply.
   */
  receive(chunk: Uint8Array, write: (bytes: Uint8Array) => void): T | null;
  /** What to answer when the conversation ends early (lets a partial result count). */
  early(failure: Failure): T | Failure;
}

/**
 * A promise's resolve that takes effect once: the first call cleans up (the
 * deadline cleared, the socket closed) and resolves; the calls that follow, from
 * the events of a socket being torn down, do nothing.
 */
export function settleOnce<T>(resolve: (value: T) => void, cleanUp: () => void): (value: T) => void {
  let settled = false;
  return (value) => {
    if (settled) return;
    settled = true;
    cleanUp();
    resolve(value);
  };
}

export function converse<T>(conversation: Conversation<T>): Promise<T | Failure> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const finish = settleOnce<T | Failure>(resolve, () => {
      clearTimeout(timer);
      socket.destroy();
    });
    const fail = (reason: FailureReason, message: string) => finish(conversation.early({ ok: false, reason, message }));
    const timer = setTimeout(() => fail("timeout", `no answer within ${conversation.timeoutMs} ms`), conversation.timeoutMs);

    conversation.signal?.addEventListener("abort", () => finish({ ok: false, reason: "closed", message: "cancelled" }), { once: true });
    socket.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ECONNREFUSED") fail("refused", "connection refused");
      else fail("unreachable", error.message);
    });
    socket.on("close", () => fail("closed", "the server closed the connection without an answer"));
    socket.on("data", (chunk: Buffer) => {
      try {
        const result = conversation.receive(chunk, (bytes) => socket.write(bytes));
        if (result !== null) finish(result);
      } catch (error) {
        fail("bad_reply", error instanceof Error ? error.message : "unreadable reply");
      }
    });
    socket.connect({ host: conversation.ip, port: conversation.port }, () => socket.write(conversation.opening()));
  });
}
