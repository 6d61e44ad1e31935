// Banner bench (numbers, not tests): cold drawing + PNG encoding of every
// template at every size (median, p95), no cache involved. What banners cost
// through HTTP (cached, new, by size, in bursts, in a cache-miss storm) is
// measured against a server process by bench/http.ts.
//
// Run: npm run bench:banner [-- --quick] [--json FILE]
// Part of `npm run bench` (bench/index.ts), which writes docs/performance.md.

import { writeFileSync } from "node:fs";
import { BANNER_SIZES, type BannerData, type ResourceBannerData, type ServerBannerData } from "../src/banner/model.ts";
import { templates } from "../src/banner/templates/catalogue.ts";
import { renderBanner } from "../src/banner/templates/index.ts";
import { encodePng } from "../src/render/index.ts";
import { ms, table } from "./report/markdown.ts";
import { partOptions } from "./report/options.ts";
import { spread } from "./report/stats.ts";

const options = partOptions(process.argv.slice(2), "bun bench/banner.ts [--quick] [--json FILE]");
const SAMPLES = options.quick ? 30 : 150;

/** A day of history at the resolver's resolution (one point per 5 minutes). */
const HISTORY = Array.from({ length: 288 }, (_, k) => ({ at: k * 300_000, online: 800 + ((k * 37) % 400) }));

function serverData(i: number): ServerBannerData {
  return {
    name: `Skyblock Network ${i}`, status: "online", players: { online: 1_000 + i, max: 5_000 },
    motd: ["§6§lSKYBLOCK §7- §aNew season!", "§bJoin now §7at §eplay.example.com"], version: "1.21.4", latencyMs: 35, favicon: null,
    history: HISTORY,
  };
}

const plugin = { name: "EzShops", version: "3.2.1", counters: [["servers", 1_234], ["players", 56_789], ["shops", 4_321]] as Array<[string, number]>, active: true };

function resourceData(i: number): ResourceBannerData {
  return {
    of: "project", site: "Modrinth", name: `Sodium ${i}`, author: "jellysquid3", projects: null, icon: null, downloads: 81_000_000 + i,
    rating: null, followers: 25_000, followersWord: "followers", version: "mc1.21.4-0.6.5", gameVersions: "1.20-1.21.4",
  };
}

/** New data for template `kind` every call (a new count or name): nothing drawn before is reused. */
function dataFor(kind: string, i: number): BannerData {
  if (kind === "plugin") return { ...plugin, counters: [...plugin.counters, ["i", i] as [string, number]] };
  if (kind === "market") return resourceData(i);
  return serverData(i);
}

// One pass over everything first, so no template is timed while the JIT warms up.
for (const info of templates.values()) {
  for (const size of BANNER_SIZES) {
    for (let i = 0; i < 10; i++) encodePng(renderBanner(info.key, dataFor(info.kind, i), { size, theme: info.defaultTheme, scale: 1 }));
  }
}

const figures: Array<{ template: string; sizes: Array<{ size: string; median: number; p95: number }> }> = [];
for (const info of templates.values()) {
  const sizes = BANNER_SIZES.map((size) => {
    const times: number[] = [];
    for (let i = -5; i < SAMPLES; i++) {
      const data = dataFor(info.kind, i);
      const started = performance.now();
      encodePng(renderBanner(info.key, data, { size, theme: info.defaultTheme, scale: 1 }));
      if (i >= 0) times.push(performance.now() - started);
    }
    const { median, p95 } = spread(times);
    return { size: `${size.width}x${size.height}`, median, p95 };
  });
  figures.push({ template: info.key, sizes });
}

const markdown = table(
  ["template", ...BANNER_SIZES.map((s) => `${s.width}x${s.height} median / p95 ms`)],
  figures.map((f) => [f.template, ...f.sizes.map((s) => `${ms(s.median)} / ${ms(s.p95)}`)]),
);
console.log(`Cold drawing + PNG, ${SAMPLES} samples per cell (a busy name, a bold two-line MOTD and a day of history):\n\n${markdown}`);
if (options.json) writeFileSync(options.json, JSON.stringify({ figures: { samples: SAMPLES, templates: figures }, markdown: { templates: markdown } }));
