// The network operations of the store, one body for every backend: a PUT
// replaces, an exact resend changes nothing, servers and slugs of another
// token are refused with nothing stored, and two tokens racing for one slug
// leave exactly one owner.

import { expect, test } from "bun:test";
import type { ReplayRecord } from "../../src/auth/replay.ts";
import { MAX_NETWORKS_PER_TOKEN, type NetworkWrite } from "../../src/store/network-records.ts";
import type { Store } from "../../src/store/store.ts";
import { forEachBackend } from "../support/backends.ts";

const [A1, A2, A3, B1, NEVER] = [1, 2, 3, 4, 5].map((n) => `00000000-0000-4000-8000-00000000000${n}`) as [string, string, string, string, string];
let requests = 0;

function replay(fingerprint = `print-${++requests}`): ReplayRecord {
  return { key: `net-${++requests}`.padEnd(64, "0"), fingerprint, timestampMs: 0, expiresAt: Number.MAX_SAFE_INTEGER };
}

/** A store where token `a` pushed A1..A3 and token `b` pushed B1. */
async function seeded(open: () => Promise<Store>): Promise<{ store: Store; a: number; b: number }> {
  const store = await open();
  const ids: number[] = [];
  for (const [hash, uuids] of [["a", [A1, A2, A3]], ["b", [B1]]] as const) {
    const token = await store.tokens.create({ hash: hash.padEnd(64, "0"), scope: "all", label: hash, now: 0 });
    ids.push(token.id);
    for (const uuid of uuids) {
      await store.push({
        credentials: { tokenId: token.id, tokenHash: token.hash }, replay: replay(), now: 1, bounds: { registrationMax: 10, maxBytesPerToken: 4096 },
        record: { kind: "server", uuid, serverPush: "update", fields: { name: `S${uuid.at(-1)}`, status: "online", playersOnline: 3, playersMax: 20 }, maxPerToken: 10 },
      });
    }
  }
  return { store, a: ids[0]!, b: ids[1]! };
}

const write = (tokenId: number, more: Partial<NetworkWrite> = {}): NetworkWrite =>
  ({ slug: "net", tokenId, name: "Net", servers: [A1, A2], replay: replay(), now: 10, ...more });

const members = async (store: Store, slug = "net") => (await store.networks.get(slug))?.servers.map((row) => row.uuid);

