// sparkline drawn for real and read back from its pixels: a short history is
// a line across the chart, never a lone dot; the peak is never below the
// current count; both MOTD lines, the join address and the version where the
// layout promises them; hide= leaves parts out; the accent colours the chart.

import { describe, expect, test } from "bun:test";
import { layoutFor, type LayoutKey } from "../../../src/banner/layout-keys.ts";
import { BANNER_SIZES, type BannerElement, type BannerSize, type ServerBannerData } from "../../../src/banner/model.ts";
import { templates } from "../../../src/banner/templates/catalogue.ts";
import { drawings, renderBanner } from "../../../src/banner/templates/index.ts";
import type { SparklineLayout } from "../../../src/banner/templates/sparkline.ts";
import type { TextSlot } from "../../../src/banner/slots.ts";
import { parseHexColor, type Color, type Pixmap } from "../../../src/render/index.ts";

const T0 = Date.UTC(2026, 10, 21, 10, 0);
const MINUTE = 60_000;

const SERVER: ServerBannerData = {
  name: "Skyblock Paradise",
  status: "online",
  players: { online: 3, max: 50 },
  motd: ["§aWelcome to Skyblock", "§7Islands and quests"],
  version: "1.21.4",
  latencyMs: null,
  favicon: null,
  history: [],
  address: "play.example.net",
};

/** Far from every theme colour: whatever is drawn in it is the chart's. */
const ACCENT = parseHexColor("#ff00cc")!;

function layoutOf(size: BannerSize): { layout: SparklineLayout; f: number } {
  const choice = layoutFor(size)!;
  return { layout: drawings.get("sparkline")!.layouts[choice.key as LayoutKey] as SparklineLayout, f: choice.factor };
}

const draw = (data: ServerBannerData, size: BannerSize) => renderBanner("sparkline", data, { size, theme: "dark", scale: 1, accent: ACCENT });

/** Close to `color` (opaque or nearly: the area under the line is faint, the line itself is not). */
const isNear = (pixel: Color, color: Color) =>
  pixel.a > 200 && Math.abs(pixel.r - color.r) <= 40 && Math.abs(pixel.g - color.g) <= 40 && Math.abs(pixel.b - color.b) <= 40;

