// Figures from bench/badge.ts's printed tables. That bench is run as a child
// and its markdown goes into the report as it is; the targets need three of
// its numbers (and a fourth to show beside them), read here by column name, so a renamed column fails loudly
// instead of feeding a wrong figure to a verdict.

export interface MarkdownTable {
  header: string[];
  rows: string[][];
}

const cells = (line: string) => line.trim().replace(/^\|/, "").replace(/\|$/, "").split("|").map((cell) => cell.trim());

/** Every table in a markdown text: a header line, a --- line, then rows. */
export function markdownTables(text: string): MarkdownTable[] {
  const lines = text.split("\n");
  const tables: MarkdownTable[] = [];
  for (let i = 0; i + 1 < lines.length; i++) {
    if (!lines[i]!.trim().startsWith("|") || !/^\s*\|?\s*:?-{3,}/.test(lines[i + 1]!)) continue;
    const header = cells(lines[i]!);
    const rows: string[][] = [];
    let j = i + 2;
    for (; j < lines.length && lines[j]!.trim().startsWith("|"); j++) rows.push(cells(lines[j]!));
    tables.push({ header, rows });
    i = j - 1;
  }
  return tables;
}

export interface FlatBadge {
  /**
   * Cold draw + PNG medians, ms (a new message each run, the label's pixels
   * kept as on a running server): the engine's fast encoding, as the server
   * serves it, and canvas's.
   */
  fast: number;
  served: number;
  canvas: number;
  /** The fast encoding with the label pixels cleared before every run (the label drawn too). */
  fastLabelsCleared: number;
}

const FAST = "ours, fast PNG", SERVED = "ours as served (compact PNG)", CANVAS = "canvas", LABELS_CLEARED = "ours, fast PNG, labels cleared";
const COLUMNS = [FAST, SERVED, CANVAS, LABELS_CLEARED];

/** The flat badge's medians from bench/badge.ts's output. */
export function flatBadge(output: string): FlatBadge {
  const found = markdownTables(output).find((t) => COLUMNS.every((name) => t.header.includes(name)));
  if (!found) throw new Error(`bench/badge.ts printed no table with the columns ${COLUMNS.map((name) => `"${name}"`).join(", ")}`);
  const row = found.rows.find((r) => r[0] === "flat");
  if (!row) throw new Error('bench/badge.ts printed no row "flat"');
  const number = (column: string) => {
    const value = Number(row[found.header.indexOf(column)]);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`bench/badge.ts: the flat badge's "${column}" is not a time (${row[found.header.indexOf(column)]})`);
    return value;
  };
  return { fast: number(FAST), served: number(SERVED), canvas: number(CANVAS), fastLabelsCleared: number(LABELS_CLEARED) };
}
