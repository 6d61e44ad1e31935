import { expect, test } from "bun:test";
import { CacheBudget } from "../../src/cache/budget.ts";
import { FIVE_MINUTES_MS, HOUR_MS, MINUTE_MS, DAY_MS, type HistoryBucket } from "../../src/store/history.ts";
import { HISTORY_RANGES, ServerHistories, UNCHARGED, type ServerHistory } from "../../src/store/history-ranges.ts";
import type { Store } from "../../src/store/store.ts";
import { forEachBackend } from "../support/backends.ts";
import { pushUpdate, pushWeek, sqliteStore, STALE_SECONDS, sweepAll, WEEK_START } from "../support/history.ts";

const T0 = WEEK_START;
const STALE_MS = STALE_SECONDS * 1000;
const UUID = "00000000-0000-4000-8000-000000000023";

type Bucket = Omit<HistoryBucket, "serverUuid" | "stepMs">;

/** A level's buckets as the store sums them, one step a bucket, with the level's mark. */
async function levelOf(store: Store, levelMs: number): Promise<{ buckets: Bucket[]; until: number }> {
  const marks = await store.history.marks();
  const steps = await store.history.steps(UUID, levelMs, levelMs, 0, Number.MAX_SAFE_INTEGER);
  return {
    buckets: steps.map(({ at, min, max, playersSum, samples, online }) => ({
      at, playersMin: min, playersAvg: samples > 0 ? playersSum / samples : null, playersMax: max, samples, online,
    })),
    until: levelMs === HOUR_MS ? marks.hoursUntil : marks.fiveMinutesUntil,
  };
}

const byAt = (buckets: Bucket[]) => new Map(buckets.map((bucket) => [bucket.at, bucket]));

/** Every range of `store`'s server read at `now` by a new reader, its numbers to 9 decimals (sums taken in another order differ in the last bits). */
async function everyRange(store: Store, now: number): Promise<ServerHistory[]> {
  const server = (await store.servers.get(UUID))!;
  const rounded = (value: unknown): unknown =>
    typeof value === "number" && !Number.isInteger(value) ? Math.round(value * 1e9) / 1e9 : Array.isArray(value) ? value.map(rounded) : value && typeof value === "object" ? Object.fromEntries(Object.entries(value).map(([key, v]) => [key, rounded(v)])) : value;
  const reader = new ServerHistories(store, new CacheBudget(), STALE_MS);
  return Promise.all(HISTORY_RANGES.map(async (range) => rounded(await reader.read(server, range, now, UNCHARGED)) as ServerHistory));
}

/** The spans `store` is asked to read below the marks: samples, and 5-minute buckets for the year's steps of a day. */
function unrolledReads(store: Store): { samples: number[]; fiveMinutes: number[] } {
  const spans = { samples: [] as number[], fiveMinutes: [] as number[] };
  const samples = store.history.unrolledSamples.bind(store.history);
  store.history.unrolledSamples = (uuid, since, before, staleAfterMs) => (spans.samples.push(before - since), samples(uuid, since, before, staleAfterMs));
  const steps = store.history.steps.bind(store.history);
  store.history.steps = (uuid, levelMs, stepMs, since, before) => {
    if (levelMs === FIVE_MINUTES_MS && stepMs === DAY_MS) spans.fiveMinutes.push(before - since);
    return steps(uuid, levelMs, stepMs, since, before);
  };
  return spans;
}

