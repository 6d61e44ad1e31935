import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createServer } from "bedrock-protocol/src/createServer.js";
import { createSocket } from "node:dgram";
import { parsePong, pingBedrock, unconnectedPing } from "../../src/lookup/bedrock.ts";

const PORT = 40_000 + Math.floor(Math.random() * 20_000);
let peer: any;

beforeAll(async () => {
  peer = createServer({
    host: "127.0.0.1",
    port: PORT,
    offline: true,
    raknetBackend: "jsp-raknet",
    maxPlayers: 12,
    version: "1.21.50",
    motd: { motd: "Bedrock Peer", levelName: "Peer level" },
  } as any);
  await Bun.sleep(300);
});
afterAll(() => peer.close());

describe("Bedrock unconnected ping", () => {
  test("the ping has id 0x01, the time, RakNet's magic and a guid", () => {
    const bytes = unconnectedPing(0x0102030405060708n, 9n);
    expect(bytes.length).toBe(33);
    expect(bytes[0]).toBe(0x01);
    expect(Buffer.from(bytes.subarray(9, 25)).toString("hex")).toBe("00ffff00fefefefefdfdfdfd12345678");
    expect(new DataView(bytes.buffer).getBigInt64(25)).toBe(9n);
  });

  test("reads the status of bedrock-protocol's server", async () => {
    let result = await pingBedrock({ ip: "127.0.0.1", port: PORT, timeoutMs: 2000 });
    // The peer may still be binding on a loaded machine: one retry.
    if (!result.ok) result = await pingBedrock({ ip: "127.0.0.1", port: PORT, timeoutMs: 2000 });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.status).toMatchObject({ edition: "MCPE", motd: "Bedrock Peer", motd2: "Peer level", version: "1.21.50", online: 0, max: 12 });
    expect(result.status.protocol).toBeGreaterThan(0);
  });

  test("silence times out", async () => {
    const silent = createSocket("udp4");
    await new Promise<void>((resolve) => silent.bind(0, "127.0.0.1", resolve));
    const result = await pingBedrock({ ip: "127.0.0.1", port: silent.address().port, timeoutMs: 150 });
    silent.close();
    expect(result).toMatchObject({ ok: false, reason: "timeout" });
  });

  test("a pong without the magic or of another game is a bad reply", () => {
    const text = new TextEncoder().encode("MCPE;m;1;1.0;1;2;");
    const pong = new Uint8Array(35 + text.length);
    pong[0] = 0x1c;
    pong.set(Buffer.from("00ffff00fefefefefdfdfdfd12345678", "hex"), 17);
    new DataView(pong.buffer).setUint16(33, text.length);
    pong.set(text, 35);
    expect(parsePong(pong).max).toBe(2);
    const noMagic = pong.slice();
    noMagic[18] = 0;
    expect(() => parsePong(noMagic)).toThrow("magic");
    const other = pong.slice();
    other.set(new TextEncoder().encode("XXXX"), 35);
    expect(() => parsePong(other)).toThrow("Bedrock");
  });
});