interface Area {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The chart's box in device pixels, with room for the line's width and markers. */
function chartArea(layout: SparklineLayout, f: number): Area {
  const m = layout.marker + layout.line;
  const { chart } = layout;
  return { x: Math.floor((chart.x - m) * f), y: Math.floor((chart.y - m) * f), width: Math.ceil((chart.width + 2 * m) * f), height: Math.ceil((chart.height + 2 * m) * f) };
}

/** The longest horizontal run of accent pixels in any row of `area`. */
function longestRun(p: Pixmap, area: Area): number {
  let longest = 0;
  for (let y = area.y; y < area.y + area.height; y++) {
    let run = 0;
    for (let x = area.x; x < area.x + area.width; x++) {
      run = isNear(p.pixel(x, y), ACCENT) ? run + 1 : 0;
      longest = Math.max(longest, run);
    }
  }
  return longest;
}

/** Columns of `area` holding at least one accent pixel. */
function inkedColumns(p: Pixmap, area: Area): number {
  let columns = 0;
  for (let x = area.x; x < area.x + area.width; x++) {
    for (let y = area.y; y < area.y + area.height; y++) {
      if (isNear(p.pixel(x, y), ACCENT)) {
        columns++;
        break;
      }
    }
  }
  return columns;
}

/** The box a text slot's line occupies (capitals to descenders), in device pixels. */
function slotArea(slot: TextSlot, f: number): Area {
  const top = slot.baseline - slot.size.max * 0.8;
  return { x: Math.floor(slot.x * f), y: Math.floor(top * f), width: Math.ceil(slot.width * f), height: Math.ceil(slot.size.max * 1.05 * f) };
}

/** Pixels that differ between two drawings inside `area` (everywhere when none given). */
function differing(a: Pixmap, b: Pixmap, area: Area = { x: 0, y: 0, width: a.width, height: a.height }): number {
  let count = 0;
  for (let y = Math.max(0, area.y); y < Math.min(a.height, area.y + area.height); y++) {
    for (let x = Math.max(0, area.x); x < Math.min(a.width, area.x + area.width); x++) {
      if (a.pixels[y * a.width + x] !== b.pixels[y * a.width + x]) count++;
    }
  }
  return count;
}

describe("a short history", () => {
  test("one sample: a flat line across the chart at the known count, not a lone dot", () => {
    for (const size of BANNER_SIZES) {
      const { layout, f } = layoutOf(size);
      for (const history of [[{ at: T0, online: 5 }], []]) {
        const p = draw({ ...SERVER, history }, size);
        const where = `${size.width}x${size.height} ${history.length} sample(s)`;
        // A line, not a marker: the run spans most of the chart.
        expect({ where, run: longestRun(p, chartArea(layout, f)) >= layout.chart.width * f * 0.9 }).toEqual({ where, run: true });
      }
    }
  });

  test("two samples five minutes apart span the chart (under 24 h the chart starts at the first sample)", () => {
    const history = [{ at: T0, online: 5 }, { at: T0 + 5 * MINUTE, online: 3 }];
    for (const size of BANNER_SIZES) {
      const { layout, f } = layoutOf(size);
      const p = draw({ ...SERVER, history }, size);
      const columns = inkedColumns(p, chartArea(layout, f));
      expect({ size, spans: columns >= layout.chart.width * f * 0.9 }).toEqual({ size, spans: true });
    }
  });

  test("no count and no history: no accent at all (nothing known to draw a line at)", () => {
    for (const size of BANNER_SIZES) {
      const p = draw({ ...SERVER, players: null, history: [] }, size);
      const { layout, f } = layoutOf(size);
      expect({ size, ink: inkedColumns(p, chartArea(layout, f)) }).toEqual({ size, ink: 0 });
    }
  });
});

describe("the peak", () => {
  /** Where the peak's number is drawn: its own slot, or the caption it shares ("now · peak 87"). */
  function peakArea(size: BannerSize): Area {
    const { layout, f } = layoutOf(size);
    const slot = layout.peak === null ? layout.now.label : (layout.peak.value ?? layout.peak.label);
    return slotArea(slot, f);
  }

  const flat = (online: number) => [{ at: T0, online }, { at: T0 + 24 * 60 * MINUTE, online }];

  test("is never below now: manual values without history draw the current count as the peak", () => {
    for (const size of BANNER_SIZES) {
      const manual = draw({ ...SERVER, players: { online: 87, max: 200 }, history: [] }, size);
      // The same count as the peak of a day that stayed at 87 (the chart differs, the peak's text must not).
      const day = draw({ ...SERVER, players: { online: 87, max: 200 }, history: flat(87) }, size);
      const where = `${size.width}x${size.height}`;
      expect({ where, peak: differing(manual, day, peakArea(size)) }).toEqual({ where, peak: 0 });
    }
  });

  test("on the strips, names its range: a week drawn for 7d and for 30d differs in the peak's caption and nowhere else", () => {
    const week = Array.from({ length: 7 * 24 }, (_, i) => ({ at: T0 + i * 60 * MINUTE, online: (i * 7) % 23 }));
    const strips = BANNER_SIZES.filter((size) => !layoutOf(size).layout.peak?.value);
    expect(strips.length).toBeGreaterThan(0);
    for (const size of strips) {
      const [sevenDays, thirtyDays] = (["7d", "30d"] as const).map((historyRange) => draw({ ...SERVER, history: week, historyRange }, size));
      const where = `${size.width}x${size.height}`;
      const inCaption = differing(sevenDays!, thirtyDays!, peakArea(size));
      expect({ where, named: inCaption > 0, elsewhere: differing(sevenDays!, thirtyDays!) - inCaption }).toEqual({ where, named: true, elsewhere: 0 });
    }
  });

  test("is never below now: a count above the history's highest is the peak", () => {
    for (const size of BANNER_SIZES) {
      const above = draw({ ...SERVER, players: { online: 30, max: 50 }, history: flat(10) }, size);
      const at30 = draw({ ...SERVER, players: { online: 30, max: 50 }, history: flat(30) }, size);
      const at40 = draw({ ...SERVER, players: { online: 30, max: 50 }, history: [...flat(30), { at: T0 + 60 * MINUTE, online: 40 }] }, size);
      const where = `${size.width}x${size.height}`;
      expect({ where, same: differing(above, at30, peakArea(size)), other: differing(above, at40, peakArea(size)) > 0 })
        .toEqual({ where, same: 0, other: true });
    }
  });
});

describe("what every server template draws", () => {
  const strips = BANNER_SIZES.filter((size) => size.width !== 468);

  test("both MOTD lines at 728x90 and larger", () => {
    for (const size of strips) {
      const both = draw(SERVER, size);
      const first = draw({ ...SERVER, motd: [SERVER.motd[0], ""] }, size);
      const { layout, f } = layoutOf(size);
      const motd = layout.motd!;
      const second = slotArea({ ...motd, baseline: motd.baseline + motd.size.max * motd.lineHeight }, f);
      expect({ size, line2: differing(both, first, second) > 20 }).toEqual({ size, line2: true });
    }
  });

  test("the join address at 728x90 and larger, however long; at 468x60 when it fits whole", () => {
    const long = "mc.the-ultimate-survival-experience-network.example.org:25577";
    for (const size of BANNER_SIZES) {
      const none = draw({ ...SERVER, address: null }, size);
      const where = `${size.width}x${size.height}`;
      expect({ where, short: differing(draw(SERVER, size), none) > 50 }).toEqual({ where, short: true });
      const cut = differing(draw({ ...SERVER, address: long }, size), none);
      expect({ where, long: cut > 50 }).toEqual({ where, long: size.width !== 468 });
    }
  });

  test("the version at every size but 468x60", () => {
    for (const size of BANNER_SIZES) {
      const changed = differing(draw(SERVER, size), draw({ ...SERVER, version: null }, size));
      expect({ size, version: changed > 20 }).toEqual({ size, version: size.width !== 468 });
    }
  });

  test("hide= leaves each part out, as if it were unknown", () => {
    const cases: Array<[BannerElement, Partial<ServerBannerData>]> = [
      ["address", { address: null }], ["version", { version: null }], ["motd", { motd: ["", ""] }],
    ];
    for (const size of BANNER_SIZES) {
      for (const [element, unknown] of cases) {
        const hidden = draw({ ...SERVER, hidden: new Set([element]) }, size);
        expect({ size, element, diff: differing(hidden, draw({ ...SERVER, ...unknown }, size)) }).toEqual({ size, element, diff: 0 });
      }
      // Players and status hidden: the counts and the status word are gone, whatever they say.
      const quiet = (data: Partial<ServerBannerData>) => draw({ ...SERVER, ...data, hidden: new Set(["players", "status"]) }, size);
      expect({ size, counts: differing(quiet({ players: { online: 3, max: 50 } }), quiet({ players: { online: 999, max: 50 } })) }).toEqual({ size, counts: 0 });
      expect({ size, shown: differing(draw(SERVER, size), quiet({})) > 0 }).toEqual({ size, shown: true });
    }
  });

  test("the accent colours the chart; offline, the chart is grey", () => {
    const history = [{ at: T0, online: 5 }, { at: T0 + 12 * 60 * MINUTE, online: 9 }, { at: T0 + 24 * 60 * MINUTE, online: 3 }];
    for (const size of BANNER_SIZES) {
      const { layout, f } = layoutOf(size);
      expect({ size, accent: inkedColumns(draw({ ...SERVER, history }, size), chartArea(layout, f)) > 0 }).toEqual({ size, accent: true });
      expect({ size, offline: inkedColumns(draw({ ...SERVER, status: "offline", history }, size), chartArea(layout, f)) }).toEqual({ size, offline: 0 });
    }
  });
});
