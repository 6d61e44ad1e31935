// networkTotals: only servers that read online are summed; slots as one
// server's banner shows them; the busiest is the first named of equals.

import { expect, test } from "bun:test";
import { networkTotals, onlineShare, type MemberServer } from "../../src/minecraft/network-totals.ts";

const NOW = 1_800_000_000_000;
const STALE_MS = 900_000;

function server(uuid: string, status: string | null, playersOnline: number | null, playersMax: number | null, lastSeen = NOW - 1000): MemberServer {
  return { uuid, name: uuid, status, lastSeen, playersOnline, playersMax };
}

test("sums players and slots over the online servers only: a stale one and an offline one add nothing", () => {
  const totals = networkTotals([
    server("a", "online", 10, 20),
    server("b", "online", 500, 500, NOW - STALE_MS - 1),
    server("c", "offline", 7, 20),
    server("d", "online", 3, 40),
  ], NOW, STALE_MS);
  expect(totals.players).toEqual({ online: 13, max: 60 });
  expect([totals.online, totals.servers, onlineShare(totals)]).toEqual([2, 4, "2/4 online"]);
  expect(totals.busiest).toMatchObject({ server: { uuid: "a" }, players: 10 });
});

test("slots as banners read one server's (none or 0: 20, or the count if higher); no count reads 0; equals: the first named is busiest", () => {
  const totals = networkTotals([server("a", "online", null, null), server("b", "online", 30, 0), server("c", "online", 30, 50)], NOW, STALE_MS);
  expect(totals.players).toEqual({ online: 60, max: 20 + 30 + 50 });
  expect(totals.busiest).toMatchObject({ server: { uuid: "b" }, players: 30 });
});

test("none online: no players, no busiest, 0 of all", () => {
  const totals = networkTotals([server("a", "offline", 5, 20), server("b", "online", 5, 20, NOW - STALE_MS - 1)], NOW, STALE_MS);
  expect(totals).toEqual({ servers: 2, online: 0, players: null, busiest: null });
  expect(onlineShare(totals)).toBe("0/2 online");
});
