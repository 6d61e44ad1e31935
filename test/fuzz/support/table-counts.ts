// Rows per table of a Pennant database, read through any connection (the
// test server's own, or a reader beside a `serve` child): the evidence that a
// refused request stored nothing.

import type { Database } from "bun:sqlite";

export type TableCounts = Record<string, number>;

/**
 * push_refusals counts refused server pushes by UUID and code (what `pennant
 * servers` shows the owner: issue 40), the one write a refusal makes, bounded
 * to 1,000 rows; it is flushed every few seconds, so any case may see it grow.
 */
const COUNTS_OF_REFUSALS = new Set(["push_refusals"]);

/** The tables a refused request may not change. */
export function tableNames(db: Database): string[] {
  const rows = db.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as Array<{ name: string }>;
  return rows.map((row) => row.name).filter((name) => !COUNTS_OF_REFUSALS.has(name));
}

export function tableCounts(db: Database, names: readonly string[] = tableNames(db)): TableCounts {
  const counts: TableCounts = {};
  for (const name of names) counts[name] = (db.query(`SELECT count(*) AS n FROM "${name}"`).get() as { n: number }).n;
  return counts;
}

/** "servers 3 -> 4, tokens 1 -> 2", or "" when nothing changed. */
export function countChanges(before: TableCounts, after: TableCounts): string {
  return Object.keys(after)
    .filter((name) => before[name] !== after[name])
    .map((name) => `${name} ${before[name]} -> ${after[name]}`)
    .join(", ");
}
