// Bedrock peers for tests: bedrock-protocol's own server on an ephemeral port,
// and a small pong peer for any address (IPv6 too, which bedrock-protocol's
// pure-JS RakNet backend cannot bind).

import { Server } from "bedrock-protocol/src/server.js";
import { createSocket } from "node:dgram";
import { isIPv6 } from "node:net";

/** bedrock-protocol's server on 127.0.0.1 and a port the system chose. */
export async function startBedrockProtocolPeer(options: { maxPlayers: number; version: string; motd: { motd: string; levelName: string } }) {
  // Not createServer(): it turns port 0 into 19132.
  const server = new Server({ ...options, host: "127.0.0.1", port: 0, offline: true, raknetBackend: "jsp-raknet" });
  await server.listen();
  return { port: server.raknet.raknet.socket.address().port as number, close: () => server.close() };
}

export interface BedrockPeer {
  port: number;
  pings: number;
  close(): void;
}

const MAGIC = Buffer.from("00ffff00fefefefefdfdfdfd12345678", "hex");

export async function startBedrockPeer(host: string, advertisement: string): Promise<BedrockPeer> {
  const socket = createSocket(isIPv6(host) ? "udp6" : "udp4");
  const peer: BedrockPeer = { port: 0, pings: 0, close: () => socket.close() };
  socket.on("message", (ping, remote) => {
    if (ping.length < 33 || ping[0] !== 0x01) return;
    peer.pings++;
    const text = Buffer.from(advertisement, "utf8");
    const pong = Buffer.alloc(35 + text.length);
    pong[0] = 0x1c;
    ping.copy(pong, 1, 1, 9); // the ping's time, echoed
    pong.writeBigInt64BE(0x5eed5eedn, 9); // server guid
    MAGIC.copy(pong, 17);
    pong.writeUInt16BE(text.length, 33);
    text.copy(pong, 35);
    socket.send(pong, remote.port, remote.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, host, resolve));
  peer.port = socket.address().port;
  return peer;
}

/** Whether this machine can bind UDP on ::1 (tests needing IPv6 loopback skip otherwise). */
export async function hasIpv6Loopback(): Promise<boolean> {
  const socket = createSocket("udp6");
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once("error", reject);
      socket.bind(0, "::1", resolve);
    });
    return true;
  } catch {
    return false;
  } finally {
    socket.close();
  }
}
