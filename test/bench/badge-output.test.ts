// The flat badge's figures, read from bench/badge.ts's printed tables (a real
// output saved as the fixture).

import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { flatBadge, markdownTables } from "../../bench/report/badge-output.ts";

const output = readFileSync(join(import.meta.dir, "fixtures/badge-output.md"), "utf8");

describe("bench/badge.ts output", () => {
  test("all three tables are found, with their headers and rows", () => {
    const tables = markdownTables(output);
    expect(tables).toHaveLength(3);
    expect(tables[0]!.rows.map((row) => row[0])).toEqual(["flat", "flat-square", "plastic", "for-the-badge", "social", "flat, scale=2"]);
    expect(tables[1]!.header[0]).toBe("request");
    expect(tables[2]!.header[0]).toBe("new flat badge over HTTP, p50 ms");
  });

  test("the flat row's figures by column name, and the new badge over HTTP", () => {
    expect(flatBadge(output)).toEqual({ fast: 0.056, served: 0.399, canvas: 0.693, fastLabelsCleared: 0.075, servedBytes: 2482, newOverHttp: 0.698 });
  });

  test("columns in another order are still read by name", () => {
    const swapped =
      "| badge | ours, fast PNG, labels cleared | PNG bytes served / fast / canvas / resvg | canvas | ours, fast PNG | ours as served (compact PNG) |\n" +
      "| --- | --- | --- | --- | --- | --- |\n| flat-square | 9 | 9 / 9 / 9 / 9 | 9 | 9 | 9 |\n| flat | 0.3 | 2000 / 1 / 1 / 1 | 0.5 | 0.2 | 0.8 |\n\n" +
      "| HTTP / canvas | new flat badge over HTTP, p50 ms |\n| --- | --- |\n| 2x | 1.1 |\n";
    expect(flatBadge(swapped)).toEqual({ fast: 0.2, served: 0.8, canvas: 0.5, fastLabelsCleared: 0.3, servedBytes: 2000, newOverHttp: 1.1 });
  });

  test("a renamed column, a missing row or a cell that is not a time or a byte count fails loudly", () => {
    expect(() => flatBadge(output.replace("ours, fast PNG", "ours, quick PNG"))).toThrow('no table with the columns "ours, fast PNG"');
    expect(() => flatBadge(output.replace("| flat |", "| flat-ish |"))).toThrow('no row "flat"');
    expect(() => flatBadge(output.replace("ours, fast PNG, labels cleared", "ours, labels cleared"))).toThrow('"ours, fast PNG, labels cleared"');
    expect(() => flatBadge(output.replace("| flat | 0.399 | 0.056 |", "| flat | 0.399 | - |"))).toThrow('"ours, fast PNG" is not a time');
    expect(() => flatBadge(output.replace("| 0.056 | 0.075 |", "| 0.056 | - |"))).toThrow('"ours, fast PNG, labels cleared" is not a time');
    expect(() => flatBadge(output.replace("| 2482 / 2609", "| - / 2609"))).toThrow("is not a byte count");
    expect(() => flatBadge(output.replace("new flat badge over HTTP", "new badge"))).toThrow('no table with the columns "new flat badge over HTTP, p50 ms"');
    expect(() => flatBadge(output.replace("| 0.698 | 0.693 |", "| - | 0.693 |"))).toThrow('"new flat badge over HTTP, p50 ms" is not a time');
  });
});
