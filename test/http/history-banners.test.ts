// The sparkline over 7 days, drawn from the history roll-ups, and the rule
// that a live lookup (data_mode=query) stores no history.

import { afterEach, describe, expect, test } from "bun:test";
import type { HistoryPoint, ServerBannerData } from "../../src/banner/model.ts";
import { DEFAULT_SERVER_NAMES } from "../../src/banner/resolve-banner-data.ts";
import { renderBanner } from "../../src/banner/templates/index.ts";
import { LookupService } from "../../src/lookup/lookup-service.ts";
import { DAY_MS, HOUR_MS, MINUTE_MS } from "../../src/store/history.ts";
import { pushWeek, STALE_SECONDS, sweepAll, WEEK_START } from "../support/history.ts";
import { decodeImage, differingPixels } from "../support/images.ts";
import { startCountingPeer, type CountingPeer } from "../support/java-peers.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

const UUID = "00000000-0000-4000-8000-000000000023";
const NOW = WEEK_START + 7 * DAY_MS + 10 * MINUTE_MS;
const SIZE = { width: 728, height: 90 };

let server: TestServer;
let peer: CountingPeer | undefined;
afterEach(async () => {
  await server.close();
  await peer?.close();
  peer = undefined;
});

const banner = (query: string) => fetch(`${server.url}/api/banner${query}`, { headers: { Accept: "image/png" } });

describe("the sparkline's range", () => {
  test("range=7d charts each hour's highest count of the week from the roll-ups, ending at the current value", async () => {
    server = await startTestServer({ PENNANT_STALE_AFTER: String(STALE_SECONDS) }, { clockStart: NOW });
    await pushWeek(server.store, UUID);
    await sweepAll(server.store, NOW);
    const response = await banner(`?data_mode=plugin&server_uuid=${UUID}&template_key=sparkline&size=728x90&range=7d`);
    expect(response.status).toBe(200);
    // Every hour of the week but the three of the gap's updates (day 2, 00:00 to 03:00), 50 at day 3, 01:00.
    const history: HistoryPoint[] = [];
    for (let at = WEEK_START; at < WEEK_START + 7 * DAY_MS; at += HOUR_MS) {
      if (at >= WEEK_START + 2 * DAY_MS && at < WEEK_START + 2 * DAY_MS + 3 * HOUR_MS) continue;
      history.push({ at, online: at === WEEK_START + 3 * DAY_MS + HOUR_MS ? 50 : 10 });
    }
    // The last update was 20 minutes ago, past PENNANT_STALE_AFTER: offline, the chart ends at 0.
    const expected: ServerBannerData = {
      name: DEFAULT_SERVER_NAMES.java, status: "offline", players: null, motd: ["", ""], version: null, latencyMs: null, favicon: null,
      history: [...history, { at: NOW, online: 0 }], historyRange: "7d", address: null,
    };
    const shown = await decodeImage(response);
    expect(differingPixels(shown, renderBanner("sparkline", expected, { size: SIZE, theme: "dark", scale: 1 }))).toBe(0);
    // The default range draws the last day only: another image.
    const day = await decodeImage(await banner(`?data_mode=plugin&server_uuid=${UUID}&template_key=sparkline&size=728x90`));
    expect(Buffer.from(day.data).equals(Buffer.from(shown.data))).toBe(false);
  });

  test("a range the sparkline does not draw is a 400 naming the ones it does", async () => {
    server = await startTestServer();
    const response = await fetch(`${server.url}/api/banner?data_mode=plugin&server_uuid=${UUID}&template_key=sparkline&range=1y`);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(`range must be 24h or 7d or 30d, not "1y"`);
  });
});

test("a server looked up in query mode gains no stored history", async () => {
  peer = await startCountingPeer("modern");
  server = await startTestServer({}, { lookup: new LookupService({ allowPrivate: true }) });
  for (const template of ["sparkline", "minimal-status"]) {
    const response = await banner(`?data_mode=query&ip_address=127.0.0.1:${peer.port}&template_key=${template}`);
    expect(response.status).toBe(200);
  }
  expect(peer.connections).toBeGreaterThan(0);
  await sweepAll(server.store, server.clock.now + DAY_MS);
  for (const table of ["servers", "server_samples", "server_history"]) {
    expect([table, server.db.$client.query(`SELECT count(*) AS n FROM ${table}`).get()]).toEqual([table, { n: 0 }]);
  }
});
