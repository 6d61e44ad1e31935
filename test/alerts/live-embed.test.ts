// The live message's embed at the bounds of what a server may push: within
// Discord's documented limits (the stand-in's check, test/support/discord-peer.ts),
// and shown as pushed once Discord's markdown drops the escapes.

import { expect, test } from "bun:test";
import { liveLinks, liveMessage, type LiveView } from "../../src/alerts/live-embed.ts";
import { SERVER_TEXT_LIMITS } from "../../src/http/payloads/server.ts";
import { invalidBody } from "../support/discord-peer.ts";

/** What Discord shows of escaped text: a backslash before punctuation is dropped. */
const unescaped = (text: string) => text.replace(/\\([^0-9A-Za-z\s])/g, "$1");

const view = (text: string): LiveView => ({
  name: text.repeat(SERVER_TEXT_LIMITS.address).slice(0, SERVER_TEXT_LIMITS.address),
  status: "online",
  since: 0,
  players: { online: 1_000_000_000, max: 1_000_000_000 },
  motd: [text.repeat(SERVER_TEXT_LIMITS.motd).slice(0, SERVER_TEXT_LIMITS.motd), ""],
  version: text.repeat(SERVER_TEXT_LIMITS.version).slice(0, SERVER_TEXT_LIMITS.version),
  address: text.repeat(SERVER_TEXT_LIMITS.address).slice(0, SERVER_TEXT_LIMITS.address),
  lastPush: 0,
  uptime: 1,
});

test("the longest texts a server may push, every one escaped, stay within Discord's limits", () => {
  for (const text of ["*", "a", "\\", "😀", "<@"]) {
    const links = liveLinks("https://banners.example.com", "00000000-0000-4000-8000-000000000001", true, "0123456789abcdef");
    const body = liveMessage(view(text), links, 0) as { embeds: Array<{ title: string; description: string }> };
    expect(`${text}: ${invalidBody(body)}`).toBe(`${text}: null`);
    const [embed] = body.embeds;
    // What was kept reads as pushed, cut with an ellipsis.
    expect(unescaped(embed!.title)).toBe(`${[...view(text).name].slice(0, 127).join("")}…`);
    expect(unescaped(embed!.description).startsWith(text.repeat(100))).toBe(true);
  }
});
