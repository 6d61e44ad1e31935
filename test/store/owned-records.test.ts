// What a token owns, as its console reads it (src/store/owned-records.ts), and
// the admin's signed token requests (createOnce, revokeOnce), on every
// backend: a token lists only its own servers, plugins and networks; a token
// created or revoked by a signed request is so once, an exact resend changes
// nothing, and a refused one is not remembered.

import { expect, test } from "bun:test";
import type { ReplayRecord } from "../../src/auth/replay.ts";
import type { Store } from "../../src/store/store.ts";
import { forEachBackend } from "../support/backends.ts";

const uuidOf = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
const BOUNDS = { registrationMax: 10, maxBytesPerToken: 4096 };
let requests = 0;

function replay(fingerprint = `print-${++requests}`): ReplayRecord {
  return { key: `owned-${++requests}-`.padEnd(64, "0"), fingerprint, timestampMs: 0, expiresAt: Number.MAX_SAFE_INTEGER };
}

async function tokenId(store: Store, name: string): Promise<number> {
  return (await store.tokens.create({ hash: `${name}.`.padEnd(64, "0"), scope: "all", label: name, now: 0 })).id;
}

function pushServer(store: Store, token: number, uuid: string, now: number) {
  return store.push({
    credentials: { tokenId: token, tokenHash: "" }, replay: replay(), now, bounds: BOUNDS,
    record: { kind: "server", uuid, serverPush: "update", fields: { name: `S${uuid.at(-1)}`, status: "online", playersOnline: 2, playersMax: 9 }, maxPerToken: 10 },
  });
}

function pushPlugin(store: Store, token: number, uuid: string, now: number) {
  return store.push({
    credentials: { tokenId: token, tokenHash: "" }, replay: replay(), now, bounds: BOUNDS,
    record: { kind: "plugin", uuid, fields: { name: `P${uuid.at(-1)}`, version: "1.0", stats: { downloads: 5 } }, maxPerToken: 10 },
  });
}

forEachBackend("what a token owns", (open) => {
  test("servers, plugins and networks of one token only, the most recently seen first, networks by slug with their members in order", async () => {
    const store = await open();
    const [a, b] = [await tokenId(store, "a"), await tokenId(store, "b")];
    await pushServer(store, a, uuidOf(1), 10);
    await pushServer(store, b, uuidOf(2), 20);
    await pushServer(store, a, uuidOf(3), 30);
    await pushPlugin(store, a, uuidOf(4), 40);
    await pushPlugin(store, b, uuidOf(5), 50);
    expect((await store.servers.ownedBy(a)).map((row) => [row.uuid, row.tokenId])).toEqual([[uuidOf(3), a], [uuidOf(1), a]]);
    expect((await store.servers.ownedBy(b)).map((row) => row.uuid)).toEqual([uuidOf(2)]);
    expect((await store.plugins.ownedBy(a)).map((row) => [row.uuid, row.stats])).toEqual([[uuidOf(4), { downloads: 5 }]]);
    expect(await store.servers.ownedBy(999)).toEqual([]);

    await store.networks.put({ slug: "zeta", tokenId: a, name: "Zeta", servers: [uuidOf(3), uuidOf(1)], replay: replay(), now: 60 });
    await store.networks.put({ slug: "alpha", tokenId: a, name: "Alpha", servers: [uuidOf(1)], replay: replay(), now: 61 });
    await store.networks.put({ slug: "beta", tokenId: b, name: "Beta", servers: [uuidOf(2)], replay: replay(), now: 62 });
    const networks = await store.networks.ownedBy(a);
    expect(networks.map((network) => [network.slug, network.name, network.servers.map((row) => row.uuid)])).toEqual([
      ["alpha", "Alpha", [uuidOf(1)]],
      ["zeta", "Zeta", [uuidOf(3), uuidOf(1)]],
    ]);
    expect(networks[1]!.servers[0]).toMatchObject({ name: "S3", playersOnline: 2 });
    expect(await store.networks.ownedBy(999)).toEqual([]);
  });

  test("a token created and revoked by signed requests: once each; an exact resend writes nothing; a refused revocation is not remembered", async () => {
    const store = await open();
    const asked = replay();
    const created = await store.tokens.createOnce({ hash: "n".padEnd(64, "0"), scope: "server", label: "new", now: 5 }, asked);
    expect(created).toMatchObject({ scope: "server", label: "new", origin: "cli", revokedAt: null });
    expect(await store.tokens.createOnce({ hash: "m".padEnd(64, "0"), scope: "server", label: "new", now: 5 }, asked)).toBe("duplicate");
    expect((await store.tokens.list()).map((row) => row.label)).toEqual(["new"]);
    await expect(store.tokens.createOnce({ hash: "m".padEnd(64, "0"), scope: "all", label: "x", now: 5 }, { ...asked, fingerprint: "other" })).rejects.toMatchObject({ name: "ReplayError" });
    expect(await store.tokens.list()).toHaveLength(1);

    const id = (created as { id: number }).id;
    const unknown = replay();
    await expect(store.tokens.revokeOnce(id + 100, 6, unknown)).rejects.toMatchObject({ name: "UnknownTokenError" });
    const revocation = replay();
    expect(await store.tokens.revokeOnce(id, 7, revocation)).toBe("new");
    expect(await store.tokens.revokeOnce(id, 8, revocation)).toBe("duplicate");
    expect((await store.tokens.findByHash("n".padEnd(64, "0")))?.revokedAt).toBe(7);
    await expect(store.tokens.revokeOnce(id, 9, replay())).rejects.toMatchObject({ name: "UnknownTokenError" });
    // The refused request was not remembered: the same key is taken for another request.
    const again = await store.tokens.createOnce({ hash: "o".padEnd(64, "0"), scope: "all", label: "later", now: 10 }, unknown);
    expect(again).toMatchObject({ label: "later" });
  });
});
