// Shaping bench (numbers, not tests): a string never shaped before, by
// fontkit's layout and from the faces' tables (learned ahead of time,
// src/render/text/face-tables.ts), alternating in one process; then a cold
// 468x60 banner (a new server name per run, drawn and encoded to PNG) with the
// tables and with fontkit only, alternating.
//
// Run: bun bench/shaping.ts [--quick]

import { templates } from "../src/banner/templates/catalogue.ts";
import { renderBanner } from "../src/banner/templates/index.ts";
import type { ServerBannerData } from "../src/banner/model.ts";
import { encodePng, sansFamily } from "../src/render/index.ts";
import { OutlineFace } from "../src/render/text/outline-face.ts";
import { spread } from "./report/stats.ts";

const QUICK = process.argv.includes("--quick");
const RUNS = QUICK ? 300 : 3000;
const face = sansFamily().regular as OutlineFace;
const fast = OutlineFace.prototype.shape;

/** Runs `a` and `b` alternately on fresh inputs, `RUNS` times each; median and p95 per side in µs. */
function alternate(a: (i: number) => void, b: (i: number) => void): string {
  const [timesA, timesB] = [[] as number[], [] as number[]];
  for (let i = -200; i < RUNS; i++) {
    for (const [run, times, input] of [[a, timesA, 2 * i], [b, timesB, 2 * i + 1]] as const) {
      const started = performance.now();
      run(input + 1_000_000);
      if (i >= 0) times.push((performance.now() - started) * 1000);
    }
  }
  const [sa, sb] = [spread(timesA), spread(timesB)];
  return `${sa.median.toFixed(1)} µs (p95 ${sa.p95.toFixed(1)}) vs ${sb.median.toFixed(1)} µs (p95 ${sb.p95.toFixed(1)}): ${(sb.median / sa.median).toFixed(1)}x`;
}

const name = (i: number) => `Skyblock Network ${i}`;
console.log(`new name ("Skyblock Network N"), fast path vs fontkit: ${alternate((i) => face.shape(name(i)), (i) => face.shapeWithFontkit(name(i)))}`);
const motd = (i: number) => `Join now at play.example.com - ${i} online`;
console.log(`new MOTD line, fast path vs fontkit: ${alternate((i) => face.shape(motd(i)), (i) => face.shapeWithFontkit(motd(i)))}`);

const HISTORY = Array.from({ length: 288 }, (_, k) => ({ at: k * 300_000, online: 800 + ((k * 37) % 400) }));
const serverData = (i: number): ServerBannerData => ({
  name: name(i), status: "online", players: { online: 1_000 + (i % 4000), max: 5_000 },
  motd: ["§6§lSKYBLOCK §7- §aNew season!", "§bJoin now §7at §eplay.example.com"], version: "1.21.4", latencyMs: 35, favicon: null,
  history: HISTORY,
});
const size = { width: 468, height: 60 };
for (const info of templates.values()) {
  if (info.kind !== "server") continue;
  const banner = (i: number) => encodePng(renderBanner(info.key, serverData(i), { size, theme: info.defaultTheme, scale: 1 }));
  const withFontkit = (i: number) => {
    OutlineFace.prototype.shape = OutlineFace.prototype.shapeWithFontkit;
    try { banner(i); } finally { OutlineFace.prototype.shape = fast; }
  };
  console.log(`cold 468x60 ${info.key} (new name and count per run), fast path vs fontkit only: ${alternate(banner, withFontkit)}`);
}
