// Render bench (numbers, not tests): the reference banner at 468x60 and
// 1200x300 and a two-segment badge, each drawn and encoded to PNG by our
// engine, by @napi-rs/canvas (Skia) and by satori + @resvg/resvg-js in the
// same run; then 1200x300 WebP, PNG sizes, and RSS after many mixed renders.
//
// Run: npm run bench [-- --quick] [-- --out DIR]
// (--quick: shorter sampling and 10k instead of 100k renders for memory;
//  --out: write every renderer's images there to compare by eye.)

import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Pixmap, decodePng, encodePng, encodeWebp, initWebp } from "../src/render/index.ts";
import { canvasPng, canvasWebp, loadIcon, registerFonts } from "./render/canvas.ts";
import { drawBanner, renderPng } from "./render/ours.ts";
import { satoriPng } from "./render/satori.ts";
import { BADGE, BANNER_LARGE, BANNER_SMALL, iconRgba, type Scene } from "./render/scenes.ts";

const quick = process.argv.includes("--quick");
const outIndex = process.argv.indexOf("--out");
const outDir = outIndex > 0 ? process.argv[outIndex + 1] : undefined;
const SAMPLE_MS = quick ? 400 : 1500;
const MEMORY_RENDERS = quick ? 10_000 : 100_000;

interface Stats {
  median: number;
  p95: number;
  samples: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

/** Warms up, then times single runs for about SAMPLE_MS (at least 20 samples). */
async function measure(run: () => unknown): Promise<Stats> {
  const warmUntil = performance.now() + SAMPLE_MS / 4;
  while (performance.now() < warmUntil) await run();
  const times: number[] = [];
  const stopAt = performance.now() + SAMPLE_MS;
  while (times.length < 20 || performance.now() < stopAt) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { median: percentile(times, 0.5), p95: percentile(times, 0.95), samples: times.length };
}

const ms = (v: number) => (v < 1 ? v.toFixed(3) : v.toFixed(2));
const row = (cells: Array<string | number>) => `| ${cells.join(" | ")} |`;

// The icon arrives as a PNG (a server favicon); every renderer decodes it once up front.
const iconPng = encodePng(Pixmap.fromStraightRgba(64, 64, iconRgba()));
const decoded = decodePng(iconPng);
if (!decoded.ok) throw new Error(decoded.message);
const icon = decoded.image;
const canvasIcon = loadIcon(iconPng);
const iconDataUrl = `data:image/png;base64,${Buffer.from(iconPng).toString("base64")}`;

// Every renderer draws its text in the same faces: DejaVu Sans and DejaVu Sans Bold from glyphs/.
const fontFile = (name: string) => join(import.meta.dir, "../glyphs/dejavu", name);
const canvasFonts = registerFonts(fontFile("DejaVuSans.ttf"), fontFile("DejaVuSans-Bold.ttf"));
const satoriFonts = {
  regular: new Uint8Array(readFileSync(fontFile("DejaVuSans.ttf"))).buffer,
  bold: new Uint8Array(readFileSync(fontFile("DejaVuSans-Bold.ttf"))).buffer,
};

console.log(`Render bench: Bun ${Bun.version}, ${process.platform} ${process.arch}, ${navigator.hardwareConcurrency} cores, ${new Date().toISOString()}`);
console.log("Text: DejaVu Sans and DejaVu Sans Bold in all three renderers.\n");

const scenes: Scene[] = [BANNER_SMALL, BANNER_LARGE, BADGE];
console.log(row(["scene (draw + PNG)", "ours median", "ours p95", "canvas median", "canvas p95", "satori+resvg median", "canvas / ours", "satori / ours", "PNG bytes ours / canvas / resvg"]));
console.log(row(Array(9).fill("---")));
for (const scene of scenes) {
  const ours = await measure(() => renderPng(scene, icon));
  const canvas = await measure(() => canvasPng(scene, canvasIcon, canvasFonts));
  const peer = await measure(() => satoriPng(scene, iconDataUrl, satoriFonts));
  const sizes = [renderPng(scene, icon).length, canvasPng(scene, canvasIcon, canvasFonts).length, (await satoriPng(scene, iconDataUrl, satoriFonts)).length];
  console.log(row([
    scene.name, ms(ours.median), ms(ours.p95), ms(canvas.median), ms(canvas.p95), ms(peer.median),
    `${(canvas.median / ours.median).toFixed(1)}x`, `${(peer.median / ours.median).toFixed(1)}x`, sizes.join(" / "),
  ]));
  if (outDir) {
    mkdirSync(outDir, { recursive: true });
    const base = scene.name.replace(/\W+/g, "-");
    writeFileSync(join(outDir, `${base}-ours.png`), renderPng(scene, icon));
    writeFileSync(join(outDir, `${base}-canvas.png`), canvasPng(scene, canvasIcon, canvasFonts));
    writeFileSync(join(outDir, `${base}-satori.png`), await satoriPng(scene, iconDataUrl, satoriFonts));
  }
}

await initWebp();
const large = drawBanner(BANNER_LARGE, icon);
console.log("\n" + row(["1200x300 WebP (draw + encode)", "median", "p95", "bytes"]));
console.log(row(Array(4).fill("---")));
for (const [label, run] of [
  ["ours, lossless (default)", () => encodeWebp(drawBanner(BANNER_LARGE, icon))],
  ["ours, lossy q80", () => encodeWebp(drawBanner(BANNER_LARGE, icon), { lossless: false, quality: 80 })],
  ["canvas, lossless (q100)", () => canvasWebp(BANNER_LARGE, canvasIcon, canvasFonts)],
] as const) {
  const stats = await measure(run);
  console.log(row([label, ms(stats.median), ms(stats.p95), (await run()).length]));
}
if (outDir) writeFileSync(join(outDir, "banner-1200x300-ours.webp"), await encodeWebp(large));

// Memory, in a process of its own (the peers above hold hundreds of MiB).
const child = Bun.spawnSync([process.execPath, join(import.meta.dir, "render/memory.ts"), String(MEMORY_RENDERS)]);
if (child.exitCode !== 0) throw new Error(`memory bench failed: ${child.stderr.toString()}`);
const memory = JSON.parse(child.stdout.toString()) as {
  renders: number; before: number; after: number; peak: number; seconds: number;
  glyphCache: { entries: number; bytes: number; hits: number; misses: number };
};
const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
console.log(`\nMemory (our engine alone): RSS ${mib(memory.before)} MiB before, ${mib(memory.after)} MiB after ${memory.renders} mixed renders ` +
  `(7 badges : 2 small : 1 large banner, PNG, varied text), peak ${mib(memory.peak)} MiB, ${memory.seconds.toFixed(1)} s; ` +
  `glyph cache ${memory.glyphCache.entries} masks, ${mib(memory.glyphCache.bytes)} MiB (bound 8 MiB), ` +
  `${memory.glyphCache.hits} hits / ${memory.glyphCache.misses} misses`);
