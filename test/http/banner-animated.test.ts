// GET /api/banner?animate=motd|stats: animated GIF and WebP, read back with
// independent decoders (omggif's reader; libwebp for each WebP frame, its
// container parsed here by hand) and compared with the same states drawn
// here through the template API. Errors as for any banner: JSON, or an image
// for an <img>.

import { afterEach, describe, expect, test } from "bun:test";
import { readableOn } from "../../src/banner/contrast.ts";
import type { BannerOptions, ServerBannerData } from "../../src/banner/model.ts";
import { BANNER_SIZES } from "../../src/banner/model.ts";
import { templates } from "../../src/banner/templates/catalogue.ts";
import { renderBanner } from "../../src/banner/templates/index.ts";
import { backdrops, paletteFor } from "../../src/banner/theme.ts";
import { parseHexColor, Pixmap, type Color } from "../../src/render/index.ts";
import { gifFrames, webpFrames } from "../support/animations.ts";
import { decodeImage, differingPixels, type DecodedImage } from "../support/images.ts";
import { pushUpdate, pushWeek, STALE_SECONDS, sweepAll, WEEK_START } from "../support/history.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { DAY_MS, MINUTE_MS } from "../../src/store/history.ts";

const UUID = "00000000-0000-4000-8000-000000000023";
const QUIET = "00000000-0000-4000-8000-000000000024";
const NOW = WEEK_START + 7 * DAY_MS + 10 * MINUTE_MS;

let server: TestServer;
let renders: string[] = [];
afterEach(async () => {
  await server.close();
  renders = [];
});

async function start(): Promise<void> {
  server = await startTestServer({}, { renderCache: { onRender: (key) => renders.push(key) } });
}

const IMAGE = { Accept: "image/avif,image/webp,image/png,image/*,*/*;q=0.8" };
const banner = (query: string, headers: Record<string, string> = IMAGE) => fetch(`${server.url}/api/banner?${query}`, { headers });

const MOTD_1 = "§6Gold §aGreen";
const MOTD_2 = "§x§f§f§5§5§a§aHex §bAqua";
const MANUAL = `server_name=Skyblock&online_players=12&max_players=100&ip_address=play.example.com`
  + `&motd_line_1=${encodeURIComponent(MOTD_1)}&motd_line_2=${encodeURIComponent(MOTD_2)}`;
const DATA: ServerBannerData = {
  name: "Skyblock", status: "online", players: { online: 12, max: 100 }, motd: [MOTD_1, MOTD_2],
  version: null, latencyMs: null, favicon: null, history: [], address: "play.example.com",
};

/** The timeline of an animation of `states` states: a 2.5 s hold, then a fade of two 80 ms frames, each. */
const timeline = (states: number) => Array.from({ length: states }, () => [2500, 80, 80]).flat();

const bytesOf = async (response: Response) => new Uint8Array(await response.arrayBuffer());

/** Pixels where a decoded frame leaves the span of two drawings (with a step of rounding). */
function outsideFade(frame: DecodedImage, a: Pixmap, b: Pixmap): number {
  const x = a.toStraightRgba(), y = b.toStraightRgba();
  let count = 0;
  for (let i = 0; i < x.length; i++) {
    if (frame.data[i]! < Math.min(x[i]!, y[i]!) - 2 || frame.data[i]! > Math.max(x[i]!, y[i]!) + 2) count++;
  }
  return count / 4;
}

