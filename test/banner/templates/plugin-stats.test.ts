// plugin-stats drawn for real and read back from its pixels: three counters
// all drawn at every size, in the order given; captions whole where there is
// room; one number style (compact as badges, or every digit); hide= for the
// icon, version and status.

import { describe, expect, test } from "bun:test";
import { BANNER_SIZES, type BannerSize, type PluginBannerData } from "../../../src/banner/model.ts";
import { counterText } from "../../../src/banner/counter-cells.ts";
import { renderBanner } from "../../../src/banner/templates/index.ts";
import { parseHexColor, type Pixmap } from "../../../src/render/index.ts";

const PLUGIN: PluginBannerData = {
  name: "EzBanners",
  version: "0.2.1",
  counters: [["servers", 1284], ["players", 35_210], ["transactions", 1342]],
  active: true,
};

const ACCENT = parseHexColor("#ff00cc")!;
const draw = (data: PluginBannerData, size: BannerSize) => renderBanner("plugin-stats", data, { size, theme: "dark", scale: 1, accent: ACCENT });

function differing(a: Pixmap, b: Pixmap): number {
  let count = 0;
  for (let i = 0; i < a.pixels.length; i++) if (a.pixels[i] !== b.pixels[i]) count++;
  return count;
}

const where = (size: BannerSize) => `${size.width}x${size.height}`;

describe("counters", () => {
  test("three counters: each one is drawn at every size", () => {
    for (const size of BANNER_SIZES) {
      const all = draw(PLUGIN, size);
      for (let i = 0; i < 3; i++) {
        const counters = PLUGIN.counters.map(([name, value], j) => [name, j === i ? 7 : value] as const);
        expect({ at: where(size), i, drawn: differing(all, draw({ ...PLUGIN, counters }, size)) > 20 }).toEqual({ at: where(size), i, drawn: true });
      }
      expect({ at: where(size), third: differing(all, draw({ ...PLUGIN, counters: PLUGIN.counters.slice(0, 2) }, size)) > 20 }).toEqual({ at: where(size), third: true });
    }
  });

  test("drawn in the order given", () => {
    for (const size of BANNER_SIZES) {
      const swapped = draw({ ...PLUGIN, counters: [PLUGIN.counters[1]!, PLUGIN.counters[0]!, PLUGIN.counters[2]!] }, size);
      expect({ at: where(size), order: differing(draw(PLUGIN, size), swapped) > 0 }).toEqual({ at: where(size), order: true });
    }
  });

  test("captions are whole where there is room: the last letter of a long name is drawn, wrapped if need be", () => {
    // A cut caption ends in an ellipsis before its last letters: two names differing only there would look alike.
    const names = [["transactions", "transactionz"], ["total_downloads", "total_downloadz"], ["active_servers_now", "active_servers_noq"]] as const;
    for (const size of BANNER_SIZES) {
      for (const [name, twin] of names) {
        for (const column of [0, 2]) {
          const withName = (n: string) => PLUGIN.counters.map(([other, value], j) => [j === column ? n : other, value] as const);
          const a = draw({ ...PLUGIN, counters: withName(name) }, size), b = draw({ ...PLUGIN, counters: withName(twin) }, size);
          expect({ at: where(size), name, column, whole: differing(a, b) > 0 }).toEqual({ at: where(size), name, column, whole: true });
        }
      }
    }
  });

  test("a chosen counter the record lacks is drawn as a dash", () => {
    expect(counterText(null, "compact")).toBe("\u2014");
    for (const size of BANNER_SIZES) {
      const missing = draw({ ...PLUGIN, counters: [["servers", 1284], ["shops", null]] }, size);
      expect({ at: where(size), dash: differing(missing, draw({ ...PLUGIN, counters: [["servers", 1284], ["shops", 0]] }, size)) > 0 }).toEqual({ at: where(size), dash: true });
    }
  });
});

describe("one number style", () => {
  test("compact by default, as badges write it: 1342 and 1300 both read 1.3k, 18 234 reads 18k", () => {
    expect([1342, 18_234, 999, 4.5].map((n) => counterText(n, "compact"))).toEqual(["1.3k", "18k", "999", "4.5"]);
    for (const size of BANNER_SIZES) {
      const at = (value: number) => draw({ ...PLUGIN, counters: [["servers", value], ["players", 18_234]] }, size);
      expect({ at: where(size), same: differing(at(1342), at(1300)) }).toEqual({ at: where(size), same: 0 });
    }
  });

  test("numbers=full: every digit, grouped alike from four digits on", () => {
    expect([1342, 18_234, 1_284_512, 4.5].map((n) => counterText(n, "full"))).toEqual(["1\u202f342", "18\u202f234", "1\u202f284\u202f512", "4.5"]);
    for (const size of BANNER_SIZES) {
      const at = (value: number) => draw({ ...PLUGIN, numbers: "full", counters: [["servers", value], ["players", 18_234]] }, size);
      expect({ at: where(size), exact: differing(at(1342), at(1300)) > 0 }).toEqual({ at: where(size), exact: true });
    }
  });
});

describe("hide=", () => {
  const accentPixels = (p: Pixmap) => {
    let count = 0;
    for (let y = 0; y < p.height; y++) for (let x = 0; x < p.width; x++) if (p.pixel(x, y).r > 240 && p.pixel(x, y).g < 20 && p.pixel(x, y).b > 190) count++;
    return count;
  };

  test("icon: the accent-coloured plugin mark is gone", () => {
    for (const size of BANNER_SIZES) {
      expect({ at: where(size), shown: accentPixels(draw(PLUGIN, size)) > 20, hidden: accentPixels(draw({ ...PLUGIN, hidden: new Set(["icon"]) }, size)) })
        .toEqual({ at: where(size), shown: true, hidden: 0 });
    }
  });

  test("version and status: drawn as if the version were unknown; the status's word and dot gone", () => {
    for (const size of BANNER_SIZES) {
      const noVersion = draw({ ...PLUGIN, hidden: new Set(["version"]) }, size);
      expect({ at: where(size), version: differing(noVersion, draw({ ...PLUGIN, version: null }, size)) }).toEqual({ at: where(size), version: 0 });
      const quiet = (active: boolean) => draw({ ...PLUGIN, active, hidden: new Set(["status"]) }, size);
      expect({ at: where(size), status: differing(quiet(true), quiet(false)) }).toEqual({ at: where(size), status: 0 });
      expect({ at: where(size), shown: differing(draw(PLUGIN, size), quiet(true)) > 0 }).toEqual({ at: where(size), shown: true });
    }
  });
});
