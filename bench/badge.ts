// Badge bench (numbers, not tests). For each badge: drawn and PNG-encoded
// cold (not from the render cache; its label's pixels kept, as on a running
// server) by our engine as the server writes it (compact PNG, level 6) and
// with the engine's fast default encoding, that once more with the label
// pixels cleared before every run, by @napi-rs/canvas from the same layout,
// and by badge-maker + resvg from shields' own SVG, all in the same run; PNG
// sizes of each. Then badges over HTTP: a real server, a load generator in a
// child process; a new badge each request set beside canvas (Skia) drawing
// and encoding one in process.
//
// Run: npm run bench:badge [-- --quick]

import { Resvg } from "@resvg/resvg-js";
import { makeBadge } from "badge-maker";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { drawBadgeJob } from "../src/badge/badge-png.ts";
import { badgeImage, writeBadgeSvgJob } from "../src/badge/images.ts";
import { parseBadgeColor } from "../src/badge/colors.ts";
import { BadgeCaches } from "../src/badge/badge-caches.ts";
import { CacheBudget } from "../src/cache/budget.ts";
import { drawBadge } from "../src/badge/draw-badge.ts";
import { layoutBadge, type BadgeContent, type PlateLayout } from "../src/badge/badge-layout.ts";
import { STYLE_NAMES, type StyleName } from "../src/badge/styles.ts";
import { loadConfig } from "../src/config.ts";
import { createApp } from "../src/serve/app.ts";
import { ImageCache } from "../src/http/image-cache.ts";
import { listen } from "../src/serve/listen.ts";
import { encodePng } from "../src/render/index.ts";
import { openSqliteStore } from "../src/store/sqlite-store.ts";
import { writePluginPush } from "../src/store/plugins.ts";
import { sqliteCreateToken } from "../src/store/tokens.ts";
import { canvasBadgePng, registerCanvasFonts } from "./badge/canvas.ts";
import { NEW_BADGE_COLUMNS } from "./report/badge-output.ts";

const quick = process.argv.includes("--quick");
const SAMPLE_MS = quick ? 400 : 1500;
const LOAD_SECONDS = quick ? 2 : 5;

