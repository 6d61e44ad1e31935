// Networks in PostgreSQL (../network-records.ts). Several instances write at
// once: the slug is claimed or updated by one INSERT .. ON CONFLICT that only
// updates the row its token owns (the row's lock orders two writers of one
// slug), and members are written by a statement that takes only servers the
// token owns, so no ownership is read before it is written. The token's row
// is locked first, so two PUTs of new slugs by one token count its networks
// one after the other (MAX_NETWORKS_PER_TOKEN holds under a race).

import { and, asc, count, eq, inArray, sql } from "drizzle-orm";
import type { ReplayStatus } from "../../auth/replay.ts";
import {
  insertOwnedMembers, MAX_NETWORKS_PER_TOKEN, NetworkLimitError, NetworkOwnerError, refusedMembers, UnknownNetworkError, type NetworkRequest, type NetworkView, type NetworkWrite,
} from "../network-records.ts";
import type { PgDb } from "./open-postgres.ts";
import { pgRememberRequest } from "./pg-signed-requests.ts";
import { pgNetworkMembers, pgNetworks, pgServers, pgTokens } from "./postgres-schema.ts";

export function pgPutNetwork(db: PgDb, write: NetworkWrite): Promise<ReplayStatus> {
  return db.transaction(async (tx) => {
    const { slug, tokenId, now } = write;
    if ((await pgRememberRequest(tx, write.replay, now)) === "duplicate") return "duplicate";
    await tx.execute(sql`SELECT 1 FROM ${pgTokens} WHERE ${pgTokens.id} = ${tokenId} FOR UPDATE`);
    const held = await tx
      .insert(pgNetworks)
      .values({ slug, tokenId, name: write.name, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({ target: pgNetworks.slug, set: { name: write.name, updatedAt: now }, setWhere: eq(pgNetworks.tokenId, tokenId) })
      .returning({ slug: pgNetworks.slug });
    if (held.length === 0) throw new NetworkOwnerError();
    const [named] = await tx.select({ n: count() }).from(pgNetworks).where(eq(pgNetworks.tokenId, tokenId));
    if ((named?.n ?? 0) > MAX_NETWORKS_PER_TOKEN) throw new NetworkLimitError(MAX_NETWORKS_PER_TOKEN);
    await tx.delete(pgNetworkMembers).where(eq(pgNetworkMembers.networkSlug, slug));
    const added = await tx.execute(insertOwnedMembers(slug, write.servers, tokenId));
    if (added.length < write.servers.length) {
      const found = await tx.select({ uuid: pgServers.uuid, tokenId: pgServers.tokenId }).from(pgServers).where(inArray(pgServers.uuid, [...write.servers]));
      throw refusedMembers(write.servers, found, tokenId);
    }
    return "new";
  });
}

export function pgRemoveNetwork(db: PgDb, removal: NetworkRequest): Promise<ReplayStatus> {
  return db.transaction(async (tx) => {
    const { slug, tokenId, now } = removal;
    if ((await pgRememberRequest(tx, removal.replay, now)) === "duplicate") return "duplicate";
    const removed = await tx.delete(pgNetworks).where(and(eq(pgNetworks.slug, slug), eq(pgNetworks.tokenId, tokenId))).returning({ slug: pgNetworks.slug });
    if (removed.length > 0) return "new";
    // Thrown, so the transaction forgets the request's key with everything else.
    const [other] = await tx.select({ slug: pgNetworks.slug }).from(pgNetworks).where(eq(pgNetworks.slug, slug));
    throw other ? new NetworkOwnerError() : new UnknownNetworkError();
  });
}

export async function pgGetNetwork(db: PgDb, slug: string): Promise<NetworkView | undefined> {
  const [network] = await db.select({ slug: pgNetworks.slug, name: pgNetworks.name }).from(pgNetworks).where(eq(pgNetworks.slug, slug));
  if (!network) return undefined;
  const members = await db
    .select({ server: pgServers })
    .from(pgNetworkMembers)
    .innerJoin(pgServers, eq(pgServers.uuid, pgNetworkMembers.serverUuid))
    .where(eq(pgNetworkMembers.networkSlug, slug))
    .orderBy(asc(pgNetworkMembers.position));
  return { ...network, servers: members.map((row) => row.server) };
}
