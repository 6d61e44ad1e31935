// Shaping bench (numbers, not tests): a string never shaped before, by
// fontkit's layout and from the faces' tables (learned ahead of time,
// src/render/text/face-tables.ts), alternating in one process; then a cold
// 468x60 banner (a new server name per run, drawn and encoded to PNG) with the
// tables and with fontkit only, alternating; then Latin against CJK banners as
// the server plans, charges and draws them.
//
// Run: bun bench/shaping.ts [--quick]

import { BannerService } from "../src/banner/banner-service.ts";
import { templates } from "../src/banner/templates/catalogue.ts";
import { renderBanner } from "../src/banner/templates/index.ts";
import type { ServerBannerData } from "../src/banner/model.ts";
import { encodePng, sansFamily } from "../src/render/index.ts";
import { OutlineFace } from "../src/render/text/outline-face.ts";
import { CACHE_SHARES } from "../src/config.ts";
import { parseBannerQuery } from "../src/http/banner-query.ts";
import { drawCost } from "../src/http/drawing/draw-cost.ts";
import type { Drawer } from "../src/http/drawing/drawer.ts";
import { InThreadDrawer } from "../src/serve/drawing/in-thread-drawer.ts";
import { RenderPool } from "../src/serve/drawing/render-pool.ts";
import { openSqliteStore } from "../src/store/sqlite-store.ts";
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

// Latin against CJK as the server draws them (issue 38, point 6): a 468x60 PNG
// planned by BannerService, with the units its plan is charged (draw-cost.ts),
// drawn on this thread and on a render thread, Latin and CJK alternating. "new"
// texts are new every draw, every CJK character one not drawn before (a client
// can make it so: Unifont has tens of thousands); "again" repeats one text
// with a new player count, as a live banner is redrawn.
const service = new BannerService({ store: openSqliteStore(":memory:"), lookup: { lookup: () => { throw new Error("no lookups here"); } }, now: Date.now, staleAfterMs: 900_000 });
/** Unifont's CJK ideographs (the unified block and extension A) and Hangul syllables: 38,756 characters, each drawn from its own outline. */
const CJK_POOL = [[0x4e00, 0x9fff], [0x3400, 0x4dbf], [0xac00, 0xd7a3]].flatMap(([first, last]) => Array.from({ length: last! - first! + 1 }, (_, k) => String.fromCodePoint(first! + k)));
/** The repeated texts, from the pool's end; new ones are taken from its start, and start again for each thread drawn on (its caches and fontkit are its own). */
const SAME_CJK = { name: CJK_POOL.slice(-40, -30).join(""), motd: CJK_POOL.slice(-30).join("") };
const SAME_CJK_LONGEST = { name: CJK_POOL.slice(-680, -552).join(""), motd: CJK_POOL.slice(-552, -40).join("") };
let nextIdeograph = 0;
const ideographs = (count: number) => {
  if (nextIdeograph + count > CJK_POOL.length - 680) throw new Error("the bench ran out of new characters");
  return CJK_POOL.slice(nextIdeograph, (nextIdeograph += count)).join("");
};
const latinText = (seed: number, count: number) => `Skyblock Network ${seed} `.repeat(count).slice(0, count);
type Texts = (seed: number) => { name: string; motd: string };
const DRAWS = QUICK ? 20 : 100;
/** The longest texts new each time take 640 characters a draw: fewer draws, so the pool lasts. */
const SCRIPT_CASES: Array<{ name: string; draws: number; latin: Texts; cjk: Texts }> = [
  { name: "name 10 + MOTD 30, new", draws: DRAWS, latin: (i) => ({ name: latinText(i, 10), motd: latinText(i, 30) }), cjk: () => ({ name: ideographs(10), motd: ideographs(30) }) },
  { name: "name 10 + MOTD 30, again", draws: DRAWS, latin: () => ({ name: latinText(7, 10), motd: latinText(7, 30) }), cjk: () => SAME_CJK },
  { name: "longest name 128 + MOTD 512, new", draws: Math.min(DRAWS, 45), latin: (i) => ({ name: latinText(i, 128), motd: latinText(i, 512) }), cjk: () => ({ name: ideographs(128), motd: ideographs(512) }) },
  { name: "longest name 128 + MOTD 512, again", draws: DRAWS, latin: () => ({ name: latinText(7, 128), motd: latinText(7, 512) }), cjk: () => SAME_CJK_LONGEST },
];

async function compareScripts(where: string, drawer: Drawer): Promise<void> {
  console.log(`\n${where}: 468x60 PNG, ms per drawing (median, p95) and units charged`);
  console.log("| text | Latin ms | CJK ms | CJK / Latin | Latin units | CJK units | ms a unit, Latin | ms a unit, CJK |");
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|");
  let players = 0;
  nextIdeograph = 0;
  const drawOne = async ({ name, motd }: { name: string; motd: string }) => {
    const plan = await service.prepare(parseBannerQuery({ server_name: name, motd_line_1: motd, online_players: String(players++ % 5_000), max_players: "5000" }));
    const started = performance.now();
    await drawer.draw(plan);
    return { ms: performance.now() - started, units: drawCost(plan) };
  };
  for (const { name, draws, latin, cjk } of SCRIPT_CASES) {
    const times = { latin: [] as number[], cjk: [] as number[] };
    const units = { latin: 0, cjk: 0 };
    for (let i = -5; i < draws; i++) {
      const [a, b] = [await drawOne(latin(i + 1_000_000)), await drawOne(cjk(i))];
      if (i < 0) continue;
      times.latin.push(a.ms), times.cjk.push(b.ms);
      [units.latin, units.cjk] = [a.units, b.units];
    }
    const [l, c] = [spread(times.latin), spread(times.cjk)];
    console.log(`| ${name} | ${l.median.toFixed(2)} (${l.p95.toFixed(1)}) | ${c.median.toFixed(2)} (${c.p95.toFixed(1)}) | ${(c.median / l.median).toFixed(1)}x | ${units.latin} | ${units.cjk} | ${(l.median / units.latin).toFixed(2)} | ${(c.median / units.cjk).toFixed(2)} |`);
  }
}

await compareScripts("on this thread", new InThreadDrawer(CACHE_SHARES));
const pool = new RenderPool({ threads: 1, cacheBytes: CACHE_SHARES });
await compareScripts("on a render thread", pool);
await pool.close();
