import { expect, test } from "bun:test";
import { retryAt } from "../../src/alerts/delivery.ts";

test("a failing delivery is tried 8 times, waits doubling from 30 s, the last at the hour after the event and none past it", () => {
  const tries = [0];
  for (let attempts = 0; ; attempts++) {
    const next = retryAt({ createdAt: 0, attempts }, tries.at(-1)!);
    if (next === null) break;
    tries.push(next);
  }
  expect(tries.map((ms) => ms / 1000)).toEqual([0, 30, 90, 210, 450, 930, 1890, 3600]);
});
