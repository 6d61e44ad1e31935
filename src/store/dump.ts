// Everything a store keeps, as plain rows a store of either backend hands out
// (Store.dump) and takes in (Store.load): what `pennant copy` moves from one
// backend to the other. Rows come in batches of a bounded size, so a store of
// millions of history samples is never held in memory at once.

import type { PluginRow, ServerRow, ServerSample, TokenRow } from "./records.ts";

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

/** The rows of each kind, named as `pennant copy` counts them. */
export interface RowsByKind {
  tokens: TokenRow;
  servers: ServerRow;
  plugins: PluginRow;
  samples: SampleRow;
  replayKeys: ReplayKeyRow;
  replayCoverage: ReplayCoverageRow;
}

export type RowKind = keyof RowsByKind;

/** Some rows of one kind. */
export type RowBatch = { [K in RowKind]: { kind: K; rows: Array<RowsByKind[K]> } }[RowKind];

/**
 * The order a dump hands out and a load writes the kinds in: tokens before
 * the records that reference them, servers before their samples.
 */
export const ROW_KINDS: readonly RowKind[] = ["tokens", "servers", "plugins", "samples", "replayKeys", "replayCoverage"];

/** The kinds whose rows make a store "hold data", and that a copy reports (the replay coverage is a setting a first start writes, not data). */
export const DATA_KINDS = ["tokens", "servers", "plugins", "samples", "replayKeys"] as const satisfies readonly RowKind[];

/**
 * Rows per batch. A batch is written as one INSERT of up to 14 columns a
 * row: 500 rows stay under SQLite's 32,766 bound parameters and PostgreSQL's
 * 65,535, and keep a batch of the widest rows to a few hundred kilobytes.
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
};

/** "3 tokens, 1 server, ..." for the data kinds counted. */
export function describeCounts(counts: Partial<RowCounts>): string {
  return DATA_KINDS.filter((kind) => counts[kind] !== undefined)
    .map((kind) => `${counts[kind]} ${KIND_NAMES[kind][counts[kind] === 1 ? 0 : 1]}`)
    .join(", ");
}

/**
 * Reads a table page by page in the order of its key `keyName`, BATCH_ROWS
 * rows at a time: `read` returns the rows whose key is after `after` (every
 * row from the start when undefined). Keyset paging, so each page costs the
 * same however far in it is.
 */
export async function* inPages<K extends RowKind>(
  kind: K,
  keyName: string,
  read: (after: unknown) => Promise<unknown[]> | unknown[],
): AsyncGenerator<RowBatch> {
  let after: unknown;
  for (;;) {
    const rows = (await read(after)) as Array<Record<string, unknown>>;
    if (rows.length > 0) yield { kind, rows } as unknown as RowBatch;
    if (rows.length < BATCH_ROWS) return;
    after = rows.at(-1)![keyName];
  }
}

/** Every kind at 0, for a load to count what it writes. */
export function emptyCounts(): RowCounts {
  return { tokens: 0, servers: 0, plugins: 0, samples: 0, replayKeys: 0, replayCoverage: 0 };
}
