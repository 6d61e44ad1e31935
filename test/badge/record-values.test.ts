import { expect, test } from "bun:test";
import { MAX_MESSAGE_CHARACTERS, asAmount, asCount, asListSize, asText, capMessage, firstOf, valueAt } from "../../src/badge/record-values.ts";

test("meta reads take the type they need and the first spelling sent", () => {
  const meta = { alpha: { id: 123, downloads: "456", bad: -1, issues: [1, 2, 3] }, beta: { project_id: " ezshops " }, list: [1] };
  expect(valueAt(meta, "alpha.downloads")).toBe("456");
  expect(valueAt(meta, "list.0")).toBeUndefined(); // lists are not walked into
  expect(valueAt(meta, "alpha.downloads.x")).toBeUndefined();
  expect(asCount(valueAt(meta, "alpha.downloads"))).toBe(456);
  expect(asCount(valueAt(meta, "alpha.bad"))).toBeUndefined();
  expect(asCount(Number.NaN)).toBeUndefined();
  expect(asText(valueAt(meta, "alpha.id"))).toBe("123");
  expect(asText({})).toBeUndefined();
  expect(firstOf(meta, ["beta.id", "beta.project_id"], asText)).toBe("ezshops");
  expect(asListSize(valueAt(meta, "alpha.issues"))).toBe(3);
  expect(asListSize(7)).toBe(7);
});

test("counts are whole numbers, rounded; amounts keep their fractions; -0 is 0", () => {
  expect([1e-7, 0.5, 12.7, "12.5", -0, 1e15].map(asCount)).toEqual([0, 1, 13, 13, 0, 1e15]);
  expect(Object.is(asCount(-0), 0)).toBe(true);
  expect([4.6, "4.5", 1e-7].map(asAmount)).toEqual([4.6, 4.5, 1e-7]);
  expect([-1, "1e3", "-2", Number.POSITIVE_INFINITY].map(asCount)).toEqual([undefined, undefined, undefined, undefined]);
  expect(asListSize(2.6)).toBe(3);
  expect(asText(1e-7)).toBe("0.0000001");
});

test("long messages end in an ellipsis", () => {
  const long = "x".repeat(MAX_MESSAGE_CHARACTERS + 10);
  expect([...capMessage(long)]).toHaveLength(MAX_MESSAGE_CHARACTERS);
  expect(capMessage(long).endsWith("\u2026")).toBe(true);
  expect(capMessage("short")).toBe("short");
});
