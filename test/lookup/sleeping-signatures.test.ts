// Hosts' placeholders for stopped servers (issue 44): each signature of
// src/lookup/sleeping-signatures.ts against the answer built from its source
// (test/support/sleeping-answers.ts) reads offline, sleeping, naming the host,
// nothing of the placeholder kept; answers that only look like one (someone
// online, the words within more) stay online. Over HTTP and in banners:
// test/http/sleeping-servers.test.ts.

import { describe, expect, test } from "bun:test";
import { fromLegacy, fromModern, type Target } from "../../src/lookup/result.ts";
import { placeholderHost, SLEEPING_SIGNATURES } from "../../src/lookup/sleeping-signatures.ts";
import { lookupJson } from "../../src/lookup/view.ts";
import { SLEEPING_ANSWERS } from "../support/sleeping-answers.ts";

const TARGET: Target = { edition: "java", host: "play.example.com", port: 25565, ipAddress: "203.0.113.5", srvRecord: null };

test("every signature has its fixture, and only those", () => {
  expect(SLEEPING_ANSWERS.map((answer) => answer.host)).toEqual(SLEEPING_SIGNATURES.map((signature) => signature.host));
});

describe.each(SLEEPING_ANSWERS.map((answer) => [answer.host, answer] as const))("%s", (host, answer) => {
  test("its placeholder reads offline and sleeping, naming it; nothing of the placeholder kept", () => {
    const result = fromModern(TARGET, answer.placeholder, 12);
    expect(result).toMatchObject({
      online: false, sleepingHost: host, error: { code: "sleeping" },
      version: null, players: null, motd: null, favicon: null, latencyMs: null, protocolUsed: null,
    });
    expect(lookupJson(result)).toMatchObject({ online: false, sleeping: true, sleeping_host: host, motd: null, players: null });
  });

  test("what only looks like it stays online", () => {
    for (const lookalike of answer.lookalikes) {
      const result = fromModern(TARGET, lookalike, 12);
      expect(result).toMatchObject({ online: true, sleepingHost: null, error: null });
      expect(lookupJson(result)).toMatchObject({ online: true, sleeping: false, sleeping_host: null });
    }
  });
});

describe("the shape, not words in it", () => {
  test("a server's own answer, online or at zero players, is no placeholder", () => {
    const own = { version: { name: "Paper 1.21.4", protocol: 769 }, players: { online: 0, max: 20 }, description: "§aSkyblock §7- the server is sleeping, join to wake it" };
    expect(fromModern(TARGET, own, 5)).toMatchObject({ online: true, sleepingHost: null });
  });

  test("the legacy ping's answer is read the same way", () => {
    const legacy = { protocol: 127, version: "1.21.4", motd: "Server is offline. Start via the lobby with /join skyforge", online: 0, max: 20 };
    expect(fromLegacy(TARGET, legacy, 5)).toMatchObject({ online: false, sleepingHost: "Minehut", error: { code: "sleeping" } });
    expect(fromLegacy(TARGET, { ...legacy, online: 1 }, 5)).toMatchObject({ online: true, sleepingHost: null });
  });

  test("MOTDs longer than any placeholder's are not parsed to be compared", () => {
    const padded = `server status:${" ".repeat(2_100)}HIBERNATING`;
    expect(placeholderHost({ versionName: "1.19.2", motdRaw: "server status: HIBERNATING", playersOnline: 0 })).toBe("minecraft-server-hibernation");
    expect(placeholderHost({ versionName: "1.19.2", motdRaw: padded, playersOnline: 0 })).toBeNull();
  });

  test("an answer without a players count (null) is no placeholder", () => {
    expect(placeholderHost({ versionName: "§4● Offline", motdRaw: "", playersOnline: null })).toBeNull();
    expect(placeholderHost({ versionName: "§4● Offline", motdRaw: "", playersOnline: 0 })).toBe("Aternos");
  });
});
