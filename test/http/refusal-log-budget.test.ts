// What the log's lines cannot show (test/http/request-log.test.ts shows the
// lines): the budget's table of clients stays bounded however many addresses
// send refusals, and is emptied when the window ends.

import { describe, expect, test } from "bun:test";
import { RefusalLogBudget, type HeldBack } from "../../src/http/refusal-log-budget.ts";

describe("RefusalLogBudget", () => {
  test("holds at most `total` clients, and none from an ended window", () => {
    const clock = { now: 1_000_000 };
    const reports: HeldBack[] = [];
    const budget = new RefusalLogBudget({ perClient: 3, total: 100, windowSeconds: 60 }, () => clock.now, (heldBack) => reports.push(heldBack));
    for (let i = 0; i < 10_000; i++) budget.admit(`10.0.${i >> 8}.${i & 255}`, i % 2 ? "not_found" : "bad_signature");
    expect(budget.size).toBe(100);
    clock.now += 60_000;
    expect(budget.admit("192.0.2.1", "not_found")).toEqual({ write: true });
    expect(budget.size).toBe(1);
    expect(reports).toEqual([{ count: 9_900, from: 1_000_000, to: 1_060_000 }]);
  });
});
