// Reading and summing history is work like drawing (issue 38, point 1): a
// 100-server network's 30-day chart sums 864,000 buckets, and SQLite reads
// them on the answering thread. Read a slice at a time, the answering thread
// answers /healthz between slices while four addresses ask for uncached
// network charts and yearly histories; a repeat reads nothing, and a refresh
// after the sweep moves reads only what moved; what is read from the store
// spends the client's draw budget (PENNANT_DRAW_BUDGET). (Speed itself is
// measured by the bench: bench/history-storm.ts.)

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { FIVE_MINUTES_MS } from "../../src/store/history.ts";
import type { SqliteStore } from "../../src/store/sqlite-store.ts";
import { seedNetworkHistory } from "../support/history.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

const NOW = Date.UTC(2026, 10, 30, 12, 2);
const MEMBERS = 100;

/** Counts the store's history reads and the buckets their spans cover. */
function countReads(store: SqliteStore) {
  const counts = { reads: 0, buckets: 0 };
  const steps = store.history.steps.bind(store.history);
  store.history.steps = (uuid, levelMs, stepMs, since, before) => {
    counts.reads += 1;
    counts.buckets += (before - since) / levelMs;
    return steps(uuid, levelMs, stepMs, since, before);
  };
  return counts;
}

describe("a large network's history", () => {
  let server: TestServer;
  let uuids: string[];
  let reads: { reads: number; buckets: number };

  beforeAll(async () => {
    server = await startTestServer(
      { PENNANT_TRUST_PROXY: "on", PENNANT_RATE_LIMIT: "1000000/60", PENNANT_DRAW_BUDGET: "1000000/60" },
      { clockStart: NOW },
    );
    uuids = await seedNetworkHistory(server.store as SqliteStore, { slug: "big", count: MEMBERS, now: NOW, fiveMinuteDays: 30, hourDays: 365 });
    reads = countReads(server.store as SqliteStore);
  }, 120_000);
  afterAll(() => server.close());

  const chart = (range: string, from: string) =>
    fetch(`${server.url}/api/banner?data_mode=network&network=big&template_key=sparkline&range=${range}&server_name=${crypto.randomUUID()}`, {
      headers: { "X-Forwarded-For": from },
    });
  const yearOf = (uuid: string, from: string) => fetch(`${server.url}/api/servers/${uuid}/history?range=1y`, { headers: { "X-Forwarded-For": from } });

  test("/healthz is answered between the slices while four addresses ask for uncached network charts and a yearly history", async () => {
    let attackDone = false;
    const asks = [chart("30d", "192.0.2.1"), chart("7d", "192.0.2.2"), chart("24h", "192.0.2.3"), yearOf(uuids[0]!, "192.0.2.4")];
    const attack = Promise.all(asks).finally(() => (attackDone = true));
    // How many store reads had been made when each /healthz was answered: read in one piece, the
    // charts held the answering thread from their first read to their last, and every answer saw
    // a count from before them or after one of them (five at most).
    const readsSeen = new Set<number>();
    while (!attackDone) {
      const health = await fetch(`${server.url}/healthz`);
      expect(health.status).toBe(200);
      readsSeen.add(reads.reads);
    }
    expect((await attack).map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    expect(readsSeen.size).toBeGreaterThan(20);
  }, 120_000);

  test("a repeat reads nothing, whatever the banner's text; a refresh after the sweep moves reads only what moved", async () => {
    const first = { ...reads };
    expect((await chart("30d", "192.0.2.9")).status).toBe(200);
    expect(reads).toEqual(first);

    // The sweep writes five more minutes: the mark moves, the clock too.
    server.clock.now += FIVE_MINUTES_MS;
    server.db.$client.query("update history_marks set five_minutes_until = five_minutes_until + ?").run(FIVE_MINUTES_MS);
    expect((await chart("30d", "192.0.2.9")).status).toBe(200);
    const refreshed = reads.buckets - first.buckets;
    // A whole read is 100 x 8,640 buckets; a refresh, the range's two partial steps and a new one: at most 3 x 36 a member.
    expect(refreshed).toBeGreaterThan(0);
    expect(refreshed).toBeLessThanOrEqual(MEMBERS * 3 * 36);
  }, 60_000);
});

describe("history read from the store spends the draw budget", () => {
  test("an uncached 30-day chart of 30 members (360 units) is refused at a 300-unit budget; a year of one server (13 units) is not, and its repeat is free", async () => {
    const server = await startTestServer({ PENNANT_TRUST_PROXY: "on", PENNANT_DRAW_BUDGET: "300/60" }, { clockStart: NOW });
    const uuids = await seedNetworkHistory(server.store as SqliteStore, { slug: "mid", count: 30, now: NOW, fiveMinuteDays: 30, hourDays: 365 });
    const refused = await fetch(`${server.url}/api/banner?data_mode=network&network=mid&template_key=sparkline&range=30d`, { headers: { "X-Forwarded-For": "192.0.2.1" } });
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("rate_limited");

    const year = (from: string) => fetch(`${server.url}/api/servers/${uuids[0]}/history?range=1y`, { headers: { "X-Forwarded-For": from } });
    expect((await year("192.0.2.2")).status).toBe(200);
    // Charged again, 30 reads of 13 units would pass the 300: answered from the cache, they cost nothing.
    for (let i = 0; i < 30; i++) expect((await year("192.0.2.2")).status).toBe(200);
    await server.close();
  }, 120_000);
});
