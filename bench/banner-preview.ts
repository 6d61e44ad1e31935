// Banner preview (a tool to look at, not a test): every template at every
// size in both themes with realistic and stress data, as PNGs plus one
// contact sheet per template; then the median draw time per template at
// 468x60 and 1200x300 (pixmap only, no encoding).
//
// Run: bun bench/banner-preview.ts --out DIR [--scale 2] [--only KEY]

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gameVersion } from "../src/banner/version.ts";
import { splitMotd } from "../src/banner/motd.ts";
import { BANNER_SIZES, type BannerOptions, type PluginBannerData, type ServerBannerData, type Theme } from "../src/banner/model.ts";
import { renderBanner, templates } from "../src/banner/templates/index.ts";
import { Pixmap, drawImage, encodePng, halve, parseHexColor } from "../src/render/index.ts";
import { iconRgba } from "./render/scenes.ts";

const argument = (name: string): string | undefined => {
  const index = process.argv.indexOf(name);
  return index > 0 ? process.argv[index + 1] : undefined;
};
const outDir = argument("--out");
if (!outDir) {
  console.error("usage: bun bench/banner-preview.ts --out DIR [--scale 2] [--only TEMPLATE]");
  process.exit(2);
}
const scale = argument("--scale") === "2" ? 2 : 1;
const only = argument("--only");

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 10, 21, 11, 0);

/** A day of samples every 10 minutes: quiet mornings, an evening peak, some noise. */
function dayOfPlayers(peak: number): Array<{ at: number; online: number }> {
  return Array.from({ length: 145 }, (_, i) => {
    const at = NOW - 24 * HOUR + i * 600_000;
    const hour = new Date(at).getUTCHours() + new Date(at).getUTCMinutes() / 60;
    const fromPeak = Math.min(Math.abs(hour - 20.5), 24 - Math.abs(hour - 20.5));
    const evening = Math.exp(-(fromPeak * fromPeak) / 18);
    const noise = Math.sin(i * 0.9) * 0.025 + Math.sin(i * 0.23) * 0.05;
    return { at, online: Math.max(0, Math.round(peak * (0.12 + 0.8 * evening + noise))) };
  });
}

const favicon = Pixmap.fromStraightRgba(64, 64, iconRgba());

// What the deployed EzBanners plugin pushes, as the resolver will hand it over (a real display name).
const realistic: ServerBannerData = {
  name: "Skyblock Paradise",
  status: "online",
  players: { online: 3, max: 50 },
  motd: splitMotd("§aWelcome to §6Skyblock Paradise§a!\n§7Islands, quests and weekly events"),
  version: gameVersion("1.21.4-232-ab12cd3 (MC: 1.21.4)"),
  latencyMs: 42,
  favicon,
  history: dayOfPlayers(14).map((p, i, all) => (i === all.length - 1 ? { ...p, online: 3 } : p)),
};

const stress: ServerBannerData = {
  name: "The Ultimate Minecraft Survival Experience Network — Season 12 Reloaded",
  status: "online",
  players: { online: 12_345, max: 100_000 },
  motd: splitMotd("        §c§l✦ §6§lMEGA §e§lSALE §a§l✦ §b50% OFF §d§nall ranks§r §1dark blue §0black §8grey§r        \n  §f§kxx§r §9Factions §7| §2Prisons §7| §3Skywars §7| §5Bedwars §7| §4Hardcore §7| §eCreative  "),
  version: gameVersion("Paper 1.20.1 - 1.21.4"),
  latencyMs: 480,
  favicon: null,
  history: dayOfPlayers(15_000).map((p, i, all) => (i === all.length - 1 ? { ...p, online: 12_345 } : p)),
};

const offline: ServerBannerData = {
  name: "Creative Builders",
  status: "offline",
  players: null,
  motd: ["", ""],
  version: null,
  latencyMs: null,
  favicon: null,
  history: [],
};

const pluginRealistic: PluginBannerData = {
  name: "EzBanners",
  version: "0.2.1",
  counters: [["servers", 1284], ["players", 35_210]],
  active: true,
};

const pluginStress: PluginBannerData = {
  name: "AdvancedEnchantmentsAndCustomItemsReloaded Premium Edition",
  version: "12.4.0-SNAPSHOT-build.2291",
  counters: [["servers", 48_213], ["players", 1_284_512], ["total_downloads", 9_876_543], ["rating", 5], ["reviews", 2210], ["worlds", 12]],
  active: false,
};

const datasets = (kind: "server" | "plugin") =>
  kind === "server"
    ? ([["realistic", realistic], ["stress", stress], ["offline", offline]] as const)
    : ([["realistic", pluginRealistic], ["stress", pluginStress]] as const);

const themes: Theme[] = ["dark", "light"];
mkdirSync(outDir, { recursive: true });

/** Lays out rows of images on a page-grey sheet; 1200x300 shown at half size, as pages show it. */
function contactSheet(rows: Pixmap[][]): Pixmap {
  const gap = 16;
  const shown = rows.map((row) => row.map((image) => (image.width > 900 ? halve(image) : image)));
  const width = Math.max(...shown.map((row) => row.reduce((sum, image) => sum + image.width + gap, gap)));
  const height = shown.reduce((sum, row) => sum + Math.max(...row.map((image) => image.height)) + gap, gap);
  const sheet = new Pixmap(width, height);
  sheet.fill(parseHexColor("#9aa3ad")!);
  let y = gap;
  for (const row of shown) {
    let x = gap;
    for (const image of row) {
      drawImage(sheet, image, { x, y, width: image.width, height: image.height });
      x += image.width + gap;
    }
    y += Math.max(...row.map((image) => image.height)) + gap;
  }
  return sheet;
}

for (const info of templates.values()) {
  if (only && info.key !== only) continue;
  const rows: Pixmap[][] = [];
  for (const [label, data] of datasets(info.kind)) {
    for (const size of BANNER_SIZES) {
      const row: Pixmap[] = [];
      for (const theme of themes) {
        const pixmap = renderBanner(info.key, data, { size, theme, scale });
        writeFileSync(join(outDir, `${info.key}-${label}-${size.width}x${size.height}-${theme}${scale === 2 ? "@2x" : ""}.png`), encodePng(pixmap));
        row.push(pixmap);
      }
      rows.push(row);
    }
  }
  writeFileSync(join(outDir, `sheet-${info.key}.png`), encodePng(contactSheet(rows)));
}

// Draw time: the pixmap only, realistic data, after a warm-up.
function median(run: () => unknown): number {
  for (let i = 0; i < 30; i++) run();
  const times: number[] = [];
  for (let i = 0; i < 200; i++) {
    const started = performance.now();
    run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[times.length >> 1]!;
}

console.log("| template | 468x60 median ms | 1200x300 median ms |");
console.log("| --- | --- | --- |");
for (const info of templates.values()) {
  const data = info.kind === "server" ? realistic : pluginRealistic;
  const options = (width: number, height: number): BannerOptions => ({ size: { width, height }, theme: info.defaultTheme, scale: 1 });
  const small = median(() => renderBanner(info.key, data, options(468, 60)));
  const large = median(() => renderBanner(info.key, data, options(1200, 300)));
  console.log(`| ${info.key} | ${small.toFixed(3)} | ${large.toFixed(3)} |`);
}
