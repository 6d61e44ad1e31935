// One short UDP exchange with a deadline, the datagram sibling of
// tcp-conversation.ts: only the address asked may answer, the socket is always
// closed, and the promise never rejects.

import { createSocket } from "node:dgram";
import { isIPv6 } from "node:net";
import { sameIp } from "./address-policy.ts";
import { settleOnce, type Failure } from "./tcp-conversation.ts";

export interface UdpConversation<T> {
  ip: string;
  port: number;
  timeoutMs: number;
  /** Said on timeout; a hint for the user ("is enable-query=true?"). */
  timeoutMessage: string;
  /** Ends the exchange early (e.g. the grace period for Query is over). */
  signal?: AbortSignal;
  /** The first datagram, or several sent in turn (HyQuery v2 asks a challenge of both its families at once). */
  opening: Uint8Array | readonly Uint8Array[];
  /** A result to finish, or null to wait for the next datagram; may send; throwing means a bad reply. */
  receive(reply: Uint8Array, send: (bytes: Uint8Array) => void): T | null;
}

export function converseUdp<T>(conversation: UdpConversation<T>): Promise<T | Failure> {
  return new Promise((resolve) => {
    const { ip, port } = conversation;
    const socket = createSocket(isIPv6(ip) ? "udp6" : "udp4");
    const finish = settleOnce<T | Failure>(resolve, () => {
      clearTimeout(timer);
      socket.close();
    });
    const timer = setTimeout(() => finish({ ok: false, reason: "timeout", message: conversation.timeoutMessage }), conversation.timeoutMs);
    const send = (bytes: Uint8Array) => socket.send(bytes, port, ip);
    conversation.signal?.addEventListener("abort", () => finish({ ok: false, reason: "timeout", message: "cancelled" }), { once: true });
    socket.on("error", (error) => finish({ ok: false, reason: "unreachable", message: error.message }));
    socket.on("message", (message, remote) => {
      // Anyone can send us datagrams; only the server we asked is listened to
      // (compared canonically: the system reports ::1 for a typed 0:0:0:0:0:0:0:1).
      if (!sameIp(remote.address, ip) || remote.port !== port) return;
      try {
        const result = conversation.receive(new Uint8Array(message), send);
        if (result !== null) finish(result);
      } catch (error) {
        finish({ ok: false, reason: "bad_reply", message: error instanceof Error ? error.message : "unreadable reply" });
      }
    });
    for (const datagram of conversation.opening instanceof Uint8Array ? [conversation.opening] : conversation.opening) send(datagram);
  });
}