forEachBackend("history roll-ups", (open) => {
  test("a week of updates gives the right 5-minute and hourly buckets, drops samples past a day, and a second sweep changes nothing", async () => {
    const store = await open();
    await pushWeek(store, UUID);
    const now = T0 + 7 * DAY_MS + 10 * MINUTE_MS;
    await sweepAll(store, now);

    const five = await levelOf(store, FIVE_MINUTES_MS);
    const fives = byAt(five.buckets);
    expect(five.until).toBe(T0 + 7 * DAY_MS + 5 * MINUTE_MS);
    expect(fives.get(T0 + 2 * DAY_MS)).toMatchObject({ online: 1, samples: 0, playersMax: null });
    expect(fives.has(T0 + 2 * DAY_MS + 5 * MINUTE_MS)).toBe(false);
    expect(fives.get(T0 + 2 * DAY_MS + 3 * HOUR_MS)).toMatchObject({ online: 1, samples: 1, playersMin: 10, playersAvg: 10, playersMax: 10 });
    expect(fives.get(T0 + 3 * DAY_MS + HOUR_MS)).toMatchObject({ online: 1, samples: 1, playersMax: 50 });
    // 7 days of 5-minute buckets, less the 35 of the 2 h 55 min offline.
    expect(five.buckets.length).toBe(7 * 288 - 35 + 1);

    const hours = await levelOf(store, HOUR_MS);
    const hourly = byAt(hours.buckets);
    expect(hours.until).toBe(T0 + 7 * DAY_MS);
    expect(hourly.get(T0 + 2 * DAY_MS)!.online).toBeCloseTo(1 / 12, 10);
    expect(hourly.has(T0 + 2 * DAY_MS + HOUR_MS)).toBe(false);
    expect(hourly.get(T0 + 3 * DAY_MS + HOUR_MS)).toMatchObject({ online: 1, samples: 6, playersMin: 10, playersMax: 50 });
    expect(hourly.get(T0 + 3 * DAY_MS + HOUR_MS)!.playersAvg).toBeCloseTo(100 / 6, 10);
    expect(hours.buckets.length).toBe(7 * 24 - 2);

    // Full resolution is kept a day: the samples from day 6, 00:00 on.
    expect((await store.servers.samples(UUID, 0)).length).toBe(144);

    expect(await store.history.sweep(now, STALE_MS)).toBe(false);
    expect(await levelOf(store, FIVE_MINUTES_MS)).toEqual(five);
    expect(await levelOf(store, HOUR_MS)).toEqual(hours);
  });

  test("updates saying offline count offline until the next update saying online, the latest of a minute deciding: the week's uptime exactly", async () => {
    const store = await open();
    const offlineFrom = T0 + 4 * DAY_MS + 12 * HOUR_MS;
    const offlineTo = T0 + 4 * DAY_MS + 18 * HOUR_MS;
    await pushWeek(store, UUID, (at) => (at >= offlineFrom && at < offlineTo ? "offline" : "online"));
    // Within a minute the latest update decides: offline from 11:50:30 (after that minute's online update at 11:50) ...
    await pushUpdate(store, UUID, offlineFrom - 10 * MINUTE_MS + 30_000, 0, "offline");
    // ... and online again from 18:00:30, the 18:00 minute's last word after an offline update at 18:00:00.
    await pushUpdate(store, UUID, offlineTo, 0, "offline");
    await pushUpdate(store, UUID, offlineTo + 30_000, 10, "online");
    const now = T0 + 7 * DAY_MS + 10 * MINUTE_MS;
    await sweepAll(store, now);

    const fives = byAt((await levelOf(store, FIVE_MINUTES_MS)).buckets);
    expect(fives.get(offlineFrom - 10 * MINUTE_MS)!.online).toBeCloseTo(0.1, 10);
    expect(fives.has(offlineFrom - FIVE_MINUTES_MS)).toBe(false);
    expect(fives.get(offlineFrom)).toMatchObject({ online: 0, samples: 1 });
    expect(fives.get(offlineTo)!.online).toBeCloseTo(0.9, 10);
    const server = (await store.servers.get(UUID))!;
    // The stale gap's 2 h 55 min, 6 h 10 min said offline and the 5 minutes since the last update went stale, of the 7 days counted.
    expect((await new ServerHistories(store, new CacheBudget(), STALE_MS).read(server, "7d", now, UNCHARGED)).uptime).toBeCloseTo((10080 - 175 - 370 - 5) / 10080, 10);
  });

  test("two sweeps at once write what one does", async () => {
    const one = await open();
    const two = await open();
    for (const store of [one, two]) {
      for (let at = T0; at < T0 + DAY_MS; at += 10 * MINUTE_MS) await pushUpdate(store, UUID, at, (at / MINUTE_MS) % 13);
    }
    const now = T0 + DAY_MS;
    await sweepAll(one, now);
    while ((await Promise.all([two.history.sweep(now, STALE_MS), two.history.sweep(now, STALE_MS)])).some(Boolean));
    for (const step of [FIVE_MINUTES_MS, HOUR_MS]) expect(await levelOf(two, step)).toEqual(await levelOf(one, step));
  });

  test("a server that never pushed has no buckets, and a sweep of an empty store does nothing", async () => {
    const store = await open();
    expect(await store.history.sweep(T0, STALE_MS)).toBe(false);
    expect(await levelOf(store, FIVE_MINUTES_MS)).toEqual({ buckets: [], until: 0 });
  });

  test("a reader that keeps what it read answers, as the sweep moves, exactly what a new reader does, reading only what moved", async () => {
    const store = await open();
    await pushWeek(store, UUID);
    const server = (await store.servers.get(UUID))!;
    const spans: number[] = [];
    const steps = store.history.steps.bind(store.history);
    store.history.steps = (uuid, levelMs, stepMs, since, before) => (spans.push((before - since) / levelMs), steps(uuid, levelMs, stepMs, since, before));
    const kept = new ServerHistories(store, new CacheBudget(), STALE_MS);
    // Every 20 minutes of the week's last two days, the sweep caught up: each range from the keeping reader and a new one.
    for (let now = T0 + 5 * DAY_MS; now <= T0 + 7 * DAY_MS; now += 20 * MINUTE_MS) {
      await sweepAll(store, now);
      for (const range of ["24h", "7d", "30d", "1y"] as const) {
        spans.length = 0;
        const answer = await kept.read(server, range, now, UNCHARGED);
        const read = spans.reduce((sum, buckets) => sum + buckets, 0);
        expect({ now, range, answer }).toEqual({ now, range, answer: await new ServerHistories(store, new CacheBudget(), STALE_MS).read(server, range, now, UNCHARGED) });
        // Past the first read: the range's two partial steps and what the sweep added (20 minutes, in 5-minute or hourly buckets).
        if (now > T0 + 5 * DAY_MS) expect({ now, range, read: read <= 2 * 288 + 8 }).toEqual({ now, range, read: true });
      }
    }
  }, 60_000);
});

