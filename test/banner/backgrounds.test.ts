// Background presets (background=NAME) as drawn: every text colour of a
// preset's palette holds 4.5:1 against every pixel of its panel, in both
// themes, at every layout and scale; textures are hard pixel blocks that
// repeat every block; transparent draws nothing.

import { describe, expect, test } from "bun:test";
import { BACKGROUND_LOOKS, BACKGROUND_PRESETS, BLOCK_PIXELS } from "../../src/banner/backgrounds.ts";
import { BannerCaches } from "../../src/banner/banner-caches.ts";
import { contrastRatio, TEXT_CONTRAST } from "../../src/banner/contrast.ts";
import { layoutFor } from "../../src/banner/layout-keys.ts";
import { BANNER_SIZES, type Theme } from "../../src/banner/model.ts";
import { drawPanel } from "../../src/banner/parts.ts";
import { Surface } from "../../src/banner/surface.ts";
import { paletteFor, THEMES, type Palette } from "../../src/banner/theme.ts";
import type { Color, Pixmap } from "../../src/render/index.ts";

const RADIUS = 6;
/** CSS pixels per texture pixel (parts.ts): a block is BLOCK_PIXELS of them. */
const TEXEL = 2;

function panel(name: string, theme: Theme, width: number, height: number, scale: number): { palette: Palette; pixmap: Pixmap } {
  const palette = paletteFor({ theme, background: name as (typeof BACKGROUND_PRESETS)[number]["name"] });
  const surface = new Surface(width, height, scale, new BannerCaches());
  drawPanel(surface, palette, RADIUS);
  return { palette, pixmap: surface.pixmap };
}

/**
 * Every distinct colour inside the hairline and off the rounded corners
 * (text never stands on the edge, and the hairline's arcs blend into the
 * background there).
 */
function insideColors(pixmap: Pixmap, scale: number): Color[] {
  const seen = new Map<number, Color>();
  const { width, height, data } = pixmap;
  const corner = RADIUS * scale;
  const inCorner = (x: number, y: number) => (x < corner || x >= width - corner) && (y < corner || y >= height - corner);
  for (let y = scale; y < height - scale; y++) {
    for (let x = scale; x < width - scale; x++) {
      const i = (y * width + x) * 4;
      if (inCorner(x, y)) continue;
      expect(data[i + 3]).toBe(255);
      const key = (data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!;
      if (!seen.has(key)) seen.set(key, { r: data[i]!, g: data[i + 1]!, b: data[i + 2]!, a: 255 });
    }
  }
  return [...seen.values()];
}

/** The widest contrast between two colours of one texture (see "textures"). */
const MAX_TEXTURE_SPREAD = 1.8;

const drawn = BACKGROUND_PRESETS.filter((preset) => preset.kind !== "none");

describe("text on every preset", () => {
  for (const { name } of drawn) {
    test(`${name}: text, muted, MOTD and status words hold 4.5:1 on every pixel, dark and light, every size and scale`, () => {
      for (const theme of THEMES) {
        for (const size of BANNER_SIZES) {
          const layout = layoutFor(size)!;
          for (const scale of [1, 2]) {
            const { palette, pixmap } = panel(name, theme, layout.width, layout.height, layout.factor * scale);
            const colors = insideColors(pixmap, layout.factor * scale);
            expect(colors.length).toBeGreaterThan(1);
            const texts = { text: palette.text, muted: palette.muted, motd: palette.motd, ...palette.statusText };
            for (const [role, color] of Object.entries(texts)) {
              const worst = Math.min(...colors.map((backdrop) => contrastRatio(color, backdrop)));
              expect([name, theme, size.width, scale, role, worst >= TEXT_CONTRAST]).toEqual([name, theme, size.width, scale, role, true]);
            }
          }
        }
      }
    });
  }

  test("the main text keeps its theme's colour on every preset (the overlay makes room for it), and the texture stays visible", () => {
    for (const { name } of drawn) {
      for (const theme of THEMES) {
        const { palette, pixmap } = panel(name, theme, 468, 60, 1);
        expect([name, theme, palette.text]).toEqual([name, theme, paletteFor({ theme }).text]);
        expect([name, theme, insideColors(pixmap, 1).length >= 3]).toEqual([name, theme, true]);
      }
    }
  });
});

describe("textures", () => {
  const textures = BACKGROUND_PRESETS.filter((preset) => BACKGROUND_LOOKS[preset.name].kind === "texture");

  test("every texture pixel is a hard square of TEXEL CSS pixels, and the block repeats every BLOCK_PIXELS of them", () => {
    for (const { name } of textures) {
      for (const scale of [1, 2]) {
        const { pixmap } = panel(name, "dark", 468, 60, scale);
        const side = TEXEL * scale, period = BLOCK_PIXELS * side;
        const at = (x: number, y: number) => pixmap.pixels[y * pixmap.width + x];
        // Rows 8..39 (CSS 4..19 and beyond the hairline): inside the panel, clear of the rounded corners.
        let blocky = true, repeating = true, varied = false;
        for (let y = 8 * scale; y < 40 * scale; y++) {
          for (let x = 8 * scale; x < 400 * scale; x++) {
            if (at(x, y) !== at(x - (x % side), y - (y % side))) blocky = false;
            if (x + period < 400 * scale && at(x, y) !== at(x + period, y)) repeating = false;
            if (at(x, y) !== at(8 * scale, 8 * scale)) varied = true;
          }
        }
        expect([name, scale, blocky, repeating, varied]).toEqual([name, scale, true, true, true]);
      }
    }
  });

  // Small text (classic's 8 px MOTD at 468x60) stands on single texels: a
  // texture whose shades span more than this reads as lumps competing with
  // the glyphs, though every pixel holds 4.5:1 (nether once drew 2.0:1).
  test(`no texture's shades, as drawn, span more than ${MAX_TEXTURE_SPREAD}:1 in either theme (the text stays the figure)`, () => {
    for (const { name } of textures) {
      for (const theme of THEMES) {
        const colors = insideColors(panel(name, theme, 468, 60, 1).pixmap, 1);
        const spread = Math.max(...colors.flatMap((a) => colors.map((b) => contrastRatio(a, b))));
        expect([name, theme, spread <= MAX_TEXTURE_SPREAD]).toEqual([name, theme, true]);
      }
    }
  });

  test("each texture draws from its own shades: no two presets share a colour in one theme", () => {
    for (const theme of THEMES) {
      const owners = new Map<number, string>();
      for (const { name } of textures) {
        for (const color of insideColors(panel(name, theme, 468, 60, 1).pixmap, 1)) {
          const key = (color.r << 16) | (color.g << 8) | color.b;
          expect([theme, key, owners.get(key) ?? name]).toEqual([theme, key, name]);
          owners.set(key, name);
        }
      }
    }
  });
});

test("transparent draws nothing at all (not even the hairline) and keeps the theme's text colours", () => {
  for (const theme of THEMES) {
    const { palette, pixmap } = panel("transparent", theme, 468, 60, 1);
    expect(pixmap.data.every((byte) => byte === 0)).toBe(true);
    const own = paletteFor({ theme });
    expect({ text: palette.text, muted: palette.muted, motd: palette.motd }).toEqual({ text: own.text, muted: own.muted, motd: own.motd });
  }
});
