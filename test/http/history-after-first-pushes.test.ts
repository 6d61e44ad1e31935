// Issue 40, point 7: the roll-ups lag now by about six minutes, so a history
// read only from them showed nothing right after a server's first pushes (no
// points, uptime null, the uptime badge "N/A"), as if the feature were broken.
// Everything that shows history reads the minutes not rolled up yet from the
// samples: three pushes a minute apart, read a minute after the last, already
// show their points, an uptime and their peak in the history API, the uptime
// and peak badges and the sparkline (a server's and a network's), on both
// backends, over real HTTP; the sweep then rolling them up changes no answer;
// and a cached answer follows a new push at once and the clock within a
// minute.

import { expect, test } from "bun:test";
import { join } from "node:path";
import { generateToken, hashToken } from "../../src/auth/token.ts";
import type { BannerOptions, HistoryPoint, ServerBannerData } from "../../src/banner/model.ts";
import { renderBanner } from "../../src/banner/templates/index.ts";
import { loadConfig } from "../../src/config.ts";
import { createLogger } from "../../src/log.ts";
import { createApp } from "../../src/serve/app.ts";
import { listen } from "../../src/serve/listen.ts";
import { MINUTE_MS } from "../../src/store/history.ts";
import type { Store } from "../../src/store/store.ts";
import { forEachBackend } from "../support/backends.ts";
import { tempDir, track } from "../support/cleanup.ts";
import { sweepAll } from "../support/history.ts";
import { decodeImage, differingPixels } from "../support/images.ts";
import { json, newUuid, signedRequest } from "../support/signing.ts";

/** The first push: 12:01:10, ten seconds into a minute and a minute into a 5-minute bucket. */
const FIRST = Date.UTC(2026, 5, 1, 12, 1, 10);
const BUCKET = Date.UTC(2026, 5, 1, 12, 0);
const DAY = Date.UTC(2026, 5, 1);
const SPARKLINE: BannerOptions = { size: { width: 728, height: 90 }, theme: "dark", scale: 1 };

/** Pennant over `store` on a loopback port, on the test's clock (PENNANT_STALE_AFTER 15 minutes, the default). */
async function serve(store: Store, clock: { now: number }): Promise<string> {
  const config = loadConfig({ PENNANT_DB: join(tempDir("history-first"), "unused.db"), PENNANT_RENDER_THREADS: "0" });
  const app = await createApp({ config, store, now: () => clock.now, log: createLogger({ level: "error", write: () => {} }) });
  const port = listen(app, "127.0.0.1", 0);
  track(() => app.stop(true));
  return `http://127.0.0.1:${port}`;
}

