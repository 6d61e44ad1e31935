import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createSocket } from "node:dgram";
import { parsePong, pingBedrock, unconnectedPing } from "../../src/lookup/bedrock.ts";
import { hasIpv6Loopback, startBedrockPeer, startBedrockProtocolPeer } from "../support/bedrock-peer.ts";

let peer: Awaited<ReturnType<typeof startBedrockProtocolPeer>>;
const ipv6 = await hasIpv6Loopback();

beforeAll(async () => {
  peer = await startBedrockProtocolPeer({ maxPlayers: 12, version: "1.21.50", motd: { motd: "Bedrock Peer", levelName: "Peer level" } });
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
    const result = await pingBedrock({ ip: "127.0.0.1", port: peer.port, timeoutMs: 2000 });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.status).toMatchObject({ edition: "MCPE", motd: "Bedrock Peer", motd2: "Peer level", version: "1.21.50", online: 0, max: 12 });
    expect(result.status.protocol).toBeGreaterThan(0);
  });

  test("silence times out", async () => {
    const silent = createSocket("udp4");
    try {
      await new Promise<void>((resolve) => silent.bind(0, "127.0.0.1", resolve));
      const result = await pingBedrock({ ip: "127.0.0.1", port: silent.address().port, timeoutMs: 150 });
      expect(result).toMatchObject({ ok: false, reason: "timeout" });
    } finally {
      silent.close();
    }
  });

  test.skipIf(!ipv6)("a pong from ::1 answers a ping sent to 0:0:0:0:0:0:0:1 (the same address spelled out)", async () => {
    const spelledOut = await startBedrockPeer("::1", "MCPE;Six;712;1.21.50;1;5;1;Level;Survival;1;0;0;");
    try {
      const result = await pingBedrock({ ip: "0:0:0:0:0:0:0:1", port: spelledOut.port, timeoutMs: 2000 });
      expect(result).toMatchObject({ ok: true, status: { motd: "Six", max: 5 } });
      expect(spelledOut.pings).toBe(1);
    } finally {
      spelledOut.close();
    }
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
