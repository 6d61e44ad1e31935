// Networks (issue 24): a token's name for a group of the servers it owns,
// whose banner and badges sum them. What the store keeps of one, what a
// signed PUT or DELETE asks it to do, and how it refuses.

import { sql, type SQL } from "drizzle-orm";
import type { ReplayRecord } from "../auth/replay.ts";
import type { ServerRow } from "./records.ts";

/** The most servers one network may name. */
export const MAX_NETWORK_SERVERS = 100;
/** The longest network name kept; a longer one is cut to it. */
export const MAX_NETWORK_NAME_CHARS = 64;
/**
 * Networks one token may name: every other table a token fills is bounded per
 * token or per server, and this one must be too (a network is up to 100 rows).
 * A network of a hundred servers is already larger than most owners run; 25
 * leaves room for regions, game modes and a test network.
 */
export const MAX_NETWORKS_PER_TOKEN = 25;

/**
 * A slug is the network's address (/shields/networks/{slug}/...): 1 to 40
 * lower-case letters, digits and hyphens, starting and ending with a letter
 * or digit, so it needs no escaping in a URL and reads as typed.
 */
const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;
export const SLUG_RULE = "1 to 40 letters (a-z, any case), digits and hyphens, starting and ending with a letter or digit";

/**
 * The slug in its canonical lower case, or null when the text is none. Only
 * case is forgiven: whitespace around it is refused, not trimmed, so that
 * `%20a` or `a%0A` never reaches, creates or deletes the network `a`.
 */
export function canonicalSlug(raw: string): string | null {
  const slug = raw.toLowerCase();
  return SLUG.test(slug) ? slug : null;
}

/** A network as its banner and badges read it: its members in the order they were named. */
export interface NetworkView {
  slug: string;
  name: string;
  servers: ServerRow[];
}

/** A network row as the store keeps it (dump.ts). */
export interface NetworkRow {
  slug: string;
  tokenId: number;
  name: string;
  createdAt: number;
  updatedAt: number;
}

/** One server of a network, at its place in the list it was named in (dump.ts). */
export interface NetworkMemberRow {
  networkSlug: string;
  serverUuid: string;
  position: number;
}

/** A signed request on a network: who sends it and its replay record, remembered with the write. */
export interface NetworkRequest {
  slug: string;
  tokenId: number;
  replay: ReplayRecord;
  now: number;
}

/** PUT: the network as it should be from now on (servers canonical, without repeats). */
export interface NetworkWrite extends NetworkRequest {
  name: string;
  servers: readonly string[];
}

/** The slug is another token's network. */
export class NetworkOwnerError extends Error {
  constructor() {
    super("this network belongs to another token");
    this.name = "NetworkOwnerError";
  }
}

/** The token already names MAX_NETWORKS_PER_TOKEN networks and asked for a new one. */
export class NetworkLimitError extends Error {
  constructor(readonly limit: number) {
    super(`this token already names ${limit} networks`);
    this.name = "NetworkLimitError";
  }
}

/** No network has this slug (DELETE). */
export class UnknownNetworkError extends Error {
  constructor() {
    super("no network has this slug");
    this.name = "UnknownNetworkError";
  }
}

/** Servers the token may not put in a network: bound to another token, or never pushed. */
export class NetworkServersError extends Error {
  constructor(
    readonly otherTokens: readonly string[],
    readonly unknown: readonly string[],
  ) {
    super("some servers are not this token's");
    this.name = "NetworkServersError";
  }
}

/**
 * Why the servers that did not become members were refused, from the rows
 * found for them (uuid and owner): another token's first, else never pushed.
 */
export function refusedMembers(asked: readonly string[], found: ReadonlyArray<{ uuid: string; tokenId: number }>, tokenId: number): NetworkServersError {
  const owners = new Map(found.map((row) => [row.uuid, row.tokenId]));
  return new NetworkServersError(
    asked.filter((uuid) => owners.has(uuid) && owners.get(uuid) !== tokenId),
    asked.filter((uuid) => !owners.has(uuid)),
  );
}

/**
 * Makes `servers` the members of network `slug`, in their order, taking only
 * those `tokenId` owns: the ownership is checked by the statement that
 * writes, so no server can change hands between a check and the write. Its
 * rows are the members written. The same SQL on both backends.
 */
export function insertOwnedMembers(slug: string, servers: readonly string[], tokenId: number): SQL {
  const asked = sql.join(servers.map((uuid, position) => sql`(cast(${uuid} as text), cast(${position} as integer))`), sql`, `);
  return sql`WITH asked (uuid, position) AS (VALUES ${asked})
    INSERT INTO network_members (network_slug, server_uuid, position)
    SELECT ${slug}, asked.uuid, asked.position FROM asked JOIN servers ON servers.uuid = asked.uuid WHERE servers.token_id = ${tokenId}
    RETURNING server_uuid`;
}
