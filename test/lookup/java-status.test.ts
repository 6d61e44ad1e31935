// The modern ping against a real protocol peer (minecraft-protocol's server)
// and against small `net` peers that misbehave the way real servers do.

import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import mc from "minecraft-protocol";
import { createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { MAX_STATUS_CHARS, pingJavaStatus } from "../../src/lookup/java-status.ts";
import { concat, encodeString, encodeVarInt, frame } from "../../src/lookup/varint.ts";

let peer: ReturnType<typeof mc.createServer>;
let peerPort = 0;
let handshakes: Array<{ protocolVersion: number; serverHost: string }> = [];

beforeAll(async () => {
  peer = mc.createServer({
    host: "127.0.0.1",
    port: 0,
    "online-mode": false,
    motd: "§aA real peer",
    maxPlayers: 50,
    version: "1.20.4",
    beforePing: (response: any, client: any) => {
      handshakes.push({ protocolVersion: client.protocolVersion, serverHost: client.serverHost });
      response.players.online = 7;
      response.description = { text: "Peer ", color: "gold", extra: [{ text: "MOTD", bold: true }] };
      return response;
    },
  } as any);
  await new Promise<void>((resolve) => peer.on("listening", () => resolve()));
  peerPort = ((peer as any).socketServer.address() as AddressInfo).port;
});
afterAll(() => peer.close());

/** Scripted peers of the running test, closed after it whatever happened. */
const scripted: Server[] = [];
afterEach(() => {
  for (const server of scripted.splice(0)) server.close();
});

/** A tiny TCP peer whose behaviour each test scripts. */
async function scriptedPeer(onConnection: (socket: Socket) => void): Promise<{ port: number; server: Server; connections: () => number }> {
  let count = 0;
  const server = createServer((socket) => {
    count++;
    socket.on("error", () => {});
    onConnection(socket);
  });
  scripted.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as AddressInfo).port, server, connections: () => count };
}

function statusFrame(json: string): Uint8Array {
  return frame(0x00, encodeString(json));
}

function ping(port: number, timeoutMs = 2000) {
  return pingJavaStatus({ ip: "127.0.0.1", port, hostname: "play.example.com", timeoutMs });
}

describe("modern Server List Ping", () => {
  test("reads status and latency from minecraft-protocol's server, sending protocol -1 and the typed host", async () => {
    handshakes = [];
    const result = await ping(peerPort);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const status = result.status as any;
    expect(status.players.online).toBe(7);
    expect(status.players.max).toBe(50);
    expect(status.version.name).toBe("1.20.4");
    expect(status.description.extra[0].text).toBe("MOTD");
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    expect(handshakes).toEqual([{ protocolVersion: -1, serverHost: "play.example.com" }]);
  });

  test("a reply split into 1-byte pieces is reassembled", async () => {
    const json = JSON.stringify({ version: { name: "Split", protocol: 765 }, players: { online: 1, max: 2 }, description: "pieces" });
    const peer = await scriptedPeer((socket) => {
      socket.once("data", async () => {
        const bytes = statusFrame(json);
        for (const byte of bytes) {
          socket.write(Uint8Array.of(byte));
          await Bun.sleep(0);
        }
      });
    });
    const result = await ping(peer.port, 500);
    expect(result.ok).toBe(true);
    if (result.ok) expect((result.status as any).description).toBe("pieces");
    // No pong: the status still counts, without latency.
    if (result.ok) expect(result.latencyMs).toBeNull();
  });

  test("a Forge-size reply (~30 KB) in several chunks is read whole", async () => {
    const mods = Array.from({ length: 600 }, (_, i) => ({ modid: `mod${i}`, version: "1.0.0-forge-build" }));
    const json = JSON.stringify({ version: { name: "Forge", protocol: 763 }, players: { online: 0, max: 20 }, description: "modded", forgeData: { mods } });
    expect(json.length).toBeGreaterThan(20_000);
    expect(json.length).toBeLessThan(MAX_STATUS_CHARS);
    const peer = await scriptedPeer((socket) => {
      socket.once("data", () => {
        const bytes = statusFrame(json);
        for (let at = 0; at < bytes.length; at += 1000) socket.write(bytes.subarray(at, at + 1000));
      });
    });
    const result = await ping(peer.port);
    expect(result.ok && (result.status as any).forgeData.mods.length).toBe(600);
  });

  test("a reply over the 32 KiB-character cap is a bad reply", async () => {
    const json = JSON.stringify({ description: "x".repeat(MAX_STATUS_CHARS + 10) });
    const peer = await scriptedPeer((socket) => socket.once("data", () => socket.write(statusFrame(json))));
    const result = await ping(peer.port);
    expect(result).toMatchObject({ ok: false, reason: "bad_reply" });
  });

  test("a declared frame length far over the cap is refused before reading it", async () => {
    const peer = await scriptedPeer((socket) => socket.once("data", () => socket.write(concat([encodeVarInt(50_000_000), Uint8Array.of(0)]))));
    const result = await ping(peer.port);
    expect(result).toMatchObject({ ok: false, reason: "bad_reply" });
  });

  test("garbage is a bad reply", async () => {
    const peer = await scriptedPeer((socket) => socket.once("data", () => socket.write(statusFrame("{not json"))));
    const result = await ping(peer.port);
    expect(result).toMatchObject({ ok: false, reason: "bad_reply" });
  });

  test("a server that accepts and never answers times out, and the socket is closed", async () => {
    let closed = false;
    const peer = await scriptedPeer((socket) => {
      socket.resume(); // consume the handshake, so the end of the stream is seen
      socket.on("end", () => (closed = true));
      socket.on("close", () => (closed = true));
    });
    const result = await ping(peer.port, 300);
    for (let i = 0; i < 40 && !closed; i++) await Bun.sleep(25);
    expect(result).toMatchObject({ ok: false, reason: "timeout" });
    expect(closed).toBe(true);
  });

  test("a refused port is reported as refused", async () => {
    const peer = await scriptedPeer(() => {});
    const port = peer.port;
    await new Promise((resolve) => peer.server.close(resolve));
    expect(await ping(port)).toMatchObject({ ok: false, reason: "refused" });
  });

  test("a server that hangs up without a status is reported as closed", async () => {
    const peer = await scriptedPeer((socket) => socket.once("data", () => socket.end()));
    const result = await ping(peer.port);
    expect(result).toMatchObject({ ok: false, reason: "closed" });
  });
});