forEachBackend("networks", (open) => {
  test("a PUT creates or replaces, servers kept in the order named; an exact resend changes nothing, even after a later PUT", async () => {
    const { store, a } = await seeded(open);
    const first = write(a, { servers: [A2, A1] });
    expect(await store.networks.put(first)).toBe("new");
    expect(await store.networks.get("net")).toMatchObject({ slug: "net", name: "Net" });
    expect(await members(store)).toEqual([A2, A1]);
    expect(await store.networks.put(write(a, { name: "Renamed", servers: [A3] }))).toBe("new");
    expect(await store.networks.get("net")).toMatchObject({ name: "Renamed" });
    expect(await members(store)).toEqual([A3]);
    expect(await store.networks.put(first)).toBe("duplicate");
    expect(await store.networks.get("net")).toMatchObject({ name: "Renamed" });
    expect(await members(store)).toEqual([A3]);
    // The signature reused for another body is a replay.
    await expect(store.networks.put({ ...write(a), replay: { ...first.replay, fingerprint: "other" } })).rejects.toMatchObject({ name: "ReplayError" });
    expect(await store.networks.get("nothing")).toBeUndefined();
  });

  test("a server of another token, or never pushed, refuses the whole PUT: nothing stored, the request not remembered", async () => {
    const { store, a } = await seeded(open);
    const refused = write(a, { servers: [A1, B1, NEVER] });
    await expect(store.networks.put(refused)).rejects.toMatchObject({ name: "NetworkServersError", otherTokens: [B1], unknown: [NEVER] });
    expect(await store.networks.get("net")).toBeUndefined();
    await store.networks.put(write(a, { servers: [A1] }));
    await expect(store.networks.put(write(a, { name: "Changed", servers: [A2, NEVER] }))).rejects.toMatchObject({ otherTokens: [], unknown: [NEVER] });
    expect(await store.networks.get("net")).toMatchObject({ name: "Net" });
    expect(await members(store)).toEqual([A1]);
    // Not remembered: the same signed request is taken once it can be.
    await expect(store.networks.put({ ...refused, servers: [A1] })).resolves.toBe("new");
  });

  test("another token's slug is refused for PUT and DELETE; DELETE of an unknown slug is refused; a DELETE resent changes nothing", async () => {
    const { store, a, b } = await seeded(open);
    await store.networks.put(write(a));
    await expect(store.networks.put(write(b, { servers: [B1] }))).rejects.toMatchObject({ name: "NetworkOwnerError" });
    await expect(store.networks.remove({ slug: "net", tokenId: b, replay: replay(), now: 11 })).rejects.toMatchObject({ name: "NetworkOwnerError" });
    await expect(store.networks.remove({ slug: "other", tokenId: a, replay: replay(), now: 11 })).rejects.toMatchObject({ name: "UnknownNetworkError" });
    expect(await members(store)).toEqual([A1, A2]);
    const removal = { slug: "net", tokenId: a, replay: replay(), now: 12 };
    expect(await store.networks.remove(removal)).toBe("new");
    expect(await store.networks.get("net")).toBeUndefined();
    await store.networks.put(write(a, { name: "Again" }));
    expect(await store.networks.remove(removal)).toBe("duplicate");
    expect(await store.networks.get("net")).toMatchObject({ name: "Again" });
    // Removed, the slug is free for another token.
    await store.networks.remove({ slug: "net", tokenId: a, replay: replay(), now: 13 });
    expect(await store.networks.put(write(b, { servers: [B1] }))).toBe("new");
  });

  test("two tokens naming one new slug at once: exactly one owns it, with only its servers", async () => {
    const { store, a, b } = await seeded(open);
    for (let round = 0; round < 10; round++) {
      const slug = `race-${round}`;
      const outcomes = await Promise.allSettled([
        store.networks.put(write(a, { slug, servers: [A1, A2, A3] })),
        store.networks.put(write(b, { slug, servers: [B1] })),
      ]);
      const won = outcomes.filter((outcome) => outcome.status === "fulfilled");
      expect(won).toHaveLength(1);
      const lost = outcomes.find((outcome) => outcome.status === "rejected") as PromiseRejectedResult;
      expect(lost.reason).toMatchObject({ name: "NetworkOwnerError" });
      expect([[A1, A2, A3], [B1]]).toContainEqual((await members(store, slug))!);
    }
  });

  test("a token names at most MAX_NETWORKS_PER_TOKEN networks, also when new slugs race; replacing one at the limit is taken", async () => {
    const { store, a, b } = await seeded(open);
    for (let n = 0; n < MAX_NETWORKS_PER_TOKEN - 2; n++) await store.networks.put(write(a, { slug: `n-${n}` }));
    // Four new slugs at once with room for two: two are taken, two refused with nothing stored.
    const outcomes = await Promise.allSettled([0, 1, 2, 3].map((n) => store.networks.put(write(a, { slug: `race-${n}` }))));
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(2);
    for (const outcome of outcomes.filter((outcome) => outcome.status === "rejected")) {
      expect((outcome as PromiseRejectedResult).reason).toMatchObject({ name: "NetworkLimitError", limit: MAX_NETWORKS_PER_TOKEN });
    }
    const named = await Promise.all([0, 1, 2, 3].map((n) => store.networks.get(`race-${n}`)));
    expect(named.filter((network) => network !== undefined)).toHaveLength(2);
    // At the limit a network can still be replaced, and another token is not held back.
    expect(await store.networks.put(write(a, { slug: "n-0", name: "Renamed" }))).toBe("new");
    expect(await store.networks.put(write(b, { slug: "theirs", servers: [B1] }))).toBe("new");
  });
});
