import { afterEach, describe, expect, test } from "bun:test";
import { fullStatRequest, handshakeRequest, parsePlugins, queryFullStat, querySession } from "../../src/lookup/query.ts";
import { hasIpv6Loopback } from "../support/bedrock-peer.ts";
import { startQueryPeer as startPeer, type QueryPeer } from "../support/query-peer.ts";

const ipv6 = await hasIpv6Loopback();
/** Peers of the running test, closed after it whatever happened. */
const peers: QueryPeer[] = [];
afterEach(() => {
  for (const peer of peers.splice(0)) peer.close();
});

async function startQueryPeer(...args: Parameters<typeof startPeer>): Promise<QueryPeer> {
  const peer = await startPeer(...args);
  peers.push(peer);
  return peer;
}

const VALUES = {
  hostname: "§bQuery §lServer",
  gametype: "SMP",
  game_id: "MINECRAFT",
  version: "1.20.4",
  plugins: "Paper on 1.20.4: WorldEdit 7.2.15; EssentialsX 2.20.1; LuckPerms 5.4",
  map: "world",
  numplayers: "2",
  maxplayers: "20",
  hostport: "25565",
  hostip: "127.0.0.1",
};

describe("UDP Query", () => {
  test("session ids only use the low four bits of each byte", () => {
    for (let i = 0; i < 100; i++) expect(querySession() & ~0x0f0f0f0f).toBe(0);
  });

  test("requests have the documented layout", () => {
    expect([...handshakeRequest(0x01020304)]).toEqual([0xfe, 0xfd, 0x09, 1, 2, 3, 4]);
    expect([...fullStatRequest(0x01020304, -2)]).toEqual([0xfe, 0xfd, 0x00, 1, 2, 3, 4, 0xff, 0xff, 0xff, 0xfe, 0, 0, 0, 0]);
  });

  test("handshake + full stat returns software, plugins, map and players", async () => {
    const peer = await startQueryPeer({ values: VALUES, players: ["Notch", "jeb_"] });
    const result = await queryFullStat({ ip: "127.0.0.1", port: peer.port, timeoutMs: 2000 });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.status.software).toBe("Paper on 1.20.4");
    expect(result.status.plugins).toEqual([
      { name: "WorldEdit", version: "7.2.15" },
      { name: "EssentialsX", version: "2.20.1" },
      { name: "LuckPerms", version: "5.4" },
    ]);
    expect(result.status.map).toBe("world");
    expect(result.status.players).toEqual(["Notch", "jeb_"]);
    expect(result.status.values.hostname).toBe("§bQuery §lServer");
    expect(peer.requests).toBe(2);
  });

  test.skipIf(!ipv6)("replies from ::1 answer a query sent to 0:0:0:0:0:0:0:1 (the same address spelled out)", async () => {
    const peer = await startQueryPeer({ values: VALUES, players: ["Notch"] }, 0, "::1");
    const result = await queryFullStat({ ip: "0:0:0:0:0:0:0:1", port: peer.port, timeoutMs: 2000 });
    expect(result).toMatchObject({ ok: true, status: { map: "world", players: ["Notch"] } });
    expect(peer.requests).toBe(2);
  });

  test("a server without enable-query times out with a hint", async () => {
    const peer = await startQueryPeer({ values: VALUES, players: [], silent: true });
    const result = await queryFullStat({ ip: "127.0.0.1", port: peer.port, timeoutMs: 200 });
    expect(result).toMatchObject({ ok: false, reason: "timeout" });
    if (!result.ok) expect(result.message).toContain("enable-query");
  });

  test("plugin lists: vanilla has none, software without plugins, names with spaces", () => {
    expect(parsePlugins("")).toEqual({ software: null, plugins: [] });
    expect(parsePlugins("CraftBukkit on Bukkit 1.20")).toEqual({ software: "CraftBukkit on Bukkit 1.20", plugins: [] });
    expect(parsePlugins("Paper: My Plugin 1.0")).toEqual({ software: "Paper", plugins: [{ name: "My Plugin", version: "1.0" }] });
  });
});
