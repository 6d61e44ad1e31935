// The flat badge's figures, read from bench/badge.ts's printed tables (a real
// output saved as the fixture).

import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { flatBadge, markdownTables } from "../../bench/report/badge-output.ts";

const output = readFileSync(join(import.meta.dir, "fixtures/badge-output.md"), "utf8");

describe("bench/badge.ts output", () => {
  test("both tables are found, with their headers and rows", () => {
    const tables = markdownTables(output);
    expect(tables).toHaveLength(2);
    expect(tables[0]!.rows.map((row) => row[0])).toEqual(["flat", "flat-square", "plastic", "for-the-badge", "social", "flat, scale=2"]);
    expect(tables[1]!.header[0]).toBe("request");
  });

  test("the flat row's medians by column name", () => {
    expect(flatBadge(output)).toEqual({ fast: 0.082, served: 0.852, canvas: 0.937, fastLabelsCleared: 0.11 });
  });

  test("columns in another order are still read by name", () => {
    const swapped =
      "| badge | ours, fast PNG, labels cleared | canvas | ours, fast PNG | ours as served (compact PNG) |\n| --- | --- | --- | --- | --- |\n" +
      "| flat-square | 9 | 9 | 9 | 9 |\n| flat | 0.3 | 0.5 | 0.2 | 0.8 |\n";
    expect(flatBadge(swapped)).toEqual({ fast: 0.2, served: 0.8, canvas: 0.5, fastLabelsCleared: 0.3 });
  });

  test("a renamed column, a missing row or a cell that is not a time fails loudly", () => {
    expect(() => flatBadge(output.replace("ours, fast PNG", "ours, quick PNG"))).toThrow('no table with the columns "ours, fast PNG"');
    expect(() => flatBadge(output.replace("| flat |", "| flat-ish |"))).toThrow('no row "flat"');
    expect(() => flatBadge(output.replace("ours, fast PNG, labels cleared", "ours, labels cleared"))).toThrow('"ours, fast PNG, labels cleared"');
    expect(() => flatBadge(output.replace("| flat | 0.852 | 0.082 |", "| flat | 0.852 | - |"))).toThrow('"ours, fast PNG" is not a time');
    expect(() => flatBadge(output.replace("| 0.082 | 0.110 |", "| 0.082 | - |"))).toThrow('"ours, fast PNG, labels cleared" is not a time');
  });
});
