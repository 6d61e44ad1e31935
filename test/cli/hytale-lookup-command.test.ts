// `pennant lookup --edition hytale`, black-box: the CLI as a user runs it,
// against the Hytale stand-ins of test/support/hytale-peers.ts.

import { expect, test } from "bun:test";
import { startHytalePeer } from "../support/hytale-peers.ts";
import { runCli } from "../support/process.ts";

test("prints the Hytale JSON (edition, source) and exits 0 when the server answers", async () => {
  const peer = await startHytalePeer({ hyquery1: { variant: "hyvote" }, quic: true });
  const result = await runCli(["lookup", `127.0.0.1:${peer.port}`, "--edition", "hytale"], { PENNANT_LOOKUP_PRIVATE: "on" });
  expect(result.code).toBe(0);
  expect(JSON.parse(result.stdout)).toMatchObject({ online: true, edition: "hytale", source: "hyquery1", players: { online: 7, max: 50 }, version: { protocol: null } });
});

test("refuses a private address by default (exit 1, nothing sent); --edition names hytale among the three", async () => {
  const peer = await startHytalePeer({ quic: true });
  const blocked = await runCli(["lookup", `127.0.0.1:${peer.port}`, "--edition", "hytale"], { PENNANT_LOOKUP_PRIVATE: "" });
  expect(blocked.code).toBe(1);
  expect(JSON.parse(blocked.stdout)).toMatchObject({ edition: "hytale", error: { code: "blocked_address" } });
  expect(peer.seen.quic).toBe(0);
  const wrong = await runCli(["lookup", "example.com", "--edition", "minecraft"]);
  expect(wrong.code).toBe(2);
  expect(wrong.stderr).toContain("java, bedrock or hytale");
});
