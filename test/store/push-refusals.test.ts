// The store's count of refused server pushes (src/store/push-refusals.ts) on
// every backend: counts add up per UUID, code and token, a day bounds them,
// MAX_REFUSAL_ROWS bounds the table (the rows refused longest ago go), and
// instances adding at once keep both the counts and the bound.

import { expect, test } from "bun:test";
import { MAX_REFUSAL_ROWS, REFUSALS_KEPT_MS, type RefusalCount } from "../../src/store/push-refusals.ts";
import { forEachBackend } from "../support/backends.ts";

const A = "00000000-0000-4000-8000-00000000000a";
const B = "00000000-0000-4000-8000-00000000000b";
const NOW = 1_765_000_000_000;

function refusal(serverUuid: string, code: string, tokenId: number | null, lastAt: number, count = 1): RefusalCount {
  return { serverUuid, code, tokenId, count, lastAt };
}

/** The UUID of the n-th of many servers. */
function nth(n: number): string {
  return `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
}

forEachBackend("refused pushes", (open, openTwo) => {
  test("add up per server UUID, code and token, the latest first; a token sees only the refusals of requests it authenticated", async () => {
    const store = await open();
    await store.refusals.add([refusal(A, "bad_signature", null, NOW, 3), refusal(A, "not_owner", 7, NOW + 1), refusal(B, "not_owner", 8, NOW + 2)], NOW + 2);
    await store.refusals.add([refusal(A, "bad_signature", null, NOW + 5, 2), refusal(A, "not_owner", 8, NOW + 3)], NOW + 5);
    expect(await store.refusals.list(NOW - 1)).toEqual([
      refusal(A, "bad_signature", null, NOW + 5, 5),
      refusal(A, "not_owner", 8, NOW + 3),
      refusal(B, "not_owner", 8, NOW + 2),
      refusal(A, "not_owner", 7, NOW + 1),
    ]);
    expect(await store.refusals.list(NOW - 1, 8)).toEqual([refusal(A, "not_owner", 8, NOW + 3), refusal(B, "not_owner", 8, NOW + 2)]);
    expect(await store.refusals.list(NOW + 3)).toEqual([refusal(A, "bad_signature", null, NOW + 5, 5), refusal(A, "not_owner", 8, NOW + 3)]);
    // A batch counted out of order keeps the latest time.
    await store.refusals.add([refusal(B, "not_owner", 8, NOW, 1)], NOW + 6);
    expect((await store.refusals.list(NOW - 1, 8)).find((row) => row.serverUuid === B)).toEqual(refusal(B, "not_owner", 8, NOW + 2, 2));
  });

  test("a refusal is dropped a day after its last time", async () => {
    const store = await open();
    await store.refusals.add([refusal(A, "stale_timestamp", 1, NOW), refusal(B, "stale_timestamp", 1, NOW + 10)], NOW + 10);
    await store.refusals.add([refusal(B, "stale_timestamp", 1, NOW + REFUSALS_KEPT_MS)], NOW + REFUSALS_KEPT_MS + 1);
    expect(await store.refusals.list(0)).toEqual([refusal(B, "stale_timestamp", 1, NOW + REFUSALS_KEPT_MS, 2)]);
  });

  test(`the table keeps ${MAX_REFUSAL_ROWS} rows: past them the rows refused longest ago are dropped, and a row refused again stays`, async () => {
    const store = await open();
    const many = Array.from({ length: MAX_REFUSAL_ROWS }, (_, n) => refusal(nth(n), "unknown_token", null, NOW + n));
    await store.refusals.add(many, NOW + MAX_REFUSAL_ROWS);
    expect(await store.refusals.list(0)).toHaveLength(MAX_REFUSAL_ROWS);
    // Server 0, the oldest, is refused again; then five new UUIDs arrive.
    const later = NOW + 2 * MAX_REFUSAL_ROWS;
    await store.refusals.add([refusal(nth(0), "unknown_token", null, later)], later);
    await store.refusals.add(Array.from({ length: 5 }, (_, n) => refusal(nth(MAX_REFUSAL_ROWS + n), "bad_signature", null, later + 1)), later + 1);
    const kept = new Set((await store.refusals.list(0)).map((row) => row.serverUuid));
    expect(kept.size).toBe(MAX_REFUSAL_ROWS);
    expect([0, 1, 2, 3, 4, 5, 6].map((n) => kept.has(nth(n)))).toEqual([true, false, false, false, false, false, true]);
    expect(kept.has(nth(MAX_REFUSAL_ROWS + 4))).toBe(true);
  });

  test("two instances counting the same refusal at once make one row that counts both", async () => {
    const [one, two] = await openTwo();
    for (let round = 0; round < 5; round++) {
      await Promise.all([one, two].map((store) => store.refusals.add([refusal(A, "not_owner", 3, NOW + round)], NOW + round)));
    }
    expect(await one.refusals.list(0)).toEqual([refusal(A, "not_owner", 3, NOW + 4, 10)]);
    expect(await two.refusals.list(0)).toEqual(await one.refusals.list(0));
  });

  test("two instances adding many new refusals at once keep the bound exactly", async () => {
    const [one, two] = await openTwo();
    const batch = (from: number, length: number) => Array.from({ length }, (_, n) => refusal(nth(from + n), "invalid_payload", 1, NOW + from + n));
    await one.refusals.add(batch(0, MAX_REFUSAL_ROWS), NOW + MAX_REFUSAL_ROWS);
    // Rounds of both adding newer refusals at the same moment: each round pushes out as many of the oldest.
    for (let round = 0; round < 5; round++) {
      const from = MAX_REFUSAL_ROWS + round * 600;
      await Promise.all([one.refusals.add(batch(from, 300), NOW + from + 300), two.refusals.add(batch(from + 300, 300), NOW + from + 600)]);
      const kept = await one.refusals.list(0);
      expect(kept).toHaveLength(MAX_REFUSAL_ROWS);
      // The newest are kept.
      expect(kept.at(-1)!.serverUuid).toBe(nth(from + 600 - MAX_REFUSAL_ROWS));
    }
  });
});
