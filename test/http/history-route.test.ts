import { afterEach, describe, expect, test } from "bun:test";
import { DAY_MS, HOUR_MS, MINUTE_MS } from "../../src/store/history.ts";
import { pushUpdate, pushWeek, sweepAll, WEEK_START, STALE_SECONDS } from "../support/history.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { json } from "../support/signing.ts";

const UUID = "00000000-0000-4000-8000-000000000023";
const QUIET = "00000000-0000-4000-8000-000000000024";
/**
 * Ten minutes after the week's last update: the 5-minute level is written up
 * to 5 minutes past the week, when that update went stale; the 5 minutes
 * since, read from the samples, count offline.
 */
const NOW = WEEK_START + 7 * DAY_MS + 10 * MINUTE_MS;

let server: TestServer;
afterEach(() => server.close());

async function weekServer(): Promise<TestServer> {
  server = await startTestServer({ PENNANT_STALE_AFTER: String(STALE_SECONDS) }, { clockStart: NOW });
  await pushWeek(server.store, UUID);
  await pushUpdate(server.store, QUIET, WEEK_START, 4);
  await sweepAll(server.store, NOW);
  return server;
}

const history = (query: string, uuid = UUID) => fetch(`${server.url}/api/servers/${uuid}/history${query}`);

describe("GET /api/servers/{server_uuid}/history", () => {
  test("a simulated week answers the right points, uptime and peak per range", async () => {
    await weekServer();
    const day = await history("");
    expect(day.status).toBe(200);
    expect(day.headers.get("cache-control")).toBe("public, max-age=60");
    expect(day.headers.get("access-control-allow-origin")).toBe("*");
    const dayBody = await json(day);
    expect(dayBody).toMatchObject({ uuid: UUID, range: "24h", step_seconds: 300, peak: 10 });
    expect(dayBody.uptime).toBeCloseTo(1435 / 1440, 10);
    expect(dayBody.points).toHaveLength(287);
    expect(dayBody.points[0]).toEqual({ t: new Date(WEEK_START + 6 * DAY_MS + 10 * MINUTE_MS).toISOString(), min: 10, avg: 10, max: 10, online: 1 });

    const week = await json(await history("?range=7d"));
    expect(week).toMatchObject({ range: "7d", step_seconds: 3600, peak: 50 });
    // Offline 2 h 55 min and the last 5 minutes of the 7 days counted.
    expect(week.uptime).toBeCloseTo(9900 / 10080, 10);
    expect(week.points).toHaveLength(7 * 24 + 1 - 2);
    const gapHour = week.points.find((point: { t: string }) => point.t === new Date(WEEK_START + 2 * DAY_MS).toISOString());
    expect(gapHour.online).toBeCloseTo(1 / 12, 10);
    const peakHour = week.points.find((point: { t: string }) => point.t === new Date(WEEK_START + 3 * DAY_MS + HOUR_MS).toISOString());
    expect(peakHour).toMatchObject({ min: 10, max: 50 });
    expect(peakHour.avg).toBeCloseTo(100 / 6, 10);

    const month = await json(await history("?range=30d"));
    expect(month).toMatchObject({ step_seconds: 10_800, peak: 50 });
    // Counted from the first push, not from 30 days back.
    expect(month.uptime).toBeCloseTo(9910 / 10090, 10);

    const year = await json(await history("?range=1y"));
    expect(year).toMatchObject({ step_seconds: 86_400, peak: 50 });
    // The hourly level ends with the week; its last 10 minutes are read from the 5-minute level (online 5) and the samples.
    expect(year.uptime).toBeCloseTo(9910 / 10090, 10);
    expect(year.points.map((point: { t: string }) => point.t)).toEqual(Array.from({ length: 8 }, (_, i) => new Date(WEEK_START + i * DAY_MS).toISOString()));
    expect(year.points[2].online).toBeCloseTo(1 - 175 / 1440, 10);
    expect(year.points[7]).toEqual({ t: new Date(WEEK_START + 7 * DAY_MS).toISOString(), min: null, avg: null, max: null, online: 0.5 });
  });

  test("a range with no data is an empty list, uptime 0 and no peak", async () => {
    await weekServer();
    expect(await json(await history("?range=24h", QUIET))).toEqual({ uuid: QUIET, range: "24h", step_seconds: 300, points: [], uptime: 0, peak: null });
  });

  test("an unknown server is a 404, a bad range or UUID a 400, each with a JSON error", async () => {
    await weekServer();
    const unknown = await history("", "00000000-0000-4000-8000-000000000099");
    expect(unknown.status).toBe(404);
    expect((await json(unknown)).error.code).toBe("unknown_server");
    const badRange = await history("?range=2w");
    expect(badRange.status).toBe(400);
    expect((await json(badRange)).error).toEqual({ code: "invalid_range", message: '"range" must be one of 24h, 7d, 30d, 1y' });
    const badUuid = await history("", "not-a-uuid");
    expect(badUuid.status).toBe(400);
    expect((await json(badUuid)).error.code).toBe("invalid_server_uuid");
  });
});
