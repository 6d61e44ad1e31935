// Render bench (numbers, not tests): the reference banner at 468x60 and
// 1200x300 and a two-segment badge, each drawn and encoded to PNG by our
// engine, by @napi-rs/canvas (Skia) and by satori + @resvg/resvg-js in the
// same run; then 1200x300 WebP, PNG sizes, and RSS after many mixed renders.
//
// Run: npm run bench:render [-- --quick] [--images DIR] [--json FILE]
// (--quick: shorter sampling and 10k instead of 100k renders for memory;
//  --images: write every renderer's images there to compare by eye;
//  --json: figures and markdown for bench/index.ts, which runs this as part
//  of `npm run bench`.)

import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Pixmap, decodePng, encodePng, encodeWebp, initWebp } from "../src/render/index.ts";
import { count, mib, ms, table, times } from "./report/markdown.ts";
import type { RenderFigures } from "./report/targets.ts";
import { partOptions } from "./report/options.ts";
import { spread } from "./report/stats.ts";
import { canvasPng, canvasWebp, loadIcon, registerFonts } from "./render/canvas.ts";
import { drawBanner, renderPng } from "./render/ours.ts";
import { satoriPng } from "./render/satori.ts";
import { BADGE, BANNER_LARGE, BANNER_SMALL, iconRgba, type Scene } from "./render/scenes.ts";

const options = partOptions(process.argv.slice(2), "bun bench/render.ts [--quick] [--images DIR] [--json FILE]", ["images"]);
const imagesDir = options.values.images;
const SAMPLE_MS = options.quick ? 400 : 1500;
const MEMORY_RENDERS = options.quick ? 10_000 : 100_000;

interface Stats {
  median: number;
  p95: number;
  samples: number;
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
  return spread(times);
}

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

interface SceneFigures {
  name: string;
  ours: Stats;
  canvas: Stats;
  satori: Stats;
  /** PNG bytes: ours, canvas, resvg. */
  bytes: [number, number, number];
}

const scenes: SceneFigures[] = [];
for (const scene of [BANNER_SMALL, BANNER_LARGE, BADGE] as Scene[]) {
  const ours = await measure(() => renderPng(scene, icon));
  const canvas = await measure(() => canvasPng(scene, canvasIcon, canvasFonts));
  const satori = await measure(() => satoriPng(scene, iconDataUrl, satoriFonts));
  const images = [renderPng(scene, icon), canvasPng(scene, canvasIcon, canvasFonts), await satoriPng(scene, iconDataUrl, satoriFonts)] as const;
  scenes.push({ name: scene.name, ours, canvas, satori, bytes: [images[0].length, images[1].length, images[2].length] });
  if (imagesDir) {
    mkdirSync(imagesDir, { recursive: true });
    const base = scene.name.replace(/\W+/g, "-");
    images.forEach((image, i) => writeFileSync(join(imagesDir, `${base}-${["ours", "canvas", "satori"][i]}.png`), image));
  }
}

await initWebp();
const webp: Array<{ label: string; stats: Stats; bytes: number }> = [];
for (const [label, run] of [
  ["ours, lossless (default)", () => encodeWebp(drawBanner(BANNER_LARGE, icon))],
  ["ours, lossy q80", () => encodeWebp(drawBanner(BANNER_LARGE, icon), { lossless: false, quality: 80 })],
  ["canvas, lossless (q100)", () => canvasWebp(BANNER_LARGE, canvasIcon, canvasFonts)],
] as const) {
  webp.push({ label, stats: await measure(run), bytes: (await run()).length });
}
if (imagesDir) writeFileSync(join(imagesDir, "banner-1200x300-ours.webp"), await encodeWebp(drawBanner(BANNER_LARGE, icon)));

// Memory, in a process of its own (the peers above hold hundreds of MiB).
const child = Bun.spawnSync([process.execPath, join(import.meta.dir, "render/memory.ts"), String(MEMORY_RENDERS)]);
if (child.exitCode !== 0) throw new Error(`memory bench failed: ${child.stderr.toString()}`);
const memory = JSON.parse(child.stdout.toString()) as {
  renders: number; before: number; after: number; peak: number; seconds: number;
  glyphCache: { entries: number; bytes: number; maxBytes: number; hits: number; misses: number };
};

const markdown = {
  scenes: table(
    ["scene (draw + PNG)", "ours median ms", "ours p95", "canvas median", "canvas p95", "satori+resvg median", "canvas / ours", "satori / ours", "PNG bytes ours / canvas / resvg"],
    scenes.map((s) => [
      s.name, ms(s.ours.median), ms(s.ours.p95), ms(s.canvas.median), ms(s.canvas.p95), ms(s.satori.median),
      times(s.canvas.median / s.ours.median), times(s.satori.median / s.ours.median), s.bytes.map(count).join(" / "),
    ]),
  ),
  webp: table(["1200x300 WebP (draw + encode)", "median ms", "p95 ms", "bytes"], webp.map((w) => [w.label, ms(w.stats.median), ms(w.stats.p95), count(w.bytes)])),
  memory:
    `Our engine alone, in a process of its own: RSS ${mib(memory.before)} MiB before, ${mib(memory.after)} MiB after ${count(memory.renders)} mixed renders ` +
    `(7 badges : 2 small : 1 large banner, PNG, varied text), peak ${mib(memory.peak)} MiB, ${memory.seconds.toFixed(1)} s; ` +
    `glyph cache ${count(memory.glyphCache.entries)} masks, ${mib(memory.glyphCache.bytes)} MiB (bound ${mib(memory.glyphCache.maxBytes)} MiB), ` +
    `${count(memory.glyphCache.hits)} hits / ${count(memory.glyphCache.misses)} misses.`,
};

console.log(`Render bench: Bun ${Bun.version}, ${navigator.hardwareConcurrency} cores. Text: DejaVu Sans and DejaVu Sans Bold in all three renderers.\n`);
console.log(`${markdown.scenes}\n\n${markdown.webp}\n\n${markdown.memory}`);
const figures: RenderFigures & { memory: typeof memory } = { scenes, webp, memory };
if (options.json) writeFileSync(options.json, JSON.stringify({ figures, markdown }));
