// Banner preview (a tool to look at, not a test): the median draw time per
// template at 468x60 and 1200x300 (pixmap only, no encoding), then every
// template at every size in both themes with realistic, stress and offline
// data as PNGs, plus one contact sheet per template.
//
// Run: bun bench/banner-preview.ts --out DIR [--scale 2] [--only KEY]

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BANNER_SIZES, type BannerOptions, type Theme } from "../src/banner/model.ts";
import { templates } from "../src/banner/templates/catalogue.ts";
import { renderBanner } from "../src/banner/templates/index.ts";
import { encodePng, type Pixmap } from "../src/render/index.ts";
import { sampleFor, samplesFor } from "../test/support/banner-samples.ts";
import { contactSheet } from "../test/support/contact-sheet.ts";

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

// Draw time first (before thousands of PNGs load the heap): the pixmap only, realistic data, after a warm-up.
function median(run: () => unknown): number {
  for (let i = 0; i < 100; i++) run();
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
  const data = sampleFor(info.kind);
  const options = (width: number, height: number): BannerOptions => ({ size: { width, height }, theme: info.defaultTheme, scale: 1 });
  const small = median(() => renderBanner(info.key, data, options(468, 60)));
  const large = median(() => renderBanner(info.key, data, options(1200, 300)));
  console.log(`| ${info.key} | ${small.toFixed(3)} | ${large.toFixed(3)} |`);
}

const themes: Theme[] = ["dark", "light"];
mkdirSync(outDir, { recursive: true });

for (const info of templates.values()) {
  if (only && info.key !== only) continue;
  const rows: Pixmap[][] = [];
  for (const [label, data] of samplesFor(info.kind)) {
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

