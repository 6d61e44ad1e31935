// A server's page switched off and on (Store.servers.switchPage), on every
// backend: remembered with the write, only on the owner's row, and never
// undone by a push that races it (a push sets only the columns it was sent).

import { expect, test } from "bun:test";
import { UnknownServerError } from "../../src/store/server-pages.ts";
import type { Push, Store } from "../../src/store/store.ts";
import { ReplayError } from "../../src/store/write-refusals.ts";
import { forEachBackend } from "../support/backends.ts";

const SERVER = "00000000-0000-4000-8000-000000000042";
const BOUNDS = { registrationMax: 10, maxBytesPerToken: 1 << 20 };

const replay = (key: string, fingerprint = key) => ({ key: key.padEnd(64, "0"), fingerprint, timestampMs: 0, expiresAt: Number.MAX_SAFE_INTEGER });

function update(tokenId: number, n: number): Push {
  return {
    credentials: { tokenId, tokenHash: "t".repeat(64) },
    replay: replay(`push-${n}-`),
    now: n,
    bounds: BOUNDS,
    record: { kind: "server", uuid: SERVER, serverPush: "update", fields: { name: "Lobby", playersOnline: n }, maxPerToken: 10 },
  };
}

async function owned(store: Store): Promise<number> {
  const token = await store.tokens.create({ hash: "t".repeat(64), scope: "all", label: "owner", now: 1 });
  await store.push(update(token.id, 1));
  return token.id;
}

forEachBackend("server pages", (open, openTwo) => {
  test("on from the first push; switched off and on by its owner, each request once", async () => {
    const store = await open();
    const tokenId = await owned(store);
    expect((await store.servers.get(SERVER))!.pageEnabled).toBe(true);
    expect(await store.servers.switchPage({ uuid: SERVER, tokenId, shown: false, replay: replay("off"), now: 2 })).toBe("new");
    expect((await store.servers.get(SERVER))!.pageEnabled).toBe(false);
    expect(await store.servers.switchPage({ uuid: SERVER, tokenId, shown: false, replay: replay("off"), now: 3 })).toBe("duplicate");
    await expect(store.servers.switchPage({ uuid: SERVER, tokenId, shown: true, replay: replay("off", "other"), now: 3 })).rejects.toBeInstanceOf(ReplayError);
    expect((await store.servers.get(SERVER))!.pageEnabled).toBe(false);
    expect(await store.servers.switchPage({ uuid: SERVER, tokenId, shown: true, replay: replay("on"), now: 4 })).toBe("new");
    expect((await store.servers.get(SERVER))!.pageEnabled).toBe(true);
  });

  test("another token's server, or none: refused with nothing written, the request not remembered", async () => {
    const store = await open();
    await owned(store);
    const other = await store.tokens.create({ hash: "o".repeat(64), scope: "all", label: "other", now: 1 });
    await expect(store.servers.switchPage({ uuid: SERVER, tokenId: other.id, shown: false, replay: replay("theirs"), now: 2 })).rejects.toBeInstanceOf(UnknownServerError);
    await expect(store.servers.switchPage({ uuid: "00000000-0000-4000-8000-000000000099", tokenId: other.id, shown: false, replay: replay("none"), now: 2 })).rejects.toBeInstanceOf(UnknownServerError);
    expect((await store.servers.get(SERVER))!.pageEnabled).toBe(true);
    expect(await store.replay.rememberedFingerprint(replay("theirs").key, 2)).toBeUndefined();
  });

  test("race: switched off on one instance while the other takes pushes, the page stays off", async () => {
    const [first, second] = await openTwo();
    const tokenId = await owned(first);
    const pushes = Array.from({ length: 20 }, (_, i) => second.push(update(tokenId, 10 + i)));
    const switched = first.servers.switchPage({ uuid: SERVER, tokenId, shown: false, replay: replay("race"), now: 15 });
    await Promise.all([...pushes, switched]);
    const row = (await first.servers.get(SERVER))!;
    expect([row.pageEnabled, row.playersOnline]).toEqual([false, expect.any(Number)]);
  });
});
