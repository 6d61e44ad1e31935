// Networks in SQLite (network-records.ts). bun:sqlite is synchronous and this
// process the file's only writer, so each operation's transaction sees no
// other write between its reads and its writes.

import { and, asc, count, eq, inArray } from "drizzle-orm";
import type { ReplayStatus } from "../auth/replay.ts";
import type { Db } from "./database.ts";
import {
  insertOwnedMembers, MAX_NETWORKS_PER_TOKEN, NetworkLimitError, NetworkOwnerError, refusedMembers, UnknownNetworkError, type NetworkRequest, type NetworkView, type NetworkWrite,
} from "./network-records.ts";
import type { PushStatements } from "./push-statements.ts";
import { networkMembers, networks, servers } from "./schema.ts";
import { rememberRequest } from "./signed-requests.ts";

export function putNetwork(db: Db, statements: PushStatements, write: NetworkWrite): ReplayStatus {
  return db.transaction((tx) => {
    const { slug, tokenId, now } = write;
    if (rememberRequest(statements, write.replay, now) === "duplicate") return "duplicate";
    const held = tx
      .insert(networks)
      .values({ slug, tokenId, name: write.name, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({ target: networks.slug, set: { name: write.name, updatedAt: now }, setWhere: eq(networks.tokenId, tokenId) })
      .returning({ slug: networks.slug })
      .all();
    if (held.length === 0) throw new NetworkOwnerError();
    const named = tx.select({ n: count() }).from(networks).where(eq(networks.tokenId, tokenId)).get();
    if ((named?.n ?? 0) > MAX_NETWORKS_PER_TOKEN) throw new NetworkLimitError(MAX_NETWORKS_PER_TOKEN);
    tx.delete(networkMembers).where(eq(networkMembers.networkSlug, slug)).run();
    const added = tx.all(insertOwnedMembers(slug, write.servers, tokenId));
    if (added.length < write.servers.length) {
      const found = tx.select({ uuid: servers.uuid, tokenId: servers.tokenId }).from(servers).where(inArray(servers.uuid, [...write.servers])).all();
      throw refusedMembers(write.servers, found, tokenId);
    }
    return "new";
  });
}

export function removeNetwork(db: Db, statements: PushStatements, removal: NetworkRequest): ReplayStatus {
  return db.transaction((tx) => {
    const { slug, tokenId, now } = removal;
    if (rememberRequest(statements, removal.replay, now) === "duplicate") return "duplicate";
    const removed = tx.delete(networks).where(and(eq(networks.slug, slug), eq(networks.tokenId, tokenId))).returning({ slug: networks.slug }).all();
    if (removed.length > 0) return "new";
    // Thrown, so the transaction forgets the request's key with everything else.
    throw tx.select({ slug: networks.slug }).from(networks).where(eq(networks.slug, slug)).get() ? new NetworkOwnerError() : new UnknownNetworkError();
  });
}

export function getNetwork(db: Db, slug: string): NetworkView | undefined {
  const network = db.select({ slug: networks.slug, name: networks.name }).from(networks).where(eq(networks.slug, slug)).get();
  if (!network) return undefined;
  const members = db
    .select({ server: servers })
    .from(networkMembers)
    .innerJoin(servers, eq(servers.uuid, networkMembers.serverUuid))
    .where(eq(networkMembers.networkSlug, slug))
    .orderBy(asc(networkMembers.position))
    .all();
  return { ...network, servers: members.map((row) => row.server) };
}
