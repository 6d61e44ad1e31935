// Networks in SQLite (network-records.ts). bun:sqlite is synchronous and this
// process the file's only writer, so each operation's transaction sees no
// other write between its reads and its writes.

import { and, asc, count, eq, inArray } from "drizzle-orm";
import type { ReplayStatus } from "../auth/replay.ts";
import type { Db } from "./database.ts";
import {
  insertOwnedMembers, MAX_NETWORKS_PER_TOKEN, NetworkLimitError, NetworkOwnerError, refusedMembers, UnknownNetworkError, type NetworkRequest, type NetworkView, type NetworkWrite,
} from "./network-records.ts";
import type { PushStatements } from "./sqlite-push.ts";
import { sqliteNetworkMembers, sqliteNetworks, sqliteServers } from "./schema.ts";
import { sqliteRememberRequest } from "./signed-requests.ts";

export function sqlitePutNetwork(db: Db, statements: PushStatements, write: NetworkWrite): ReplayStatus {
  return db.transaction((tx) => {
    const { slug, tokenId, now } = write;
    if (sqliteRememberRequest(statements, write.replay, now) === "duplicate") return "duplicate";
    const held = tx
      .insert(sqliteNetworks)
      .values({ slug, tokenId, name: write.name, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({ target: sqliteNetworks.slug, set: { name: write.name, updatedAt: now }, setWhere: eq(sqliteNetworks.tokenId, tokenId) })
      .returning({ slug: sqliteNetworks.slug })
      .all();
    if (held.length === 0) throw new NetworkOwnerError();
    const named = tx.select({ n: count() }).from(sqliteNetworks).where(eq(sqliteNetworks.tokenId, tokenId)).get();
    if ((named?.n ?? 0) > MAX_NETWORKS_PER_TOKEN) throw new NetworkLimitError(MAX_NETWORKS_PER_TOKEN);
    tx.delete(sqliteNetworkMembers).where(eq(sqliteNetworkMembers.networkSlug, slug)).run();
    const added = tx.all(insertOwnedMembers(slug, write.servers, tokenId));
    if (added.length < write.servers.length) {
      const found = tx.select({ uuid: sqliteServers.uuid, tokenId: sqliteServers.tokenId }).from(sqliteServers).where(inArray(sqliteServers.uuid, [...write.servers])).all();
      throw refusedMembers(write.servers, found, tokenId);
    }
    return "new";
  });
}

export function sqliteRemoveNetwork(db: Db, statements: PushStatements, removal: NetworkRequest): ReplayStatus {
  return db.transaction((tx) => {
    const { slug, tokenId, now } = removal;
    if (sqliteRememberRequest(statements, removal.replay, now) === "duplicate") return "duplicate";
    const removed = tx.delete(sqliteNetworks).where(and(eq(sqliteNetworks.slug, slug), eq(sqliteNetworks.tokenId, tokenId))).returning({ slug: sqliteNetworks.slug }).all();
    if (removed.length > 0) return "new";
    // Thrown, so the transaction forgets the request's key with everything else.
    throw tx.select({ slug: sqliteNetworks.slug }).from(sqliteNetworks).where(eq(sqliteNetworks.slug, slug)).get() ? new NetworkOwnerError() : new UnknownNetworkError();
  });
}

export function sqliteGetNetwork(db: Db, slug: string): NetworkView | undefined {
  const network = db.select({ slug: sqliteNetworks.slug, name: sqliteNetworks.name }).from(sqliteNetworks).where(eq(sqliteNetworks.slug, slug)).get();
  if (!network) return undefined;
  const members = db
    .select({ server: sqliteServers })
    .from(sqliteNetworkMembers)
    .innerJoin(sqliteServers, eq(sqliteServers.uuid, sqliteNetworkMembers.serverUuid))
    .where(eq(sqliteNetworkMembers.networkSlug, slug))
    .orderBy(asc(sqliteNetworkMembers.position))
    .all();
  return { ...network, servers: members.map((row) => row.server) };
}
