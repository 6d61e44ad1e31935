// The report's table and number formatting.

import { describe, expect, test } from "bun:test";
import { count, mib, micros, ms, table, times } from "../../bench/report/markdown.ts";

describe("table", () => {
  test("a header, a separator and one line per row", () => {
    expect(table(["a", "b"], [["x", 1], ["y", 2.5]])).toBe("| a | b |\n| --- | --- |\n| x | 1 |\n| y | 2.5 |");
  });

  test("a | or a line break inside a cell cannot break the table", () => {
    expect(table(["label"], [["downloads | 13k"], ["two\nlines"]])).toBe("| label |\n| --- |\n| downloads \\| 13k |\n| two lines |");
  });

  test("a row of the wrong width is refused", () => {
    expect(() => table(["a", "b"], [["only one"]])).toThrow("1 cells under 2 columns");
    expect(() => table(["a"], [["x", "y"]])).toThrow("2 cells under 1 columns");
  });

  test("no rows: the header alone", () => {
    expect(table(["a"], [])).toBe("| a |\n| --- |");
  });
});

describe("numbers", () => {
  test("milliseconds: three decimals below 1, two below 100, none above", () => {
    expect(ms(0.1234)).toBe("0.123");
    expect(ms(1.5)).toBe("1.50");
    expect(ms(99.994)).toBe("99.99");
    expect(ms(123.4)).toBe("123");
  });

  test("counts with thousands separators, ratios with an x, MiB and µs", () => {
    expect(count(1234567.4)).toBe("1,234,567");
    expect(times(0.456)).toBe("0.46x");
    expect(times(12.34)).toBe("12.3x");
    expect(mib(64 * 2 ** 20)).toBe("64");
    expect(micros(57.25)).toBe("57.3");
  });

  test("a figure that could not be measured shows as -", () => {
    for (const format of [ms, count, times, mib, micros]) expect(format(Number.NaN)).toBe("-");
    expect(times(Number.POSITIVE_INFINITY)).toBe("-");
  });
});
