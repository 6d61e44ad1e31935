// Small TCP peers that speak just enough of the status protocol for service
// tests, counting connections (single-flight, caching and SSRF tests need that).

import { createServer, type AddressInfo, type Server, type Socket } from "node:net";
import { encodeString, frame } from "../../src/lookup/varint.ts";

export interface CountingPeer {
  port: number;
  connections: number;
  /** Most connections open at the same time. */
  peakOpen: number;
  /** "held" only: requests waiting for release() now. */
  held: number;
  /** "held" only: answers the requests waiting now. */
  release(): void;
  close(): Promise<void>;
}

/**
 * "modern": a status JSON reply (and the pong); "legacy-only": a legacy kick,
 * hanging up on the modern ping; "silent": accepts and never answers; "held":
 * accepts and answers like "modern" once the test calls release().
 */
export type PeerBehaviour = "modern" | "legacy-only" | "silent" | "held";

const LEGACY_KICK = (() => {
  const text = "§1\u0000127\u00001.5.2\u0000Legacy peer\u00004\u00008";
  const bytes = Buffer.alloc(3 + text.length * 2);
  bytes[0] = 0xff;
  bytes.writeUInt16BE(text.length, 1);
  for (let i = 0; i < text.length; i++) bytes.writeUInt16BE(text.charCodeAt(i), 3 + 2 * i);
  return bytes;
})();

export async function startCountingPeer(behaviour: PeerBehaviour, status: object = {}, port = 0, host = "127.0.0.1"): Promise<CountingPeer> {
  let open = 0;
  const sockets = new Set<Socket>();
  const waiting: Array<() => void> = [];
  const peer: CountingPeer = {
    port: 0,
    connections: 0,
    peakOpen: 0,
    held: 0,
    release: () => {
      peer.held = 0;
      waiting.splice(0).forEach((answer) => answer());
    },
    close: async () => {},
  };
  const statusFrame = frame(0x00, encodeString(JSON.stringify({ version: { name: "Peer 1.21", protocol: 767 }, players: { online: 3, max: 10 }, description: "§aCounting peer", ...status })));
  const answer = (socket: Socket, data: Buffer) => {
    if (data[0] === 0xfe) socket.end(LEGACY_KICK);
    else if (behaviour === "legacy-only") socket.destroy();
    else if (data.length === 10 && data[0] === 0x09 && data[1] === 0x01) socket.end(data); // pong: echo the ping
    else socket.write(statusFrame);
  };
  const server: Server = createServer((socket) => {
    peer.connections++;
    open++;
    peer.peakOpen = Math.max(peer.peakOpen, open);
    sockets.add(socket);
    let released = behaviour !== "held";
    socket.on("close", () => {
      open--;
      sockets.delete(socket);
    });
    socket.on("error", () => {});
    socket.on("data", (data: Buffer) => {
      if (behaviour === "silent") return;
      if (released) return answer(socket, data);
      peer.held++;
      waiting.push(() => {
        released = true;
        answer(socket, data);
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  peer.port = (server.address() as AddressInfo).port;
  peer.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return peer;
}
