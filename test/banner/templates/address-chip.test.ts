// The join address's chip is one part shared by every server template: the
// same proportions at each size, the same mark (the copy sign), drawn in the
// accent where the template offers `accent`. Read back from real drawings.

import { describe, expect, test } from "bun:test";
import type { AddressPlace } from "../../../src/banner/address-chip.ts";
import type { LayoutKey } from "../../../src/banner/layout-keys.ts";
import { BANNER_SIZES } from "../../../src/banner/model.ts";
import { templates } from "../../../src/banner/templates/catalogue.ts";
import { drawings } from "../../../src/banner/templates/index.ts";
import { PALETTES } from "../../../src/banner/theme.ts";
import { parseHexColor, type Pixmap } from "../../../src/render/index.ts";
import { realistic } from "../../support/banner-samples.ts";
import { area, draw, layoutOf, sizeName, type Area } from "./template-pixels.ts";

/** The server templates drawn in DejaVu Sans; classic draws its chip in Pennant Pixel. */
const SANS = ["card", "minimal-status", "players-bar", "sparkline"] as const;
const SERVER = [...SANS, "classic"] as const;
/** Cap height in em of each face (DejaVu Sans; Pennant Pixel's seven rows of eight). */
const CAP = { sans: 0.73, pixel: 7 / 8 };
const magenta = parseHexColor("#ff00ff")!;
const LAYOUT_KEYS: LayoutKey[] = ["468x60", "728x90", "300x250", "600x150"];
/** The mark's colour: the accent (magenta here), or the muted grey where a template does not offer `accent`. */
const markColour = (key: string) => (templates.get(key)!.uses.includes("accent") ? magenta : PALETTES.dark.muted);

const placeOf = (key: string, layoutKey: string) =>
  (drawings.get(key)!.layouts as Record<string, { address: AddressPlace }>)[layoutKey]!.address;

/** The box of the pixels within `where` that are exactly `color` (the mark is a solid fill), or null. */
function boundsOf(p: Pixmap, color: typeof magenta, where: Area): Area | null {
  let x0 = Infinity, y0 = Infinity, x1 = -1, y1 = -1;
  for (let y = where.y; y < where.y + where.height; y++) {
    for (let x = where.x; x < where.x + where.width; x++) {
      const c = p.pixel(x, y);
      if (c.a !== 255 || c.r !== color.r || c.g !== color.g || c.b !== color.b) continue;
      x0 = Math.min(x0, x), y0 = Math.min(y0, y), x1 = Math.max(x1, x), y1 = Math.max(y1, y);
    }
  }
  return x1 < 0 ? null : { x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 };
}

describe("the address chip in every server template", () => {
  test("has one height and one text size per layout; classic's pixel capitals fill the same share of it", () => {
    for (const layoutKey of LAYOUT_KEYS) {
      const [first, ...rest] = SANS.map((key) => placeOf(key, layoutKey));
      for (const [i, place] of rest.entries()) {
        const where = `${SANS[i + 1]} ${layoutKey}`;
        expect({ where, height: place.box.height, size: place.size }).toEqual({ where, height: first!.box.height, size: first!.size });
      }
      const share = (first!.size.max * CAP.sans) / first!.box.height;
      const classic = placeOf("classic", layoutKey);
      const where = `classic ${layoutKey}`;
      expect({ where, near: Math.abs((classic.size.max * CAP.pixel) / classic.box.height - share) < 0.04 }).toEqual({ where, near: true });
    }
  });

  test("carries the copy mark: two squares, the front one hollow, in the accent, the same size in every template", () => {
    for (const size of BANNER_SIZES) {
      const marks: Record<string, { width: number; height: number }> = {};
      for (const key of SERVER) {
        const { layout, factor } = layoutOf<{ address: AddressPlace }>(key, size);
        const p = draw(key, realistic, size, { accent: magenta });
        const mark = boundsOf(p, markColour(key), area(layout.address.box, factor, p));
        const where = `${key} ${sizeName(size)}`;
        expect({ where, drawn: mark !== null }).toEqual({ where, drawn: true });
        const { x, y, width, height } = mark!;
        expect({ where, square: Math.abs(width - height) <= 1 }).toEqual({ where, square: true });
        // Two squares, the back one at the top left: ink in those two corners of the mark, none in the other two,
        // and the front square hollow (a play triangle or a block fails all of these).
        const ink = markColour(key), is = (x: number, y: number) => { const c = p.pixel(x, y); return c.a === 255 && c.r === ink.r && c.g === ink.g && c.b === ink.b; };
        const right = x + width - 1, bottom = y + height - 1;
        const shape = { topLeft: is(x, y), bottomRight: is(right, bottom), topRight: is(right, y), bottomLeft: is(x, bottom), frontMiddle: is(x + Math.floor(width * 0.65), y + Math.floor(height * 0.65)) };
        expect({ where, shape }).toEqual({ where, shape: { topLeft: true, bottomRight: true, topRight: false, bottomLeft: false, frontMiddle: false } });
        marks[key] = { width, height };
      }
      // Every sans template draws the same mark at the same size.
      const sans = Object.entries(marks).filter(([key]) => key !== "classic");
      for (const [key, mark] of sans) expect({ key, size: sizeName(size), mark }).toEqual({ key, size: sizeName(size), mark: sans[0]![1] });
    }
  });
});
