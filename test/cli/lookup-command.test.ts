import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startCountingPeer, type CountingPeer } from "../support/java-peers.ts";
import { runCli } from "../support/process.ts";
import { startQueryPeer } from "../support/query-peer.ts";

let peer: CountingPeer;
beforeAll(async () => {
  peer = await startCountingPeer("modern");
});
afterAll(() => peer.close());

describe("lookup command", () => {
  test("prints the status JSON and exits 0 when the server is online", async () => {
    const result = await runCli(["lookup", `127.0.0.1:${peer.port}`], { PENNANT_LOOKUP_PRIVATE: "on" });
    expect(result.code).toBe(0);
    const body = JSON.parse(result.stdout);
    expect(body).toMatchObject({ online: true, protocol_used: "modern", players: { online: 3, max: 10 }, motd: { clean: "Counting peer" } });
  });

  test("shows Query's details when Query answers after the ping, and ends when it never answers", async () => {
    const query = await startQueryPeer({ values: { plugins: "Paper on 1.21: Vault 1.7", map: "lobby" }, players: [], held: () => Bun.sleep(200) });
    const withQuery = await startCountingPeer("modern", {}, query.port);
    try {
      const result = await runCli(["lookup", `127.0.0.1:${withQuery.port}`], { PENNANT_LOOKUP_PRIVATE: "on" });
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ online: true, software: "Paper on 1.21", map: "lobby" });
    } finally {
      query.close();
      withQuery.close();
    }
    // The peer of the test above answers no Query (its UDP port has nobody): the command still ends, with the ping's answer.
    const result = await runCli(["lookup", `127.0.0.1:${peer.port}`], { PENNANT_LOOKUP_PRIVATE: "on" });
    expect(JSON.parse(result.stdout)).toMatchObject({ online: true, software: null, map: null });
  });

  test("refuses a private address by default, saying why, with exit 1 and no connection", async () => {
    const before = peer.connections;
    const result = await runCli(["lookup", `127.0.0.1:${peer.port}`], { PENNANT_LOOKUP_PRIVATE: "" });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).error.code).toBe("blocked_address");
    expect(peer.connections).toBe(before);
  });

  test("localhost is loopback: looked up with PENNANT_LOOKUP_PRIVATE=on", async () => {
    const result = await runCli(["lookup", `localhost:${peer.port}`], { PENNANT_LOOKUP_PRIVATE: "on" });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ online: true, ip_address: "127.0.0.1" });
  });

  test("a name resolving to a private address: the JSON names no address, one stderr line tells the operator", async () => {
    const before = peer.connections;
    const result = await runCli(["lookup", `localhost:${peer.port}`], { PENNANT_LOOKUP_PRIVATE: "" });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ ip_address: null, error: { code: "no_such_host" } });
    expect(result.stdout).not.toContain("127.0.0.1");
    const lines = result.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("127.0.0.1");
    expect(lines[0]).toContain("PENNANT_LOOKUP_PRIVATE=on");
    expect(peer.connections).toBe(before);
  });

  test("an invalid address or edition is a usage error (exit 2)", async () => {
    expect((await runCli(["lookup", "http://example.com"])).code).toBe(2);
    expect((await runCli(["lookup", "example.com", "--edition", "pocket"])).code).toBe(2);
    expect((await runCli(["lookup"])).code).toBe(2);
  });
});
