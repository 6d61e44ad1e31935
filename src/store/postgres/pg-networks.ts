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
import { rememberRequest } from "./pg-signed-requests.ts";
import { networkMembers, networks, servers, tokens } from "./postgres-schema.ts";

export function putNetwork(db: PgDb, write: NetworkWrite): Promise<ReplayStatus> {
  return db.transaction(async (tx) => {
    const { slug, tokenId, now } = write;
    if ((await rememberRequest(tx, write.replay, now)) === "duplicate") return "duplicate";
    await tx.execute(sql`SELECT 1 FROM ${tokens} WHERE ${tokens.id} = ${tokenId} FOR UPDATE`);
    const held = await tx
      .insert(networks)
      .values({ slug, tokenId, name: write.name, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({ target: networks.slug, set: { name: write.name, updatedAt: now }, setWhere: eq(networks.tokenId, tokenId) })
      .returning({ slug: networks.slug });
    if (held.length === 0) throw new NetworkOwnerError();
    const [named] = await tx.select({ n: count() }).from(networks).where(eq(networks.tokenId, tokenId));
    if ((named?.n ?? 0) > MAX_NETWORKS_PER_TOKEN) throw new NetworkLimitError(MAX_NETWORKS_PER_TOKEN);
    await tx.delete(networkMembers).where(eq(networkMembers.networkSlug, slug));
    const added = await tx.execute(insertOwnedMembers(slug, write.servers, tokenId));
    if (added.length < write.servers.length) {
      const found = await tx.select({ uuid: servers.uuid, tokenId: servers.tokenId }).from(servers).where(inArray(servers.uuid, [...write.servers]));
      throw refusedMembers(write.servers, found, tokenId);
    }
    return "new";
  });
}

export function removeNetwork(db: PgDb, removal: NetworkRequest): Promise<ReplayStatus> {
  return db.transaction(async (tx) => {
    const { slug, tokenId, now } = removal;
    if ((await rememberRequest(tx, removal.replay, now)) === "duplicate") return "duplicate";
    const removed = await tx.delete(networks).where(and(eq(networks.slug, slug), eq(networks.tokenId, tokenId))).returning({ slug: networks.slug });
    if (removed.length > 0) return "new";
    // Thrown, so the transaction forgets the request's key with everything else.
    const [other] = await tx.select({ slug: networks.slug }).from(networks).where(eq(networks.slug, slug));
    throw other ? new NetworkOwnerError() : new UnknownNetworkError();
  });
}

export async function getNetwork(db: PgDb, slug: string): Promise<NetworkView | undefined> {
  const [network] = await db.select({ slug: networks.slug, name: networks.name }).from(networks).where(eq(networks.slug, slug));
  if (!network) return undefined;
  const members = await db
    .select({ server: servers })
    .from(networkMembers)
    .innerJoin(servers, eq(servers.uuid, networkMembers.serverUuid))
    .where(eq(networkMembers.networkSlug, slug))
    .orderBy(asc(networkMembers.position));
  return { ...network, servers: members.map((row) => row.server) };
}
