// A UDP Query (GameSpy 4) server written from the protocol's description, as
// the test peer for src/lookup/query.ts: no npm package serves Query.

import { createSocket, type Socket } from "node:dgram";
import { isIPv6 } from "node:net";

export interface QueryPeerOptions {
  values: Record<string, string>;
  players: string[];
  /** Answer nothing (a server without enable-query). */
  silent?: boolean;
  /** Answer the full stat only once this resolves (a slow Query); a function is asked anew at each full stat request. */
  held?: Promise<void> | (() => Promise<void>);
}

export interface QueryPeer {
  port: number;
  requests: number;
  close(): void;
}

function cString(text: string): Uint8Array {
  return new TextEncoder().encode(`${text}\0`);
}

export async function startQueryPeer(options: QueryPeerOptions, port = 0, host = "127.0.0.1"): Promise<QueryPeer> {
  const socket: Socket = createSocket(isIPv6(host) ? "udp6" : "udp4");
  const tokens = new Map<number, number>(); // session -> challenge
  const peer: QueryPeer = { port: 0, requests: 0, close: () => socket.close() };

  socket.on("message", (message, remote) => {
    peer.requests++;
    if (options.silent || message.length < 7 || message[0] !== 0xfe || message[1] !== 0xfd) return;
    const type = message[2];
    const session = message.readInt32BE(3);
    const header = Buffer.alloc(5);
    header[0] = type!;
    header.writeInt32BE(session, 1);
    if (type === 0x09) {
      const token = -123456 - tokens.size; // negative tokens happen: the text form has a sign
      tokens.set(session, token);
      socket.send(Buffer.concat([header, cString(String(token))]), remote.port, remote.address);
    } else if (type === 0x00 && message.length === 15 && message.readInt32BE(7) === tokens.get(session)) {
      const parts: Uint8Array[] = [header, Buffer.from("splitnum\0\x80\0", "latin1")];
      for (const [key, value] of Object.entries(options.values)) parts.push(cString(key), cString(value));
      parts.push(Uint8Array.of(0), Buffer.from("\x01player_\0\0", "latin1"));
      for (const name of options.players) parts.push(cString(name));
      parts.push(Uint8Array.of(0));
      const held = typeof options.held === "function" ? options.held() : options.held;
      void (held ?? Promise.resolve()).then(() => socket.send(Buffer.concat(parts), remote.port, remote.address));
    }
  });
  await new Promise<void>((resolve) => socket.bind(port, host, resolve));
  peer.port = socket.address().port;
  return peer;
}