forEachBackend("history read past the roll-ups", (open) => {
  test("what a read finds past the marks is what the sweep then writes: every range answers the same before and after it", async () => {
    const store = await open();
    const now = T0 + 12 * HOUR_MS + 47 * MINUTE_MS;
    for (let at = T0; at < now; at += 10 * MINUTE_MS) await pushUpdate(store, UUID, at, (at / MINUTE_MS) % 13, at === T0 + 11 * HOUR_MS ? "offline" : "online");
    // Nine minutes behind: the 5-minute level is written to 12:35, the hourly one to 12:00.
    await sweepAll(store, now - 9 * MINUTE_MS);
    expect(await store.history.marks()).toEqual({ fiveMinutesUntil: now - 12 * MINUTE_MS, hoursUntil: T0 + 12 * HOUR_MS });
    const read = unrolledReads(store);
    const before = await everyRange(store, now);
    expect(read).toEqual({ samples: [12 * MINUTE_MS, 12 * MINUTE_MS, 12 * MINUTE_MS, 12 * MINUTE_MS], fiveMinutes: [35 * MINUTE_MS] });
    expect(before[0]!.peak).toBe(12);
    await sweepAll(store, now);
    expect(await everyRange(store, now)).toEqual(before);
  });

  test("a minute on, the sweep not run since: a reader that keeps what it read reads nothing of the levels again, and answers as a new reader", async () => {
    const store = await open();
    const now = T0 + 7 * DAY_MS + 7 * MINUTE_MS;
    // Two updates in the 7-day range's first, partial hour (it starts at 00:05), then the last hour's.
    for (const at of [T0 + 17 * MINUTE_MS, T0 + 23 * MINUTE_MS]) await pushUpdate(store, UUID, at, 30);
    for (let at = now - HOUR_MS; at < now; at += 10 * MINUTE_MS) await pushUpdate(store, UUID, at, 10);
    await sweepAll(store, now);
    const server = (await store.servers.get(UUID))!;
    const kept = new ServerHistories(store, new CacheBudget(), STALE_MS);
    for (const range of HISTORY_RANGES) await kept.read(server, range, now, UNCHARGED);
    const levelReads: number[] = [];
    const steps = store.history.steps.bind(store.history);
    store.history.steps = (uuid, levelMs, stepMs, since, before) => (levelMs === HOUR_MS || stepMs !== DAY_MS ? levelReads.push(levelMs) : 0, steps(uuid, levelMs, stepMs, since, before));
    const later = await Promise.all(HISTORY_RANGES.map((range) => kept.read(server, range, now + MINUTE_MS, UNCHARGED)));
    expect(levelReads).toEqual([]);
    expect(later).toEqual(await Promise.all(HISTORY_RANGES.map((range) => new ServerHistories(store, new CacheBudget(), STALE_MS).read(server, range, now + MINUTE_MS, UNCHARGED))));
    expect(later[1]!.peak).toBe(30);
  });

  test("a sweep far behind: at most 15 minutes of samples read past its mark, and the time between counts neither online nor offline", async () => {
    const store = await open();
    const now = T0 + 6 * HOUR_MS;
    for (let at = T0; at < now; at += 10 * MINUTE_MS) await pushUpdate(store, UUID, at, 10);
    await sweepAll(store, T0 + HOUR_MS);
    const read = unrolledReads(store);
    const answers = await everyRange(store, now);
    expect(read.samples.every((span) => span <= 15 * MINUTE_MS)).toBe(true);
    expect(read.fiveMinutes.every((span) => span <= 2 * HOUR_MS)).toBe(true);
    // Online throughout, counted over what was read: the first 55 minutes rolled up, the last 15 read from the samples.
    expect(answers.map(({ range, uptime, peak }) => ({ range, uptime, peak }))).toEqual(HISTORY_RANGES.map((range) => ({ range, uptime: 1, peak: 10 })));
    expect(answers[0]!.points.map((point) => point.at)).toEqual([...Array.from({ length: 11 }, (_, i) => T0 + i * FIVE_MINUTES_MS), now - 15 * MINUTE_MS, now - 10 * MINUTE_MS, now - 5 * MINUTE_MS]);
  });
});

