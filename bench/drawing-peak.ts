// What one drawing raises a process's peak memory by (a measurement, not a
// test), against what the render pool counts for it (drawingMemory,
// src/serve/drawing/draw-memory.ts). Each drawing in a fresh process, warmed
// as a storm warms a thread: the same drawing of another server drawn first
// (fonts, encoders, working buffers and caches at its size, the allocator's
// pages of such a drawing), a full collection, the high-water mark reset
// (/proc/self/clear_refs), the drawing; its peak is VmHWM less the RSS
// before it. Drawn on this thread with the render threads'
// collection of a dropped WebP encoder (render-worker.ts). Five processes a
// drawing (median, then the range): the spread is the allocator's, whose
// pages an earlier drawing left free for the next. Linux only.
// Run: bun bench/drawing-peak.ts [--quick] (--quick: one process a drawing)

import { readFileSync, writeFileSync } from "node:fs";
import { BannerService } from "../src/banner/banner-service.ts";
import { CACHE_SHARES } from "../src/config.ts";
import { parseBannerQuery, type BannerQuery } from "../src/http/banner-query.ts";
import { onEncoderDropped } from "../src/render/index.ts";
import { drawingMemory } from "../src/serve/drawing/draw-memory.ts";
import { InThreadDrawer } from "../src/serve/drawing/in-thread-drawer.ts";
import { openSqliteStore } from "../src/store/sqlite-store.ts";
import { partOptions } from "./report/options.ts";
import { table } from "./report/markdown.ts";

/** The drawings measured: the largest stills and animations (a manual banner's stats has 9 frames, motd 6 with a second MOTD line). */
const CASES: Array<Record<string, string>> = [
  { size: "1200x300", format: "png", scale: "2" },
  { size: "1200x300", format: "webp", scale: "2" },
  { size: "1200x300", format: "gif", scale: "2" },
  { size: "1200x300", format: "gif", animate: "stats" },
  { size: "300x250", format: "gif", animate: "stats", scale: "2" },
  { size: "1200x300", format: "gif", animate: "stats", scale: "2" },
  { size: "1200x300", format: "webp", animate: "stats" },
  { size: "300x250", format: "webp", animate: "stats", scale: "2" },
  { size: "1200x300", format: "webp", animate: "motd", scale: "2" },
  { size: "1200x300", format: "webp", animate: "stats", scale: "2" },
];
const BANNER = { template_key: "card", server_name: "Skyblock Realm", online_players: "128", max_players: "500", motd_line_1: "§aHello", motd_line_2: "§bSecond line", ip_address: "play.example.com" };
const MIB = 1024 * 1024;

const statusMib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, "m").exec(readFileSync("/proc/self/status", "utf8"))![1]) / 1024;

/** In this process: the case's peak over the RSS before it, and what the pool counts, MiB. */
async function measureOne(look: Record<string, string>): Promise<{ peak: number; counted: number; frames: number }> {
  onEncoderDropped(() => new Promise<void>((collected) => setImmediate(() => (Bun.gc(true), collected()))));
  const drawer = new InThreadDrawer(CACHE_SHARES);
  const service = new BannerService({ store: openSqliteStore(":memory:"), lookup: { lookup: () => { throw new Error("no lookups here"); } } as never, now: Date.now, staleAfterMs: 900_000 });
  const plan = (query: BannerQuery) => service.prepare(parseBannerQuery({ ...BANNER, ...query }));
  await drawer.draw(await plan({ ...look, server_name: "Warm" }));
  const drawing = await plan(look);
  Bun.gc(true);
  writeFileSync("/proc/self/clear_refs", "5");
  const before = statusMib("VmRSS");
  await drawer.draw(drawing);
  return { peak: statusMib("VmHWM") - before, counted: drawingMemory(drawing) / MIB, frames: drawing.frames ?? 1 };
}

if (process.argv[2] === "--case") {
  console.log(JSON.stringify(await measureOne(CASES[Number(process.argv[3])]!)));
} else {
  const options = partOptions(process.argv.slice(2), "bun bench/drawing-peak.ts [--quick]");
  const rows: string[][] = [];
  for (const [index, look] of CASES.entries()) {
    const runs = [];
    for (let run = 0; run < (options.quick ? 1 : 5); run++) {
      const child = Bun.spawnSync([process.execPath, import.meta.path, "--case", String(index)], { stderr: "inherit" });
      if (child.exitCode !== 0) throw new Error(`case ${index} exited ${child.exitCode}`);
      runs.push(JSON.parse(child.stdout.toString()) as Awaited<ReturnType<typeof measureOne>>);
    }
    const peaks = runs.map((run) => run.peak).sort((a, b) => a - b);
    const what = `${look.size} ${look.format!.toUpperCase()}${look.animate ? ` \`${look.animate}\`` : ""}${look.scale ? `, scale ${look.scale}` : ""}`;
    const median = peaks[Math.floor(peaks.length / 2)]!;
    const spread = peaks.length === 1 ? median.toFixed(1) : `${median.toFixed(1)} (${peaks[0]!.toFixed(1)}-${peaks.at(-1)!.toFixed(1)})`;
    rows.push([what, String(runs[0]!.frames), spread, runs[0]!.counted.toFixed(1)]);
    console.error(`  ${what}: ${spread} MiB`);
  }
  console.log(table(["drawing", "frames", `peak (MiB)${options.quick ? "" : ": median (range)"}`, "counted (MiB)"], rows));
}
