// Figures from bench/badge.ts's printed tables. That bench is run as a child
// and its markdown goes into the report as it is; the targets need some of
// its numbers, read here by column name, so a renamed column fails loudly
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
  /** Bytes of the flat `downloads | 13k` PNG as the server serves it. */
  servedBytes: number;
  /** A new flat badge over HTTP (one connection, a look never asked before each request): median ms. */
  newOverHttp: number;
}

const FAST = "ours, fast PNG", SERVED = "ours as served (compact PNG)", CANVAS = "canvas", LABELS_CLEARED = "ours, fast PNG, labels cleared";
const BYTES = "PNG bytes served / fast / canvas / resvg";
const COLUMNS = [FAST, SERVED, CANVAS, LABELS_CLEARED, BYTES];

/** The columns of bench/badge.ts's table of a new badge over HTTP beside canvas in process. */
export const NEW_BADGE_COLUMNS = {
  http: "new flat badge over HTTP, p50 ms",
  canvas: "canvas (Skia), flat, in process, median ms",
  ratio: "HTTP / canvas",
};

function table(output: string, columns: string[]): MarkdownTable {
  const found = markdownTables(output).find((t) => columns.every((name) => t.header.includes(name)));
  if (!found) throw new Error(`bench/badge.ts printed no table with the columns ${columns.map((name) => `"${name}"`).join(", ")}`);
  return found;
}

/** A cell's number, which must be above 0: `kind` names what it should have been. */
function positive(cell: string | undefined, what: string, kind: string): number {
  const value = Number(cell);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`bench/badge.ts: ${what} is not ${kind} (${cell})`);
  return value;
}

/** The flat badge's figures from bench/badge.ts's output. */
export function flatBadge(output: string): FlatBadge {
  const found = table(output, COLUMNS);
  const row = found.rows.find((r) => r[0] === "flat");
  if (!row) throw new Error('bench/badge.ts printed no row "flat"');
  const cell = (column: string) => row[found.header.indexOf(column)];
  const time = (column: string) => positive(cell(column), `the flat badge's "${column}"`, "a time");
  const overHttp = table(output, [NEW_BADGE_COLUMNS.http]);
  return {
    fast: time(FAST),
    served: time(SERVED),
    canvas: time(CANVAS),
    fastLabelsCleared: time(LABELS_CLEARED),
    servedBytes: positive(cell(BYTES)?.split(" / ")[0], `the flat badge's "${BYTES}"`, "a byte count"),
    newOverHttp: positive(overHttp.rows[0]?.[overHttp.header.indexOf(NEW_BADGE_COLUMNS.http)], `"${NEW_BADGE_COLUMNS.http}"`, "a time"),
  };
}
