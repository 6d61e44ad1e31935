import { expect, test } from "bun:test";
import { MAX_MESSAGE_CHARACTERS, asCount, asListSize, asText, capMessage, firstOf, valueAt } from "../../src/badge/values.ts";

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

test("long messages end in an ellipsis", () => {
  const long = "x".repeat(MAX_MESSAGE_CHARACTERS + 10);
  expect([...capMessage(long)]).toHaveLength(MAX_MESSAGE_CHARACTERS);
  expect(capMessage(long).endsWith("\u2026")).toBe(true);
  expect(capMessage("short")).toBe("short");
});