describe("animate=stats as animated WebP", () => {
  test("a frame per step with the timeline's durations, the first full-size, the rest what changed; holds decode to the template's drawings of each state, the first the still banner", async () => {
    await start();
    const response = await banner(`${MANUAL}&template_key=classic&size=728x90&animate=stats&format=webp`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/webp");
    const { canvas, flags, frames } = await webpFrames(await bytesOf(response));
    expect(canvas).toEqual([728, 90]);
    expect(flags & 0x02).toBe(0x02); // animation
    expect(frames.map((f) => f.durationMs)).toEqual(timeline(3));
    expect([frames[0]!.x, frames[0]!.y, frames[0]!.width, frames[0]!.height]).toEqual([0, 0, 728, 90]);
    // Later frames store only what changed: the MOTD's row, not the name, icon or count.
    for (const frame of frames.slice(1)) expect(frame.width * frame.height).toBeLessThan((728 * 90) / 2);

    const options: BannerOptions = { size: { width: 728, height: 90 }, theme: "dark", scale: 1 };
    const still = await banner(`${MANUAL}&template_key=classic&size=728x90&format=png`);
    const stillImage = await decodeImage(still);
    const states = [DATA, { ...DATA, motd: ["12 / 100 players online", ""] }, { ...DATA, motd: ["Join play.example.com", ""] }] as const;
    const drawings = states.map((data) => renderBanner("classic", data, options));
    expect(differingPixels(frames[0]!.image, drawings[0]!)).toBe(0);
    expect(frames[0]!.image.data).toEqual(stillImage.data);
    for (let state = 0; state < 3; state++) {
      expect(differingPixels(frames[state * 3]!.image, drawings[state]!)).toBe(0);
      // The fade's frames lie between the state and the next.
      for (let k = 1; k <= 2; k++) expect(outsideFade(frames[state * 3 + k]!.image, drawings[state]!, drawings[(state + 1) % 3]!)).toBe(0);
    }
    // Faded, not cut: a fade's frame differs from both ends.
    expect(differingPixels(frames[1]!.image, drawings[0]!)).toBeGreaterThan(100);
    expect(differingPixels(frames[1]!.image, drawings[1]!)).toBeGreaterThan(100);
  });
});

describe("animate=motd as GIF", () => {
  test("each MOTD line alone in turn; every pixel drawn in a § colour keeps it exactly, on a background of far more than 256 colours", async () => {
    await start();
    const response = await banner(`${MANUAL}&template_key=card&size=728x90&animate=motd&format=gif&background=prismarine`);
    expect(response.headers.get("content-type")).toBe("image/gif");
    const frames = gifFrames(await bytesOf(response));
    expect(frames.map((f) => f.durationMs)).toEqual(timeline(2));

    const options: BannerOptions = { size: { width: 728, height: 90 }, theme: "dark", scale: 1, background: "prismarine" };
    const ends = backdrops(paletteFor(options));
    const drawnColors = ["#ffaa00", "#55ff55", "#ff55aa", "#55ffff"].map((hex) => readableOn(parseHexColor(hex)!, ends));
    const key = (c: Color) => (c.r << 16) | (c.g << 8) | c.b;
    const kept = new Set(drawnColors.map(key));
    let checked = 0;
    for (const [state, motd] of [[0, [MOTD_1, ""]], [1, [MOTD_2, ""]]] as const) {
      const expected = renderBanner("card", { ...DATA, motd }, options).toStraightRgba();
      const colors = new Set<number>();
      for (let i = 0; i < expected.length; i += 4) colors.add((expected[i]! << 16) | (expected[i + 1]! << 8) | expected[i + 2]!);
      expect(colors.size).toBeGreaterThan(256);
      const frame = frames[state * 3]!.image.data;
      for (let i = 0; i < expected.length; i += 4) {
        const color = (expected[i]! << 16) | (expected[i + 1]! << 8) | expected[i + 2]!;
        if (expected[i + 3] !== 255 || !kept.has(color)) continue;
        checked++;
        expect((frame[i]! << 16) | (frame[i + 1]! << 8) | frame[i + 2]!).toBe(color);
      }
    }
    // Both lines' colours were drawn (text cores in the exact colour), so the check above saw them.
    expect(checked).toBeGreaterThan(40);
  });

  test("every server template at every size: at most 16 frames and 15 s, each frame the banner's size; scale=2 doubles it", async () => {
    await start();
    const servers = [...templates.values()].filter((info) => info.kind === "server");
    let n = 0;
    for (const info of servers) {
      for (const size of BANNER_SIZES) {
        const format = n++ % 2 === 0 ? "gif" : "webp";
        const query = `${MANUAL}&template_key=${info.key}&size=${size.width}x${size.height}&animate=${n % 3 === 0 ? "stats" : "motd"}&format=${format}`;
        const bytes = await bytesOf(await banner(query));
        const frames = format === "gif" ? gifFrames(bytes) : (await webpFrames(bytes)).frames;
        expect(frames.length).toBeGreaterThan(1);
        expect(frames.length).toBeLessThanOrEqual(16);
        expect(frames.length % 3).toBe(0);
        expect(frames.reduce((sum, f) => sum + f.durationMs, 0)).toBeLessThanOrEqual(15_000);
        for (const frame of frames) expect([frame.image.width, frame.image.height]).toEqual([size.width, size.height]);
        // The state after the first shows something else (the carrier is the MOTD's row, or the name's where a layout has none).
        expect(differingPixels(frames[3]!.image, Pixmap.fromStraightRgba(size.width, size.height, frames[0]!.image.data))).toBeGreaterThan(20);
      }
    }
    const doubled = gifFrames(await bytesOf(await banner(`${MANUAL}&animate=motd&scale=2`)));
    expect([doubled[0]!.image.width, doubled[0]!.image.height]).toEqual([936, 120]);
  }, 120_000);
});

describe("animate=stats of a pushed server", () => {
  test("its uptime over the last 7 days is the last state, drawn as the template draws that line", async () => {
    server = await startTestServer({ PENNANT_STALE_AFTER: String(STALE_SECONDS) }, { clockStart: NOW });
    await pushWeek(server.store, UUID);
    await pushUpdate(server.store, QUIET, NOW - MINUTE_MS, 4);
    await sweepAll(server.store, NOW);
    const query = (uuid: string) => `data_mode=plugin&server_uuid=${uuid}&server_name=Week&animate=stats&format=webp`;
    const { frames } = await webpFrames(await bytesOf(await banner(query(UUID))));
    // The still, the players, the uptime: 9900 of 10075 minutes online, 98.26%, written rounded down.
    expect(frames).toHaveLength(9);
    const line = encodeURIComponent("98.2% uptime, last 7 days");
    const expected = await decodeImage(await banner(`data_mode=plugin&server_uuid=${UUID}&server_name=Week&motd_line_1=${line}&format=png`));
    expect(frames[6]!.image.data).toEqual(expected.data);
    // A server pushed once a minute ago, never rolled up: its uptime reaches the present (issue 40), all of it online.
    const quiet = (await webpFrames(await bytesOf(await banner(query(QUIET))))).frames;
    expect(quiet).toHaveLength(9);
    const quietLine = encodeURIComponent("100% uptime, last 7 days");
    const quietExpected = await decodeImage(await banner(`data_mode=plugin&server_uuid=${QUIET}&server_name=Week&motd_line_1=${quietLine}&format=png`));
    expect(quiet[6]!.image.data).toEqual(quietExpected.data);
  }, 60_000);
});

describe("cached like any banner", () => {
  test("the same animation twice is drawn once; its ETag answers 304; animate without a format is a GIF", async () => {
    await start();
    const first = await banner(`${MANUAL}&animate=motd`);
    expect(first.headers.get("content-type")).toBe("image/gif");
    const etag = first.headers.get("etag")!;
    const again = await banner(`${MANUAL}&animate=motd`);
    expect(await bytesOf(again)).toEqual(await bytesOf(first));
    expect(again.headers.get("etag")).toBe(etag);
    expect(renders).toHaveLength(1);
    expect((await banner(`${MANUAL}&animate=motd`, { ...IMAGE, "If-None-Match": etag })).status).toBe(304);
    // Another animation, or the still, is another image.
    expect((await banner(`${MANUAL}&animate=stats`)).headers.get("etag")).not.toBe(etag);
    expect((await banner(`${MANUAL}&format=gif`)).headers.get("etag")).not.toBe(etag);
  });
});

describe("refusals", () => {
  test.each([
    ["animate=motd&format=png", /animate=motd draws an animation: use format=gif or format=webp/],
    ["animate=spin", /animate must be motd or stats, not "spin"/],
    ["animate=stats&template_key=plugin-stats&plugin_uuid=1b4e28ba-2fa1-11d2-883f-0016d3cca427", /plugin-stats draws a plugin record: animate is for the server templates/],
  ])("%s: a 400 with a JSON error, or an error image for an <img>", async (query, message) => {
    await start();
    const json = await banner(query, { Accept: "application/json" });
    expect(json.status).toBe(400);
    expect(((await json.json()) as { error: { message: string } }).error.message).toMatch(message);
    const image = await banner(query);
    expect(image.status).toBe(400);
    expect(image.headers.get("content-type")).toBe("image/png");
    expect(renders.filter((key) => key.length > 0)).toHaveLength(1);
  });
});