forEachBackend("history right after a server's first pushes", (open) => {
  test("three pushes a minute apart, read a minute after the last: points, uptime and peak in the API, the badges and the sparklines; the same once swept; fresh within a minute", async () => {
    const clock = { now: FIRST };
    const store = await open(() => clock.now);
    const url = await serve(store, clock);
    const token = generateToken();
    await store.tokens.create({ hash: hashToken(token), scope: "all", label: "test", now: clock.now });
    const uuid = newUuid();
    const push = async (players: number) => {
      const body = { name: "Hub", status: "online", stats: { players: { online: players, max: 100 } } };
      expect((await fetch(signedRequest(url, { path: "/api/server/update", token, serverUuid: uuid, body }, clock.now))).status).toBe(200);
    };
    for (const players of [3, 7, 5]) {
      await push(players);
      clock.now += MINUTE_MS;
    }
    expect((await fetch(signedRequest(url, { method: "PUT", path: "/api/networks/hub", token, body: { name: "Hub Network", servers: [uuid] } }, clock.now))).status).toBe(200);
    // As `serve` would have: the sweep ran, and rolled up nothing (no 5-minute bucket has settled).
    await sweepAll(store, clock.now);
    expect(await store.history.marks()).toEqual({ fiveMinutesUntil: 0, hoursUntil: 0 });

    const history = async (range: string) => json(await fetch(`${url}/api/servers/${uuid}/history?range=${range}`));
    /** The SVG badge's text, as a browser shows it. */
    const svgSays = async (path: string, message: string) => {
      const response = await fetch(`${url}/shields/servers/${uuid}/${path}`);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain(`>${message}</text>`);
    };
    const sparkline = async (query: string) => decodeImage(await fetch(`${url}/api/banner?template_key=sparkline&size=728x90&theme=dark&${query}`, { headers: { Accept: "image/png" } }));
    /** Each range's one point with players, online throughout, its uptime and peak; the badges; both sparklines over 7 days. */
    const expectShown = async (point: { min: number; avg: number; max: number }, sparkAt: number) => {
      for (const [range, at] of [["24h", BUCKET], ["7d", BUCKET], ["30d", BUCKET], ["1y", DAY]] as const) {
        const answer = await history(range);
        const withPlayers = answer.points.filter((shown: { max: number | null }) => shown.max !== null);
        expect({ range, points: withPlayers, uptime: answer.uptime, peak: answer.peak }).toEqual({
          range, points: [{ t: new Date(at).toISOString(), ...point, online: expect.closeTo(1, 10) }], uptime: expect.closeTo(1, 10), peak: point.max,
        });
        for (const shown of answer.points) expect(shown.online).toBeCloseTo(1, 10);
      }
      await svgSays("uptime.svg", "100%");
      await svgSays("peak.svg", String(point.max));
      const chart: HistoryPoint[] = [{ at: BUCKET, online: point.max }, { at: Math.floor(clock.now / MINUTE_MS) * MINUTE_MS, online: sparkAt }];
      const server: ServerBannerData = {
        name: "Hub", status: "online", players: { online: sparkAt, max: 100 }, motd: ["", ""], version: null, latencyMs: null, favicon: null,
        history: chart, historyRange: "7d", address: null,
      };
      expect(differingPixels(await sparkline(`data_mode=plugin&server_uuid=${uuid}&range=7d`), renderBanner("sparkline", server, SPARKLINE))).toBe(0);
      const network: ServerBannerData = { ...server, name: "Hub Network", motd: ["§a1/1 servers online", `§7Busiest: §fHub §7(${sparkAt})`] };
      expect(differingPixels(await sparkline("data_mode=network&network=hub&range=7d"), renderBanner("sparkline", network, SPARKLINE))).toBe(0);
    };

    // 12:04:10, none of it rolled up: online since the first push (uptime 1), 3, 7 and 5 players.
    await expectShown({ min: 3, avg: 5, max: 7 }, 5);

    // A push in the same minute shows at once, though the answers before it are cached.
    await push(9);
    clock.now += 10_000;
    await expectShown({ min: 3, avg: 6, max: 9 }, 9);

    // Three minutes on, before and after the sweep rolls up the first bucket: the same answers.
    clock.now += 3 * MINUTE_MS;
    await expectShown({ min: 3, avg: 6, max: 9 }, 9);
    await sweepAll(store, clock.now);
    expect((await store.history.marks()).fiveMinutesUntil).toBe(BUCKET + 5 * MINUTE_MS);
    await expectShown({ min: 3, avg: 6, max: 9 }, 9);

    // The last push (12:04:10) went stale at 12:19:10. At 12:20:00, 50 of the 1,130 s since the first push offline;
    // a minute later, with no sweep between (the marks as they were), 110 of 1,190: the answer is a minute old at most.
    clock.now = BUCKET + 20 * MINUTE_MS;
    await sweepAll(store, clock.now);
    expect((await history("7d")).uptime).toBeCloseTo(1080 / 1130, 10);
    clock.now += MINUTE_MS;
    expect((await history("7d")).uptime).toBeCloseTo(1080 / 1190, 10);
    await svgSays("uptime.svg", "90.7%");
  }, 60_000);
});