test("a year of minute samples swept: rows per server bounded by the levels' spans", async () => {
  const store = sqliteStore();
  await pushUpdate(store, UUID, T0, 1);
  const year = 365 * DAY_MS;
  store.db.$client.transaction(() => {
    const insert = store.db.$client.prepare("INSERT OR IGNORE INTO server_samples (server_uuid, at, players_online, players_max, tps) VALUES (?, ?, ?, 100, 20)");
    for (let at = T0; at < T0 + year; at += MINUTE_MS) insert.run(UUID, at, (at / MINUTE_MS) % 50);
  })();
  await sweepAll(store, T0 + year);
  const count = (sql: string) => (store.db.$client.query(sql).get() as { n: number }).n;
  expect(count("SELECT count(*) AS n FROM server_samples")).toBeLessThanOrEqual(24 * 60 + 15);
  expect(count("SELECT count(*) AS n FROM server_history WHERE step_ms = 300000")).toBeLessThanOrEqual(30 * 288 + 12);
  expect(count("SELECT count(*) AS n FROM server_history WHERE step_ms = 3600000")).toBeLessThanOrEqual(365 * 24);
  expect(count("SELECT count(*) AS n FROM server_history WHERE step_ms = 3600000")).toBeGreaterThan(364 * 24);
});

