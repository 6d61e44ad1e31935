// Draw cost (a measurement, not a test): the time to draw and encode the
// default banner at every size, scale and format, relative to a 468x60 PNG at
// scale 1, on this machine; the source of the figures in
// src/http/drawing/draw-cost.ts and docs/draw-cost.md.
// Run: bun bench/draw-cost.ts [--quick]

import { BannerService } from "../src/banner/banner-service.ts";
import { BANNER_SIZES } from "../src/banner/model.ts";
import { CACHE_SHARES } from "../src/config.ts";
import { parseBannerQuery } from "../src/http/banner-query.ts";
import { InThreadDrawer } from "../src/serve/drawing/in-thread-drawer.ts";
import { sizeName } from "../src/http/banner-parameters.ts";
import { openSqliteStore } from "../src/store/sqlite-store.ts";
import { spread } from "./report/stats.ts";

// Drawn on this thread: the cost of the drawing itself, without a render thread's hand-over.
const drawer = new InThreadDrawer(CACHE_SHARES);
const SAMPLE_MS = process.argv.includes("--quick") ? 300 : 1_500;

const service = new BannerService({ store: openSqliteStore(":memory:"), lookup: { lookup: () => { throw new Error("no lookups here"); } } as never, now: Date.now, staleAfterMs: 900_000 });

/** Median ms of one draw (draw and encode), after a warm-up; each draw a banner of its own (another player count). */
async function medianDrawMs(query: Record<string, string>): Promise<number> {
  let players = 0;
  const drawOne = async () => {
    const plan = await service.prepare(parseBannerQuery({ ...query, online_players: String(players++ % 500), max_players: "500" }));
    const started = performance.now();
    await drawer.draw(plan);
    return performance.now() - started;
  };
  const warmUntil = performance.now() + SAMPLE_MS / 4;
  while (performance.now() < warmUntil) await drawOne();
  const times: number[] = [];
  const stopAt = performance.now() + SAMPLE_MS;
  while (times.length < 20 || performance.now() < stopAt) times.push(await drawOne());
  return spread(times).median;
}

const rows: Array<{ name: string; pixels: number; ms: number }> = [];
for (const format of ["png", "webp"]) {
  for (const scale of ["1", "2"]) {
    for (const size of BANNER_SIZES) {
      const query = { size: sizeName(size), scale, format, server_name: "Draw cost", motd_line_1: "§aA MOTD line", server_status: "online" };
      rows.push({ name: `${sizeName(size)} x${scale} ${format}`, pixels: size.width * size.height * Number(scale) ** 2, ms: await medianDrawMs(query) });
    }
  }
}
const unit = rows[0]!;
console.log("| banner | pixels | ms (median) | x 468x60 PNG | ms per megapixel |");
console.log("|---|---:|---:|---:|---:|");
for (const row of rows) {
  console.log(`| ${row.name} | ${row.pixels} | ${row.ms.toFixed(2)} | ${(row.ms / unit.ms).toFixed(1)} | ${(row.ms / (row.pixels / 1e6)).toFixed(1)} |`);
}
