// The in-memory tally of refused server pushes (src/serve/refusal-tally.ts)
// over a real SQLite store: a refused request costs a map update, a flush one
// batch; between two flushes it holds at most MAX_REFUSALS_PER_BATCH keys.

import { expect, test } from "bun:test";
import { join } from "node:path";
import { createLogger } from "../../src/log.ts";
import { RefusalTally } from "../../src/serve/refusal-tally.ts";
import { MAX_REFUSALS_PER_BATCH } from "../../src/store/push-refusals.ts";
import { openSqliteStore } from "../../src/store/sqlite-store.ts";
import type { Store } from "../../src/store/store.ts";
import { tempDir, track } from "../support/cleanup.ts";

const NOW = 1_765_000_000_000;

function tally(): { store: Store; tally: RefusalTally; lines: string[]; adds: () => number } {
  const store = openSqliteStore(join(tempDir("tally"), "pennant.db"));
  track(() => store.close());
  let adds = 0;
  const add = store.refusals.add.bind(store.refusals);
  store.refusals.add = (counts, now) => ((adds += 1), add(counts, now));
  const lines: string[] = [];
  const log = createLogger({ level: "warn", write: (line) => lines.push(line) });
  return { store, tally: new RefusalTally({ store, now: () => NOW + 10, log }), lines, adds: () => adds };
}

/** The UUID of the n-th of many servers. */
const nth = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

test("refusals are counted in memory and written by the flush, one batch for many refusals", async () => {
  const { store, tally: counted, adds } = tally();
  for (let n = 0; n < 500; n++) counted.count(nth(1), "bad_signature", null, NOW + n);
  counted.count(nth(1), "not_owner", 4, NOW);
  expect(await store.refusals.list(0)).toEqual([]);
  await counted.flush();
  expect(adds()).toBe(1);
  expect(await store.refusals.list(0)).toEqual([
    { serverUuid: nth(1), code: "bad_signature", tokenId: null, count: 500, lastAt: NOW + 499 },
    { serverUuid: nth(1), code: "not_owner", tokenId: 4, count: 1, lastAt: NOW },
  ]);
  // Nothing counted since: the flush writes nothing.
  await counted.flush();
  expect(adds()).toBe(1);
});

test(`between two flushes at most ${MAX_REFUSALS_PER_BATCH} keys are held: a new key past them is not counted, and the flush says how many were not`, async () => {
  const { store, tally: counted, lines } = tally();
  for (let n = 0; n <= MAX_REFUSALS_PER_BATCH; n++) counted.count(nth(n), "unknown_token", null, NOW);
  // A key already held goes on counting.
  counted.count(nth(0), "unknown_token", null, NOW + 1);
  await counted.flush();
  const rows = await store.refusals.list(0);
  expect(rows).toHaveLength(MAX_REFUSALS_PER_BATCH);
  expect(rows.some((row) => row.serverUuid === nth(MAX_REFUSALS_PER_BATCH))).toBe(false);
  expect(rows[0]).toMatchObject({ serverUuid: nth(0), count: 2 });
  expect(lines).toEqual([expect.stringContaining('"uncounted":1')]);
  // The next interval starts empty.
  counted.count(nth(MAX_REFUSALS_PER_BATCH), "unknown_token", null, NOW + 2);
  await counted.stop();
  expect((await store.refusals.list(0)).some((row) => row.serverUuid === nth(MAX_REFUSALS_PER_BATCH))).toBe(true);
});

test("a flush the store refuses is dropped with a warning, not kept to grow", async () => {
  const { store, tally: counted, lines } = tally();
  const add = store.refusals.add;
  store.refusals.add = () => Promise.reject(new Error("database is locked"));
  counted.count(nth(1), "bad_signature", null, NOW);
  await counted.stop();
  store.refusals.add = add;
  await counted.flush();
  expect(await store.refusals.list(0)).toEqual([]);
  expect(lines).toEqual([expect.stringContaining("refused pushes could not be recorded")]);
});
