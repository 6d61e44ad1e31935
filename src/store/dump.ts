// Everything a store keeps, as plain rows a store of either backend hands out
// (Store.dump) and takes in (Store.load): what `pennant copy` moves from one
// backend to the other, but the last day's refused pushes (push-refusals.ts),
// a diagnosis of the instances that refused them. Rows come in batches of a
// bounded size, so a store of millions of history samples is never held in
// memory at once.

import { and, getTableColumns, gt, gte, sql, type Column, type SQL, type Table } from "drizzle-orm";
import type { HistoryBucket, HistoryMarks } from "./history.ts";
import type { PluginRow, ServerRow, ServerSample, TokenRow } from "./records.ts";
import type { NetworkMemberRow, NetworkRow } from "./network-records.ts";
import type { StoreTables } from "./store-tables.ts";
import type { ServerState, WebhookRow } from "./webhook-records.ts";

/** A history sample with its id (the id the table gives it, kept across a copy). */
export interface SampleRow extends ServerSample {
  id: number;
}

/** A replay key still inside its window: a push accepted under it stays a replay after the copy. */
export interface ReplayKeyRow {
  signature: string;
  expiresAt: number;
  fingerprint: string | null;
}

/** The window the replay memory's keys were kept for, and the earliest push time it vouches for (store/replay-memory.ts). */
export interface ReplayCoverageRow {
  id: number;
  clockSkewMs: number;
  coveredSince: number;
}

/** How far the history sweep has rolled up (history.ts), as its one row. */
export interface HistoryMarksRow extends HistoryMarks {
  id: number;
}

/** The state and player record alerts last saw of a server: without it the first sweep after a copy would send nothing for a change. */
export interface WebhookStateRow {
  serverUuid: string;
  state: ServerState;
  changedAt: number;
  playersRecord: number | null;
}

/** A delivery still waiting for an attempt, with its id (kept across a copy, as the samples'). */
export interface WebhookDeliveryRow {
  id: number;
  webhookId: string;
  body: string;
  createdAt: number;
  attempts: number;
  nextAt: number;
  leasedUntil: number;
}

/** The rows of each kind, named as `pennant copy` counts them. */
export interface RowsByKind {
  tokens: TokenRow;
  servers: ServerRow;
  plugins: PluginRow;
  samples: SampleRow;
  history: HistoryBucket;
  replayKeys: ReplayKeyRow;
  replayCoverage: ReplayCoverageRow;
  historyMarks: HistoryMarksRow;
  webhooks: WebhookRow;
  webhookStates: WebhookStateRow;
  webhookDeliveries: WebhookDeliveryRow;
  networks: NetworkRow;
  networkMembers: NetworkMemberRow;
}

export type RowKind = keyof RowsByKind;

/** Some rows of one kind. */
export type RowBatch = { [K in RowKind]: { kind: K; rows: Array<RowsByKind[K]> } }[RowKind];

/**
 * The order a dump hands out and a load writes the kinds in: tokens before
 * the records that reference them, servers before their samples and
 * webhooks, webhooks before their deliveries, networks before their members.
 */
export const ROW_KINDS: readonly RowKind[] = [
  "tokens", "servers", "plugins", "samples", "history", "replayKeys", "replayCoverage", "historyMarks", "webhooks", "webhookStates", "webhookDeliveries",
  "networks", "networkMembers",
];

/**
 * The kinds whose rows make a store "hold data", and that a copy reports (the
 * replay coverage and the history marks are settings a first start writes,
 * not data; history buckets and webhook states belong to servers,
 * deliveries to webhooks and members to networks, which are counted).
 */
export const DATA_KINDS = ["tokens", "servers", "plugins", "samples", "replayKeys", "webhooks", "networks"] as const satisfies readonly RowKind[];

/**
 * Rows per batch. A batch is written as one INSERT of up to 14 columns a
 * row: 500 rows (7,000 values) stay well under SQLite's 32,766 bound
 * parameters and PostgreSQL's 65,535.
 */
export const BATCH_ROWS = 500;

export type RowCounts = Record<RowKind, number>;

/** Loading into a store that holds data would mix two stores' tokens and records: a copy goes into an empty store only. */
export class StoreNotEmptyError extends Error {
  constructor(readonly counts: Partial<RowCounts>) {
    super(`the store already holds data (${describeCounts(counts)})`);
    this.name = "StoreNotEmptyError";
  }
}

const KIND_NAMES: Record<(typeof DATA_KINDS)[number], [string, string]> = {
  tokens: ["token", "tokens"],
  servers: ["server", "servers"],
  plugins: ["plugin", "plugins"],
  samples: ["history sample", "history samples"],
  replayKeys: ["replay key", "replay keys"],
  webhooks: ["webhook", "webhooks"],
  networks: ["network", "networks"],
};

/** "3 tokens, 1 server, ..." for the data kinds counted. */
export function describeCounts(counts: Partial<RowCounts>): string {
  return DATA_KINDS.filter((kind) => counts[kind] !== undefined)
    .map((kind) => `${counts[kind]} ${KIND_NAMES[kind][counts[kind] === 1 ? 0 : 1]}`)
    .join(", ");
}

