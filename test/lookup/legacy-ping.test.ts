import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import mc from "minecraft-protocol";
import { createServer, type AddressInfo, type Server, type Socket } from "node:net";
import { legacyPingRequest, parseLegacyReply, pingLegacy } from "../../src/lookup/legacy-ping.ts";

let peer: ReturnType<typeof mc.createServer>;
let peerPort = 0;

beforeAll(async () => {
  peer = mc.createServer({ host: "127.0.0.1", port: 0, "online-mode": false, motd: "Legacy answers", maxPlayers: 33, version: "1.20.4" } as any);
  await new Promise<void>((resolve) => peer.on("listening", () => resolve()));
  peerPort = ((peer as any).socketServer.address() as AddressInfo).port;
});
afterAll(() => peer.close());

function utf16be(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) {
    bytes[2 * i] = text.charCodeAt(i) >> 8;
    bytes[2 * i + 1] = text.charCodeAt(i) & 0xff;
  }
  return bytes;
}

function kick(text: string): Uint8Array {
  return Uint8Array.from([0xff, text.length >> 8, text.length & 0xff, ...utf16be(text)]);
}

/** Peers of the running test, closed after it whatever happened. */
const started: Server[] = [];
afterEach(() => {
  for (const server of started.splice(0)) server.close();
});

async function legacyOnlyPeer(reply: (request: Uint8Array) => Uint8Array | null): Promise<{ port: number; server: Server; requests: Uint8Array[] }> {
  const requests: Uint8Array[] = [];
  const server = createServer((socket: Socket) => {
    socket.on("error", () => {});
    socket.once("data", (data: Buffer) => {
      requests.push(new Uint8Array(data));
      const bytes = reply(new Uint8Array(data));
      if (bytes) socket.end(bytes);
      else socket.end();
    });
  });
  started.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as AddressInfo).port, server, requests };
}

describe("legacy ping", () => {
  test("the 1.6 request is FE 01 FA + MC|PingHost with host and port", () => {
    const bytes = legacyPingRequest("ab", 25565);
    expect([...bytes.subarray(0, 3)]).toEqual([0xfe, 0x01, 0xfa]);
    expect([...bytes.subarray(3, 5)]).toEqual([0, 11]);
    expect(new TextDecoder("utf-16be").decode(bytes.subarray(5, 27))).toBe("MC|PingHost");
    expect([...bytes.subarray(27, 29)]).toEqual([0, 7 + 4]);
    expect(bytes[29]).toBe(74);
    expect([...bytes.subarray(30, 32)]).toEqual([0, 2]);
    expect(new TextDecoder("utf-16be").decode(bytes.subarray(32, 36))).toBe("ab");
    expect(new DataView(bytes.buffer).getInt32(36)).toBe(25565);
    expect(bytes.length).toBe(40);
  });

  test("reads a real server's answer (minecraft-protocol)", async () => {
    const result = await pingLegacy({ ip: "127.0.0.1", port: peerPort, hostname: "localhost", timeoutMs: 2000 });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.status.motd).toBe("Legacy answers");
    expect(result.status.max).toBe(33);
    expect(result.status.version).toBe("1.20.4");
  });

  test("reads the 1.4-1.6 layout from a legacy-only server", async () => {
    const peer = await legacyOnlyPeer((request) => (request[0] === 0xfe ? kick("§1\u000078\u00001.6.4\u0000§eOld but gold\u00003\u000040") : null));
    const result = await pingLegacy({ ip: "127.0.0.1", port: peer.port, hostname: "old.example.com", timeoutMs: 2000 });
    expect(result).toMatchObject({ ok: true, status: { protocol: 78, version: "1.6.4", motd: "§eOld but gold", online: 3, max: 40 } });
    expect(new TextDecoder("utf-16be").decode(peer.requests[0]!.subarray(32, 32 + 30))).toBe("old.example.com");
  });

  test("reads the beta layout (motd§online§max)", () => {
    expect(parseLegacyReply("A Beta Server§5§20")).toEqual({ protocol: null, version: null, motd: "A Beta Server", online: 5, max: 20 });
  });

  test("a reply split in pieces is reassembled", async () => {
    const server = createServer((socket) => {
      socket.on("error", () => {});
      socket.once("data", async () => {
        for (const byte of kick("§1\u000078\u00001.6.4\u0000Slow\u00001\u00002")) {
          socket.write(Uint8Array.of(byte));
          await Bun.sleep(0);
        }
        socket.end();
      });
    });
    started.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const result = await pingLegacy({ ip: "127.0.0.1", port: (server.address() as AddressInfo).port, hostname: "h", timeoutMs: 2000 });
    expect(result).toMatchObject({ ok: true, status: { motd: "Slow", online: 1, max: 2 } });
  });

  test("a modern-only server that hangs up is a failure, not a crash", async () => {
    const peer = await legacyOnlyPeer(() => null);
    const result = await pingLegacy({ ip: "127.0.0.1", port: peer.port, hostname: "h", timeoutMs: 2000 });
    expect(result).toMatchObject({ ok: false, reason: "closed" });
  });

  test("garbage is a bad reply", async () => {
    const peer = await legacyOnlyPeer(() => Uint8Array.from([0x00, 0x01, 0x02]));
    const result = await pingLegacy({ ip: "127.0.0.1", port: peer.port, hostname: "h", timeoutMs: 2000 });
    expect(result).toMatchObject({ ok: false, reason: "bad_reply" });
  });
});
