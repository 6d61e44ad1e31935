import { describe, expect, test } from "bun:test";
import { parseTimestamp } from "../../src/auth/timestamp.ts";

describe("parseTimestamp", () => {
  test("reads values up to 10^12 as seconds and larger ones as milliseconds", () => {
    expect(parseTimestamp("1700000000")).toBe(1_700_000_000_000);
    expect(parseTimestamp("1000000000000")).toBe(1e15); // 10^12 itself is seconds
    expect(parseTimestamp("1000000000001")).toBe(1_000_000_000_001);
    expect(parseTimestamp("1700000000000")).toBe(1_700_000_000_000);
  });
});