function median(sorted: number[]): number {
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Warms up, then times single runs for about SAMPLE_MS (at least 20 samples); the median in ms. */
function measure(run: () => unknown): number {
  const warmUntil = performance.now() + SAMPLE_MS / 4;
  while (performance.now() < warmUntil) run();
  const times: number[] = [];
  const stopAt = performance.now() + SAMPLE_MS;
  while (times.length < 20 || performance.now() < stopAt) {
    const started = performance.now();
    run();
    times.push(performance.now() - started);
  }
  return median(times.sort((a, b) => a - b));
}

const ms = (v: number) => (v < 1 ? v.toFixed(3) : v.toFixed(2));
const row = (cells: Array<string | number>) => `| ${cells.join(" | ")} |`;

const fontFile = (name: string) => join(import.meta.dir, "../glyphs/dejavu", name);
registerCanvasFonts(fontFile("DejaVuSans.ttf"), fontFile("DejaVuSans-Bold.ttf"));
const resvgFonts = { fontFiles: [fontFile("DejaVuSans.ttf"), fontFile("DejaVuSans-Bold.ttf")], loadSystemFonts: false, defaultFontFamily: "DejaVu Sans" };

interface Case {
  name: string;
  style: StyleName;
  scale: 1 | 2;
}

const CASES: Case[] = [
  { name: "flat", style: "flat", scale: 1 },
  { name: "flat-square", style: "flat-square", scale: 1 },
  { name: "plastic", style: "plastic", scale: 1 },
  { name: "for-the-badge", style: "for-the-badge", scale: 1 },
  { name: "social", style: "social", scale: 1 },
  { name: "flat, scale=2", style: "flat", scale: 2 },
];

/**
 * Cold means not from the render cache: every run draws a different count
 * (as badges of many plugins would). What a running server keeps between
 * badges is warm, as it is there: glyph masks, gradient tables and the
 * label's pixels (src/badge/label-pixels.ts; a server draws a handful of
 * labels). "labels cleared" empties the label pixels before every run, so
 * the label is drawn too: the badge with nothing of its own kept.
 */
let counter = 0;
/** What a running server keeps between badges (its caches at their default budget). */
const caches = new BadgeCaches();
const drawn = (c: BadgeContent, scale: number) => drawBadge(layoutBadge(c), scale, caches);
const content = (style: StyleName): BadgeContent =>
  ({ label: "downloads", message: `${10 + (counter++ % 990)}k`, color: parseBadgeColor("brightgreen")!, style });

console.log(`Badge bench: Bun ${Bun.version}, ${process.platform} ${process.arch}, ${navigator.hardwareConcurrency} cores, ${new Date().toISOString()}`);
console.log(
  "Cold: drawn and encoded each time (a new count each run), the label's pixels kept as on a running server; " +
    "labels cleared: the label pixels emptied before every run (the label drawn too). Text: DejaVu Sans everywhere.\n",
);
console.log(row([
  "badge", "ours as served (compact PNG)", "ours, fast PNG", "ours, fast PNG, labels cleared", "canvas", "badge-maker + resvg",
  "canvas / ours fast", "canvas / ours served", "PNG bytes served / fast / canvas / resvg",
]));
console.log(row(Array(9).fill("---")));
/** canvas's flat badge, drawn and encoded in this process: what a new badge over HTTP is set beside. */
let flatCanvas = Number.NaN;
// The first case measured would otherwise also pay for the engine's warm-up (its code compiled by the
// JIT's higher tiers, its caches filled) that a running server has long behind it.
for (const { style, scale } of CASES) {
  measure(() => encodePng(drawn(content(style), scale), { level: 6, compact: true }));
  measure(() => encodePng(drawn(content(style), scale)));
}
for (const { name, style, scale } of CASES) {
  const served = measure(() => encodePng(drawn(content(style), scale), { level: 6, compact: true }));
  const fast = measure(() => encodePng(drawn(content(style), scale)));
  const labelsCleared = measure(() => {
    caches.labels!.clear();
    return encodePng(drawn(content(style), scale));
  });
  const plate = style !== "social";
  const canvas = plate ? measure(() => canvasBadgePng(layoutBadge(content(style)) as PlateLayout, scale)) : Number.NaN;
  if (name === "flat") flatCanvas = canvas;
  const shields = measure(() => {
    const c = content(style);
    return new Resvg(makeBadge({ label: c.label, message: c.message, color: "brightgreen", style }), { fitTo: { mode: "zoom", value: scale }, font: resvgFonts }).render().asPng();
  });
  const sample: BadgeContent = { label: "downloads", message: "13k", color: parseBadgeColor("brightgreen")!, style };
  const pixmap = drawn(sample, scale);
  const svg = makeBadge({ label: sample.label, message: sample.message, color: "brightgreen", style });
  const bytes = [
    encodePng(pixmap, { level: 6, compact: true }).length,
    encodePng(pixmap).length,
    plate ? canvasBadgePng(layoutBadge(sample) as PlateLayout, scale).length : "-",
    new Resvg(svg, { fitTo: { mode: "zoom", value: scale }, font: resvgFonts }).render().asPng().length,
  ];
  const ratio = (v: number) => (Number.isNaN(v) ? "-" : `${v.toFixed(1)}x`);
  console.log(row([
    name, ms(served), ms(fast), ms(labelsCleared), plate ? ms(canvas) : "-", ms(shields), ratio(canvas / fast), ratio(canvas / served), bytes.join(" / "),
  ]));
}

// Served from the image cache: the key of what is drawn, a lookup, no drawing.
const images = new ImageCache(new CacheBudget(), { name: "badge_images", now: Date.now });
const cachedContent: BadgeContent = { label: "downloads", message: "13k", color: parseBadgeColor("brightgreen")!, style: "flat" };
const cachedPlan = badgeImage(cachedContent, 1);
await images.get(cachedPlan.key, () => drawBadgeJob(cachedPlan.job, caches));
console.log(`\nImage cache hit (key of what is drawn, then a lookup): ${ms(measure(() => images.peek(badgeImage(cachedContent, 1).key)) * 1000)} µs median`);

// SVG badges: written (laid out, text measured, escaped, UTF-8) as a .svg URL's draw writes them, beside
// badge-maker writing shields' own; a new count each run.
console.log("\nSVG written, median µs per badge (ours as served / badge-maker's makeBadge):");
for (const style of STYLE_NAMES) {
  const ours = measure(() => writeBadgeSvgJob({ kind: "badge svg", content: content(style) }));
  const shields = measure(() => makeBadge({ label: "downloads", message: `${10 + (counter++ % 990)}k`, color: "brightgreen", style }));
  console.log(`- ${style}: ${ms(ours * 1000)} / ${ms(shields * 1000)}`);
}

// Badges over HTTP: a real server on a real database; the load generator runs in its own process.
const dir = mkdtempSync(join(tmpdir(), "pennant-bench-badge-"));
try {
  // Every request comes from one address: a draw budget no run spends.
  const config = loadConfig({ PENNANT_DB: join(dir, "pennant.db"), PENNANT_RATE_LIMIT: "1000000/1", PENNANT_DRAW_BUDGET: "1000000/1" });
  const store = openSqliteStore(config.dbPath);
  const { db } = store;
  const token = sqliteCreateToken(db, { hash: "bench".padEnd(64, "0"), scope: "plugin", label: "bench", now: Date.now() });
  const uuid = "0b9a5a9e-5d7c-4f0e-9a51-6d1f3c2b7e10";
  db.transaction((tx) => writePluginPush(tx, {
    uuid, tokenId: token.id, now: Date.now(), maxPerToken: 10, fields: { name: "Bench", meta: { alpha: { downloads: 12_345 } } },
  }));
  const app = await createApp({ config, store, now: Date.now });
  const port = listen(app, "127.0.0.1", 0);
  const url = `http://127.0.0.1:${port}/shields/plugins/${uuid}/downloads.png`;
  const etag = (await fetch(url)).headers.get("etag")!;
  console.log(`\nBadges over HTTP (${LOAD_SECONDS} s each, client in a child process on the same 2 cores; "new": a colour never asked before each request, drawn and encoded as served):`);
  console.log(row(["request", "concurrency", "requests/s", "p50 ms", "p99 ms", "statuses", "body bytes"]));
  console.log(row(Array(7).fill("---")));
  const loads = [["GET badge", 1, "", ""], ["GET badge", 32, "", ""], ["GET with If-None-Match (304)", 32, etag, ""], ["GET a new badge", 1, "", "new"]] as const;
  let newBadge = Number.NaN;
  for (const [label, concurrency, held, kind] of loads) {
    const child = Bun.spawn([process.execPath, join(import.meta.dir, "badge/load.ts"), url, String(concurrency), String(LOAD_SECONDS), held, kind], { stdout: "pipe" });
    const result = JSON.parse(await new Response(child.stdout).text()) as { requests: number; seconds: number; p50: number; p99: number; statuses: Record<string, number>; bytes: number };
    await child.exited;
    if (kind === "new") newBadge = result.p50;
    console.log(row([label, concurrency, Math.round(result.requests / result.seconds), ms(result.p50), ms(result.p99), JSON.stringify(result.statuses), result.bytes]));
  }
  console.log(`\nA new badge over HTTP beside canvas (Skia) drawing and encoding a flat badge in this process:`);
  console.log(row([NEW_BADGE_COLUMNS.http, NEW_BADGE_COLUMNS.canvas, NEW_BADGE_COLUMNS.ratio]));
  console.log(row(Array(3).fill("---")));
  console.log(row([ms(newBadge), ms(flatCanvas), `${(newBadge / flatCanvas).toFixed(2)}x`]));
  await app.stop(true);
  await store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
