import { afterEach, describe, expect, test } from "bun:test";
import { badgeColor } from "../../src/badge/colors.ts";
import { DAY_MS, MINUTE_MS } from "../../src/store/history.ts";
import { pushUpdate, pushWeek, STALE_SECONDS, sweepAll, WEEK_START } from "../support/history.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { json } from "../support/signing.ts";

const UUID = "00000000-0000-4000-8000-000000000023";
const QUIET = "00000000-0000-4000-8000-000000000024";
const NOW = WEEK_START + 7 * DAY_MS + 10 * MINUTE_MS;

let server: TestServer;
afterEach(() => server.close());

async function badge(path: string): Promise<{ message: string; color: string }> {
  const response = await fetch(`${server.url}/shields/servers/${path}`);
  expect(response.status).toBe(200);
  return json(response);
}

describe("uptime and peak badges", () => {
  test("over the simulated week: the range's uptime coloured by the thresholds of docs/badges.md, and its peak", async () => {
    server = await startTestServer({ PENNANT_STALE_AFTER: String(STALE_SECONDS) }, { clockStart: NOW });
    await pushWeek(server.store, UUID);
    await pushUpdate(server.store, QUIET, WEEK_START, 4);
    await sweepAll(server.store, NOW);

    // 9900 of 10080 minutes (the last 5 past the last update's staleness): 98.21%, shown rounded down.
    expect(await badge(`${UUID}/uptime.json?range=7d`)).toMatchObject({ label: "uptime", message: "98.2%", color: badgeColor("yellowgreen").css });
    expect(await badge(`${UUID}/uptime.json`)).toMatchObject({ message: "98.2%" });
    expect(await badge(`${UUID}/uptime.json?range=2w`)).toMatchObject({ message: "98.2%" });
    expect(await badge(`${UUID}/uptime.json?range=24h`)).toMatchObject({ message: "99.6%", color: badgeColor("green").css });
    expect(await badge(`${QUIET}/uptime.json?range=24h`)).toMatchObject({ message: "0%", color: badgeColor("red").css });
    expect(await badge(`${UUID}/peak.json?range=7d`)).toMatchObject({ label: "peak", message: "50", color: badgeColor("blue").css });
    expect(await badge(`${UUID}/peak.json?range=24h`)).toMatchObject({ message: "10" });
    expect(await badge(`${QUIET}/peak.json?range=24h`)).toMatchObject({ message: "N/A" });

    const png = await fetch(`${server.url}/shields/servers/${UUID}/uptime.png?range=7d`);
    expect(png.status).toBe(200);
    expect(png.headers.get("content-type")).toBe("image/png");
  });
});
