// Networks (network-records.ts) on either backend. On SQLite one writer at a
// time orders everything; on PostgreSQL several instances write at once: the
// slug is claimed or updated by one INSERT .. ON CONFLICT that only updates
// the row its token owns (the row's lock orders two writers of one slug), and
// members are written by a statement that takes only servers the token owns,
// so no ownership is read before it is written. The token's row is locked
// first, so two PUTs of new slugs by one token count its networks one after
// the other (MAX_NETWORKS_PER_TOKEN holds under a race).

import { and, asc, count, eq, inArray } from "drizzle-orm";
import type { ReplayStatus } from "../auth/replay.ts";
import {
  insertOwnedMembers, MAX_NETWORKS_PER_TOKEN, NetworkLimitError, NetworkOwnerError, refusedMembers, UnknownNetworkError, type NetworkRequest, type NetworkView, type NetworkWrite,
} from "./network-records.ts";
import { first, runIfAny, raw, rows, run, type QueryContext, type RememberRequest, type Steps } from "./query-steps.ts";

/** Runs in one transaction; `remember` is the backend's (RememberRequest). */
export function* putNetwork(q: QueryContext, remember: RememberRequest, write: NetworkWrite): Steps<ReplayStatus> {
  const { db, tables: { networks, networkMembers: members, servers, tokens }, dialect } = q;
  const { slug, tokenId, now } = write;
  if ((yield* remember(q, write.replay, now)) === "duplicate") return "duplicate";
  yield* runIfAny(dialect.lockRows(tokens, eq(tokens.id, tokenId)));
  const held = yield* rows(
    db
      .insert(networks)
      .values({ slug, tokenId, name: write.name, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({ target: networks.slug, set: { name: write.name, updatedAt: now }, setWhere: eq(networks.tokenId, tokenId) })
      .returning({ slug: networks.slug }),
  );
  if (held.length === 0) throw new NetworkOwnerError();
  const named = yield* first(db.select({ n: count() }).from(networks).where(eq(networks.tokenId, tokenId)));
  if ((named?.n ?? 0) > MAX_NETWORKS_PER_TOKEN) throw new NetworkLimitError(MAX_NETWORKS_PER_TOKEN);
  yield* run(db.delete(members).where(eq(members.networkSlug, slug)));
  const added = yield* raw(insertOwnedMembers(slug, write.servers, tokenId));
  if (added.length < write.servers.length) {
    const found = yield* rows(db.select({ uuid: servers.uuid, tokenId: servers.tokenId }).from(servers).where(inArray(servers.uuid, [...write.servers])));
    throw refusedMembers(write.servers, found, tokenId);
  }
  return "new";
}

/** Runs in one transaction. */
export function* removeNetwork(q: QueryContext, remember: RememberRequest, removal: NetworkRequest): Steps<ReplayStatus> {
  const { db, tables: { networks } } = q;
  const { slug, tokenId, now } = removal;
  if ((yield* remember(q, removal.replay, now)) === "duplicate") return "duplicate";
  const removed = yield* rows(db.delete(networks).where(and(eq(networks.slug, slug), eq(networks.tokenId, tokenId))).returning({ slug: networks.slug }));
  if (removed.length > 0) return "new";
  // Thrown, so the transaction forgets the request's key with everything else.
  throw (yield* first(db.select({ slug: networks.slug }).from(networks).where(eq(networks.slug, slug)))) ? new NetworkOwnerError() : new UnknownNetworkError();
}

export function* getNetwork({ db, tables: { networks, networkMembers: members, servers } }: QueryContext, slug: string): Steps<NetworkView | undefined> {
  const network = yield* first(db.select({ slug: networks.slug, name: networks.name }).from(networks).where(eq(networks.slug, slug)));
  if (!network) return undefined;
  const listed = yield* rows(
    db.select({ server: servers }).from(members).innerJoin(servers, eq(servers.uuid, members.serverUuid)).where(eq(members.networkSlug, slug)).orderBy(asc(members.position)),
  );
  return { ...network, servers: listed.map((row) => row.server) };
}
