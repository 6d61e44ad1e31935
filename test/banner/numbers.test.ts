// The banner domain's pure helpers: counts.

import { describe, expect, test } from "bun:test";
import { compactCount, exactCount, THIN_SPACE } from "../../src/banner/numbers.ts";

describe("counts", () => {
  test("exact counts group digits with thin spaces from five digits on", () => {
    expect(exactCount(3)).toBe("3");
    expect(exactCount(1234)).toBe("1234");
    expect(exactCount(12_345)).toBe(`12${THIN_SPACE}345`);
    expect(exactCount(1_234_567, ",")).toBe("1,234,567");
    expect(exactCount(-5)).toBe("0");
    expect(exactCount(Number.NaN)).toBe("0");
    expect(exactCount(7.9)).toBe("7");
  });

  test("compact counts keep at most one decimal and never round up a unit", () => {
    expect(compactCount(999)).toBe("999");
    expect(compactCount(1000)).toBe("1k");
    expect(compactCount(1234)).toBe("1.2k");
    expect(compactCount(12_345)).toBe("12.3k");
    expect(compactCount(123_456)).toBe("123k");
    expect(compactCount(999_999)).toBe("999k");
    expect(compactCount(1_250_000)).toBe("1.2M");
    expect(compactCount(4_100)).toBe("4.1k");
    expect(compactCount(3e9)).toBe("3B");
  });
});
