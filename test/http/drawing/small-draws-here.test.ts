// The drawer serve uses with render threads (src/serve/drawing/small-draws-here.ts):
// the smallest stills of the tables' text are drawn on the calling thread at
// once, even while every render thread is busy; anything larger, animated,
// WebP or with text beyond the tables goes to the threads, and so do small
// ones once the calling thread has drawn its share of the time.

import { afterAll, expect, test } from "bun:test";
import { badgeColor } from "../../../src/badge/colors.ts";
import { badgeImage } from "../../../src/badge/images.ts";
import { BannerService, type PreparedBanner } from "../../../src/banner/banner-service.ts";
import { CACHE_SHARES } from "../../../src/config.ts";
import { parseBannerQuery } from "../../../src/http/banner-query.ts";
import type { Drawing } from "../../../src/http/drawing/drawer.ts";
import { InThreadDrawer } from "../../../src/serve/drawing/in-thread-drawer.ts";
import { SmallDrawsHere } from "../../../src/serve/drawing/small-draws-here.ts";
import { LookupService } from "../../../src/lookup/lookup-service.ts";
import { openSqliteStore } from "../../../src/store/sqlite-store.ts";
import { tempDir } from "../../support/cleanup.ts";

const store = openSqliteStore(`${tempDir("pennant-small-draws-")}/pennant.db`);
const banners = new BannerService({ store, lookup: new LookupService({ allowPrivate: false }), now: Date.now, staleAfterMs: 900_000 });
afterAll(() => store.close());

const plan = (query: string): Promise<PreparedBanner> => banners.prepare(parseBannerQuery(Object.fromEntries(new URLSearchParams(query))));
const badge = (label: string) => badgeImage({ label, message: "12/100", color: badgeColor("brightgreen"), style: "flat" }, 1);

/** Draws `first` (long drawings that keep the one render thread busy), then `probe`: whether `probe` was answered before all of `first`. */
async function answeredFirst(drawer: SmallDrawsHere, first: Drawing[], probe: Drawing): Promise<boolean> {
  const order: string[] = [];
  const busy = Promise.all(first.map((drawing) => drawer.draw(drawing))).then(() => order.push("busy"));
  const probed = drawer.draw(probe).then(() => order.push("probe"));
  await Promise.all([busy, probed]);
  return order[0] === "probe";
}

/** A share no drawing here spends (a first drawing can take tens of milliseconds on a loaded machine). */
const UNBOUNDED_SHARE = { windowMs: 60_000, drawingMs: 60_000 };

async function withDrawer(use: (drawer: SmallDrawsHere, large: Drawing[]) => Promise<void>, share?: { windowMs: number; drawingMs: number }) {
  const drawer = new SmallDrawsHere({ threads: 1, cacheBytes: CACHE_SHARES, ...(share ? { share } : {}) });
  try {
    drawer.warm();
    // The thread's drawing and the one handed to it ahead: 1200x300 WebPs at scale 2 (~100 ms each).
    const large = await Promise.all(["Large one", "Large two"].map((name) => plan(`size=1200x300&scale=2&format=webp&server_name=${name}`)));
    await drawer.draw(await plan("server_name=Warm")); // the calling thread's engine loaded
    await use(drawer, large);
  } finally {
    await drawer.close();
  }
}

test("a badge and a 468x60 PNG are drawn at once on the calling thread while the render thread is busy, the same bytes as drawn alone", async () => {
  await withDrawer(async (drawer, large) => {
    const small = await plan("server_name=Small%20one&online_players=3");
    expect(await answeredFirst(drawer, large, small)).toBe(true);
    expect(await answeredFirst(drawer, large, badge("new label"))).toBe(true);
    const alone = new InThreadDrawer(CACHE_SHARES);
    expect(await drawer.draw(small)).toEqual(await alone.draw(small));
  }, UNBOUNDED_SHARE);
}, 30_000);

test("larger, WebP, animated and text beyond the faces' tables go to the render threads", async () => {
  await withDrawer(async (drawer, large) => {
    for (const query of [
      "size=728x90&server_name=Wider",
      "format=webp&server_name=WebP",
      "format=gif&animate=motd&motd_line_1=a&motd_line_2=b&server_name=Animated",
      `server_name=${encodeURIComponent("日本のサーバー")}`,
    ]) {
      expect([query, await answeredFirst(drawer, large, await plan(query))]).toEqual([query, false]);
    }
    // One unit, as small as any badge, but shaped by fontkit: never on the calling thread.
    expect(await answeredFirst(drawer, large, badge("日本"))).toBe(false);
  });
}, 60_000);

test("past its share of the time, the calling thread hands small drawings to the render threads too", async () => {
  await withDrawer(async (drawer, large) => {
    // The warm-up drawing above spent the whole share of this window.
    expect(await answeredFirst(drawer, large, badge("over the share"))).toBe(false);
  }, { windowMs: 60_000, drawingMs: 0.001 });
}, 30_000);