/** A backend's table of each kind, in either dialect: `T` a table of it, `C` a column. */
export type TablesByKind<T extends Table, C extends Column> = Record<RowKind, T> & {
  samples: T & Record<"id" | "serverUuid" | "at" | "playersOnline" | "playersMax" | "tps" | "online", C>;
  replayKeys: T & { expiresAt: C };
};

/** The table of each kind among a backend's tables (store-tables.ts). */
export function tablesByKind(t: StoreTables) {
  return {
    tokens: t.tokens, servers: t.servers, plugins: t.plugins, samples: t.serverSamples, history: t.serverHistory, replayKeys: t.usedSignatures,
    replayCoverage: t.replayMemory, historyMarks: t.historyMarks, webhooks: t.webhooks, webhookStates: t.webhookStates,
    webhookDeliveries: t.webhookDeliveries, networks: t.networks, networkMembers: t.networkMembers,
  };
}

/** The settings kinds, one row each, that a load writes over the target's own (a target that was served once has them). */
export const SETTING_KINDS: ReadonlySet<RowKind> = new Set(["replayCoverage", "historyMarks"]);

/** One page a backend reads: BATCH_ROWS rows of `table` in `keys` order, of `columns` (every column when undefined), among those `where` keeps. */
export interface PageQuery<T extends Table, C extends Column> {
  table: T;
  keys: C[];
  columns: Record<string, C> | undefined;
  where: SQL | undefined;
}

/**
 * Every kind of `tables` in ROW_KINDS order, as it stands at `now`, page by
 * page through `read` (the backend's select). Keyset paging: each page is
 * the rows after the last key of the one before, so each page costs the same
 * however far in it is.
 */
export async function* dumpTables<T extends Table, C extends Column>(
  tables: TablesByKind<T, C>,
  now: number,
  read: (query: PageQuery<T, C>) => Promise<unknown[]> | unknown[],
): AsyncGenerator<RowBatch> {
  const { samples, replayKeys } = tables;
  const plan: Record<RowKind, { keyNames: string[]; columns?: Record<string, C>; filter?: SQL }> = {
    tokens: { keyNames: ["id"] },
    servers: { keyNames: ["uuid"] },
    plugins: { keyNames: ["uuid"] },
    // Not `minute`, which each database computes from `at`.
    samples: { keyNames: ["id"], columns: { id: samples.id, serverUuid: samples.serverUuid, at: samples.at, playersOnline: samples.playersOnline, playersMax: samples.playersMax, tps: samples.tps, online: samples.online } },
    history: { keyNames: ["serverUuid", "stepMs", "at"] },
    replayKeys: { keyNames: ["signature"], filter: gte(replayKeys.expiresAt, now) },
    replayCoverage: { keyNames: ["id"] },
    historyMarks: { keyNames: ["id"] },
    webhooks: { keyNames: ["id"] },
    webhookStates: { keyNames: ["serverUuid"] },
    webhookDeliveries: { keyNames: ["id"] },
    networks: { keyNames: ["slug"] },
    networkMembers: { keyNames: ["networkSlug", "serverUuid"] },
  };
  for (const kind of ROW_KINDS) {
    const { keyNames, columns, filter } = plan[kind];
    const table = tables[kind];
    const keys = keyNames.map((name) => getTableColumns(table)[name] as C);
    let after: unknown[] | undefined;
    for (;;) {
      const rows = (await read({ table, keys, columns, where: and(filter, after === undefined ? undefined : keysAfter(keys, after)) })) as Array<Record<string, unknown>>;
      if (rows.length > 0) yield { kind, rows } as unknown as RowBatch;
      if (rows.length < BATCH_ROWS) break;
      after = keyNames.map((name) => rows.at(-1)![name]);
    }
  }
}

/** The rows whose key comes after `values`: a row-value comparison for a key of several columns (both backends have one). */
function keysAfter<C extends Column>(keys: C[], values: unknown[]): SQL {
  if (keys.length === 1) return gt(keys[0]!, values[0]);
  return sql`(${sql.join(keys, sql`, `)}) > (${sql.join(values.map((value) => sql`${value}`), sql`, `)})`;
}

/**
 * A load's work inside the backend's transaction: StoreNotEmptyError when
 * `countRows` finds rows of a data kind, else every batch through `write`;
 * returns how many rows of each kind were written.
 */
export async function loadBatches(
  batches: AsyncIterable<RowBatch>,
  countRows: (kind: RowKind) => Promise<number> | number,
  write: (batch: RowBatch) => Promise<unknown> | unknown,
): Promise<RowCounts> {
  const held: Partial<RowCounts> = {};
  for (const kind of DATA_KINDS) {
    const n = await countRows(kind);
    if (n > 0) held[kind] = n;
  }
  if (Object.keys(held).length > 0) throw new StoreNotEmptyError(held);
  const counts = Object.fromEntries(ROW_KINDS.map((kind) => [kind, 0])) as RowCounts;
  for await (const batch of batches) {
    await write(batch);
    counts[batch.kind] += batch.rows.length;
  }
  return counts;
}
