// RSS of a process that only renders with our engine: N mixed renders (a
// server's mix, mostly badges), PNG encoded, nothing kept. Badge values are
// all different and banner titles cycle through 5,000 CJK characters, so the
// shaping and glyph caches fill to their bounds. Run by bench/render.ts in its
// own process so that the peers' memory does not count. Prints one JSON line.

import { Pixmap, decodePng, encodePng } from "../../src/render/index.ts";
import { budget, renderPng } from "./ours.ts";
import { BADGE, BANNER_LARGE, BANNER_SMALL, iconRgba, type Scene } from "./scenes.ts";

const renders = Number(process.argv[2] ?? 100_000);
const decoded = decodePng(encodePng(Pixmap.fromStraightRgba(64, 64, iconRgba())));
if (!decoded.ok) throw new Error(decoded.message);
const mix: Scene[] = [BADGE, BADGE, BADGE, BANNER_SMALL, BADGE, BADGE, BANNER_SMALL, BADGE, BANNER_SMALL, BANNER_LARGE];

Bun.gc(true);
const before = process.memoryUsage().rss;
const started = performance.now();
let peak = before;
/** The i-th scene of the mix with its own text. */
function varied(i: number): Scene {
  const scene = mix[i % mix.length]!;
  const [first, ...rest] = scene.texts;
  const text = scene.kind === "badge" ? String(i) : `${first!.text} ${String.fromCodePoint(0x4e00 + (i % 5000))}`;
  const texts = scene.kind === "badge" ? [first!, { ...rest[0]!, text }] : [{ ...first!, text }, ...rest];
  return { ...scene, texts };
}

for (let i = 0; i < renders; i++) {
  renderPng(varied(i), decoded.image);
  if (i % 10_000 === 0) peak = Math.max(peak, process.memoryUsage().rss);
}
const seconds = (performance.now() - started) / 1000;
Bun.gc(true);
const after = process.memoryUsage().rss;
const glyphCache = new Map(budget.usage()).get("glyph_masks");
console.log(JSON.stringify({ renders, before, after, peak: Math.max(peak, after), seconds, glyphCache }));
