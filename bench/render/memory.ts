// RSS of a process that only renders with our engine: N mixed renders (a
// server's mix, mostly badges), PNG encoded, nothing kept. Run by
// bench/render.ts in its own process so that the peers' memory does not count.
// Prints one JSON line.

import { Pixmap, decodePng, encodePng } from "../../src/render/index.ts";
import { renderPng } from "./ours.ts";
import { BADGE, BANNER_LARGE, BANNER_SMALL, iconRgba, type Scene } from "./scenes.ts";

const renders = Number(process.argv[2] ?? 100_000);
const decoded = decodePng(encodePng(Pixmap.fromStraightRgba(64, 64, iconRgba())));
if (!decoded.ok) throw new Error(decoded.message);
const mix: Scene[] = [BADGE, BADGE, BADGE, BANNER_SMALL, BADGE, BADGE, BANNER_SMALL, BADGE, BANNER_SMALL, BANNER_LARGE];

Bun.gc(true);
const before = process.memoryUsage().rss;
const started = performance.now();
let peak = before;
for (let i = 0; i < renders; i++) {
  renderPng(mix[i % mix.length]!, decoded.image);
  if (i % 10_000 === 0) peak = Math.max(peak, process.memoryUsage().rss);
}
const seconds = (performance.now() - started) / 1000;
Bun.gc(true);
const after = process.memoryUsage().rss;
console.log(JSON.stringify({ renders, before, after, peak: Math.max(peak, after), seconds }));
