// What one token owns, as its owner reads it (the console, GET /api/token/*):
// its servers, its plugins and its networks with their members, on either
// backend. Each list is bounded by the token's own bounds
// (PENNANT_MAX_SERVERS_PER_TOKEN, PENNANT_MAX_PLUGINS_PER_TOKEN,
// MAX_NETWORKS_PER_TOKEN of MAX_NETWORK_SERVERS each).

import { asc, desc, eq, inArray } from "drizzle-orm";
import type { NetworkView } from "./network-records.ts";
import { rows, type QueryContext, type Steps } from "./query-steps.ts";
import type { PluginRow, ServerRow } from "./records.ts";

/** The token's servers, the most recently seen first. */
export function* listTokenServers({ db, tables: { servers }, dialect }: QueryContext, tokenId: number): Steps<ServerRow[]> {
  return yield* rows(db.select().from(servers).where(eq(servers.tokenId, dialect.int(tokenId))).orderBy(desc(servers.lastSeen), asc(servers.uuid)));
}

/** The token's plugins, the most recently seen first. */
export function* listTokenPlugins({ db, tables: { plugins }, dialect }: QueryContext, tokenId: number): Steps<PluginRow[]> {
  return yield* rows(db.select().from(plugins).where(eq(plugins.tokenId, dialect.int(tokenId))).orderBy(desc(plugins.lastSeen), asc(plugins.uuid)));
}

/** The token's networks by slug, each with its member servers in the order named. */
export function* listTokenNetworks({ db, tables: { networks, networkMembers: members, servers }, dialect }: QueryContext, tokenId: number): Steps<NetworkView[]> {
  const named = yield* rows(db.select({ slug: networks.slug, name: networks.name }).from(networks).where(eq(networks.tokenId, dialect.int(tokenId))).orderBy(asc(networks.slug)));
  if (named.length === 0) return [];
  const listed = yield* rows(
    db
      .select({ slug: members.networkSlug, server: servers })
      .from(members)
      .innerJoin(servers, eq(servers.uuid, members.serverUuid))
      .where(inArray(members.networkSlug, named.map((network) => network.slug)))
      .orderBy(asc(members.networkSlug), asc(members.position)),
  );
  const bySlug = Map.groupBy(listed, (row) => row.slug);
  return named.map((network) => ({ ...network, servers: (bySlug.get(network.slug) ?? []).map((row) => row.server) }));
}
