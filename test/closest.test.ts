import { describe, expect, test } from "bun:test";
import { closest, editDistance } from "../src/closest.ts";

describe("edit distance", () => {
  test("counts single-character insertions, deletions and substitutions, and swaps of neighbours", () => {
    expect(editDistance("", "")).toBe(0);
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("abc", "")).toBe(3);
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("PENNANT_RATELIMIT", "PENNANT_RATE_LIMIT")).toBe(1);
    // Two neighbours swapped are one slip, not two.
    expect(editDistance("mirgate", "migrate")).toBe(1);
    expect(editDistance("PROT", "PORT")).toBe(1);
    expect(editDistance("ab", "ba")).toBe(1);
    expect(editDistance("abc", "ca")).toBe(3);
    expect(editDistance("sitting", "kitten")).toBe(editDistance("kitten", "sitting"));
  });

  test("closest: the nearest candidate, the first of equals, none from an empty list", () => {
    expect(closest("serv", ["token", "serve", "servers"])).toEqual({ name: "serve", distance: 1 });
    expect(closest("ab", ["xb", "ay"])).toEqual({ name: "xb", distance: 1 });
    expect(closest("word", [])).toBeUndefined();
  });
});
