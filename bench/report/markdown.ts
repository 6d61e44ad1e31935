// Markdown and number formatting for the bench report: one spelling of each
// unit, so that every table reads alike.

export type Cell = string | number;

/** A GitHub-flavoured table; a `|` inside a cell is escaped, a row of the wrong width is a bug. */
export function table(header: string[], rows: Cell[][]): string {
  const line = (cells: Cell[]) => `| ${cells.map((cell) => String(cell).replaceAll("|", "\\|").replaceAll("\n", " ")).join(" | ")} |`;
  for (const row of rows) {
    if (row.length !== header.length) throw new Error(`table row of ${row.length} cells under ${header.length} columns: ${row.join(", ")}`);
  }
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

/** Milliseconds: three decimals below 1 ms, two up to 100 ms, none above. */
export function ms(value: number): string {
  if (!Number.isFinite(value)) return "-";
  if (value < 1) return value.toFixed(3);
  return value < 100 ? value.toFixed(2) : value.toFixed(0);
}

/** A whole count with thousands separators: 12,345. */
export function count(value: number): string {
  if (!Number.isFinite(value)) return "-";
  return Math.round(value).toLocaleString("en-US");
}

/** A ratio as "0.45x" (two decimals below 10, one above). */
export function times(value: number): string {
  if (!Number.isFinite(value)) return "-";
  return `${value < 10 ? value.toFixed(2) : value.toFixed(1)}x`;
}

/** Bytes as MiB with no decimals (memory figures move by more than that between runs). */
export function mib(bytes: number): string {
  if (!Number.isFinite(bytes)) return "-";
  return (bytes / 2 ** 20).toFixed(0);
}

/** Microseconds with one decimal. */
export function micros(value: number): string {
  return Number.isFinite(value) ? value.toFixed(1) : "-";
}
