// The panel every template starts with is copied from a kept drawing after
// its first: the same pixels, only onto a blank surface, and bounded.

import { expect, test } from "bun:test";
import { BannerCaches } from "../../src/banner/banner-caches.ts";
import { CacheBudget } from "../../src/cache/budget.ts";
import { CACHE_SHARES } from "../../src/config.ts";
import type { ServerBannerData } from "../../src/banner/model.ts";
import { drawPanel } from "../../src/banner/parts.ts";
import { Surface } from "../../src/banner/surface.ts";
import { renderBanner } from "../../src/banner/templates/index.ts";
import { paletteFor, type Palette } from "../../src/banner/theme.ts";
import { Path, rgba, solid, type Pixmap } from "../../src/render/index.ts";

const DATA: ServerBannerData = {
  name: "Panel test", status: "online", players: { online: 3, max: 20 }, motd: ["§aHello", ""],
  version: null, latencyMs: null, favicon: null, history: [],
};
const size = { width: 468, height: 60 };

/** The panel drawn in full: on a surface that is no longer blank (an empty fill) but still all transparent. */
function drawnInFull(width: number, height: number, scale: number, palette: Palette, radius: number): Pixmap {
  const surface = new Surface(width, height, scale, new BannerCaches());
  surface.fill(new Path(), solid(rgba(0, 0, 0)));
  drawPanel(surface, palette, radius);
  return surface.pixmap;
}

function drawnOnBlank(caches: BannerCaches, width: number, height: number, scale: number, palette: Palette, radius: number): Pixmap {
  const surface = new Surface(width, height, scale, caches);
  drawPanel(surface, palette, radius);
  return surface.pixmap;
}

test("a panel copied from a kept drawing has the pixels of one drawn in full, for each size, scale, radius and colour", () => {
  const dark = paletteFor({ theme: "dark" });
  const [from, to] = dark.background;
  const palettes: Palette[] = [
    dark, paletteFor({ theme: "light" }), paletteFor({ theme: "dark", background: rgba(17, 99, 43) }),
    // Presets: a texture in each theme, a gradient.
    paletteFor({ theme: "dark", background: "stone" }), paletteFor({ theme: "light", background: "stone" }), paletteFor({ theme: "dark", background: "ocean" }),
    // Each colour on its own: the start, the end, the hairline.
    { ...dark, background: [rgba(200, 40, 40), to] }, { ...dark, background: [from, rgba(40, 200, 40)] }, { ...dark, border: rgba(250, 250, 0) },
  ];
  const cases = palettes.flatMap((palette) => [
    [468, 60, 1, palette, 6], [468, 60, 1, palette, 12], [468, 60, 2, palette, 6], [300, 250, 1, palette, 10],
  ] as const);
  // Twice over: the first round draws and keeps, the second copies; each must match its own full drawing.
  const caches = new BannerCaches({ budget: new CacheBudget({ ...CACHE_SHARES, banner_panels: 16 * 1024 * 1024 }) });
  for (let round = 0; round < 2; round++) {
    for (const [width, height, scale, palette, radius] of cases) {
      const expected = drawnInFull(width, height, scale, palette, radius);
      const actual = drawnOnBlank(caches, width, height, scale, palette, radius);
      expect({ width, height, scale, radius, theme: palette.theme, same: Buffer.from(actual.data).equals(Buffer.from(expected.data)) })
        .toEqual({ width, height, scale, radius, theme: palette.theme, same: true });
    }
  }
  expect(caches.panels.stats.hits).toBe(cases.length);
});

test("a banner drawn over a kept panel has the pixels of the one that kept it", () => {
  const options = { size, theme: "dark" as const, scale: 1 as const, background: rgba(99, 17, 43) };
  const caches = new BannerCaches();
  const first = renderBanner("minimal-status", DATA, options, caches);
  expect(caches.panels.stats).toMatchObject({ entries: 1, hits: 0 });
  const second = renderBanner("minimal-status", DATA, options, caches);
  expect(caches.panels.stats.hits).toBe(1);
  expect(Buffer.from(second.data).equals(Buffer.from(first.data))).toBe(true);
});

test("on a surface already drawn on, the panel is drawn over it, not copied", () => {
  const palette = paletteFor({ theme: "light" });
  const caches = new BannerCaches();
  const blank = new Surface(468, 60, 1, caches);
  drawPanel(blank, palette, 6);
  const red = new Surface(468, 60, 1, caches);
  red.fill(new Path().rect(0, 0, 468, 60), solid(rgba(255, 0, 0)));
  drawPanel(red, palette, 6);
  // The panel's rounded corner leaves the red showing; a copy of the kept panel would leave it transparent.
  expect(blank.pixmap.pixel(0, 0).a).toBe(0);
  expect(red.pixmap.pixel(0, 0)).toEqual(rgba(255, 0, 0));
  expect(() => red.copyBlankDrawing(blank.pixmap.pixels)).toThrow(RangeError);
});

test("kept panels stay within their byte bound whatever backgrounds are asked for", () => {
  const caches = new BannerCaches();
  for (let i = 0; i < 60; i++) {
    renderBanner("minimal-status", DATA, { size: { width: 728, height: 90 }, theme: "dark", scale: 1, background: rgba(i, 200 - i, 90) }, caches);
  }
  const { entries, bytes, maxBytes, evictions } = caches.panels.stats;
  expect(maxBytes).toBe(4 * 1024 * 1024);
  expect(bytes).toBeLessThanOrEqual(maxBytes);
  expect(entries).toBeLessThan(60);
  expect(evictions).toBe(60 - entries);
  // 1200x300 panels (1.4 MB) are drawn every time, never kept.
  const large = { width: 1200, height: 300 };
  renderBanner("minimal-status", DATA, { size: large, theme: "dark", scale: 1, background: rgba(1, 2, 3) }, caches);
  expect(caches.panels.stats.entries).toBe(entries);
});
