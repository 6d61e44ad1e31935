// Every template drawn for real, checked on the pixmap's pixels (no decoding):
// sizes and scales, transparent corners, status colours, text staying in its
// box, the players bar's fill, the sparkline's peak, the classic signal bars,
// server icons, and data that is empty, huge or odd.

import { describe, expect, test } from "bun:test";
import { chartOf } from "../../src/banner/templates/sparkline.ts";
import type { ClassicLayout } from "../../src/banner/templates/classic.ts";
import type { CardLayout } from "../../src/banner/templates/card.ts";
import type { MinimalStatusLayout } from "../../src/banner/templates/minimal-status.ts";
import type { PlayersBarLayout } from "../../src/banner/templates/players-bar.ts";
import type { SparklineLayout } from "../../src/banner/templates/sparkline.ts";
import { templates } from "../../src/banner/templates/catalogue.ts";
import { drawings, renderBanner } from "../../src/banner/templates/index.ts";
import { layoutFor, type LayoutKey } from "../../src/banner/layout-keys.ts";
import { BANNER_SIZES, type BannerData, type BannerSize, type PluginBannerData, type ServerBannerData, type Theme } from "../../src/banner/model.ts";
import { resourceRealistic } from "../support/banner-samples.ts";
import { signalBarCount } from "../../src/banner/parts.ts";
import { readableOn, TEXT_CONTRAST, worstContrast } from "../../src/banner/contrast.ts";
import { PALETTES, backdrops, paletteFor, type Palette } from "../../src/banner/theme.ts";
import { Pixmap, parseHexColor, shadowColor, type Color } from "../../src/render/index.ts";

const SERVER: ServerBannerData = {
  name: "Skyblock Paradise",
  status: "online",
  players: { online: 3, max: 50 },
  motd: ["§aWelcome to §6Skyblock Paradise§a!", "§7Islands, quests and weekly events"],
  version: "1.21.4",
  latencyMs: 42,
  favicon: null,
  history: [],
};

const PLUGIN: PluginBannerData = { name: "EzBanners", version: "0.2.1", counters: [["servers", 1284], ["players", 35_210]], active: true };

const THEMES: Theme[] = ["dark", "light"];
const serverKeys = [...templates.values()].filter((t) => t.kind === "server").map((t) => t.key);
const dataFor = (key: string): BannerData => {
  const { kind } = templates.get(key)!;
  return kind === "server" ? SERVER : kind === "plugin" ? PLUGIN : resourceRealistic;
};

function layoutOf<T>(key: string, size: BannerSize): { layout: T; factor: number } {
  const choice = layoutFor(size)!;
  return { layout: drawings.get(key)!.layouts[choice.key as LayoutKey] as T, factor: choice.factor };
}

const near = (a: Color, b: Color, tolerance = 3) =>
  a.a === 255 && Math.abs(a.r - b.r) <= tolerance && Math.abs(a.g - b.g) <= tolerance && Math.abs(a.b - b.b) <= tolerance;

function countPixels(p: Pixmap, color: Color, area = { x: 0, y: 0, width: p.width, height: p.height }): number {
  let count = 0;
  for (let y = Math.max(0, area.y); y < Math.min(p.height, area.y + area.height); y++) {
    for (let x = Math.max(0, area.x); x < Math.min(p.width, area.x + area.width); x++) if (near(p.pixel(x, y), color)) count++;
  }
  return count;
}

describe("registry", () => {
  test("lists the seven templates with their sizes, kind, default theme and parameters", () => {
    expect([...templates.keys()]).toEqual(["minimal-status", "classic", "card", "players-bar", "sparkline", "plugin-stats", "resource"]);
    for (const info of templates.values()) {
      expect(info.sizes).toEqual(BANNER_SIZES);
      expect(info.uses.length).toBeGreaterThan(0);
      expect(["dark", "light"]).toContain(info.defaultTheme);
    }
    expect(templates.get("plugin-stats")!.kind).toBe("plugin");
    expect(serverKeys.length).toBe(5);
  });

  test("refuses unknown templates, unsupported sizes and the wrong kind of data", () => {
    const options = { size: { width: 468, height: 60 }, theme: "dark", scale: 1 } as const;
    expect(() => renderBanner("nope", SERVER, options)).toThrow(RangeError);
    expect(() => renderBanner("classic", SERVER, { ...options, size: { width: 400, height: 60 } })).toThrow(RangeError);
    expect(() => renderBanner("classic", PLUGIN, options)).toThrow(TypeError);
    expect(() => renderBanner("plugin-stats", SERVER, options)).toThrow(TypeError);
  });
});

describe("layouts", () => {
  /** Every text size a layout can draw at: size ranges' minimums, pill and caption sizes. */
  function smallestSizes(node: unknown, out: Array<{ size: number; pixel: boolean }> = []): Array<{ size: number; pixel: boolean }> {
    if (node === null || typeof node !== "object") return out;
    const record = node as Record<string, unknown>;
    if (typeof record.min === "number" && typeof record.max === "number") {
      out.push({ size: record.min, pixel: typeof record.step === "number" });
      return out;
    }
    for (const [key, value] of Object.entries(record)) {
      if ((key === "size" || key === "label") && typeof value === "number") out.push({ size: value, pixel: false });
      else smallestSizes(value, out);
    }
    return out;
  }

  test("no text below 8 px; at 468x60 no sans text below 9 px", () => {
    for (const [key, template] of drawings) {
      for (const [layoutKey, layout] of Object.entries(template.layouts)) {
        const sizes = smallestSizes(layout);
        expect(sizes.length).toBeGreaterThanOrEqual(3);
        for (const { size, pixel } of sizes) {
          const floor = layoutKey === "468x60" && !pixel ? 9 : 8;
          expect({ key, layoutKey, size, ok: size >= floor }).toEqual({ key, layoutKey, size, ok: true });
        }
      }
    }
  });
});

describe("the catalogue and the drawings", () => {
  test("name the same templates, in the same order, of the same kinds", () => {
    const kinds = (entries: Iterable<{ key: string; kind: string }>) => [...entries].map(({ key, kind }) => `${key} ${kind}`);
    expect(kinds(drawings.values())).toEqual(kinds(templates.values()));
  });
});

describe("every template, size, theme and scale", () => {
  test("has the banner's size times the scale, and transparent rounded corners", () => {
    for (const { key } of templates.values()) {
      for (const size of BANNER_SIZES) {
        for (const theme of THEMES) {
          for (const scale of [1, 2] as const) {
            const p = renderBanner(key, dataFor(key), { size, theme, scale });
            const where = `${key} ${size.width}x${size.height} ${theme} @${scale}`;
            expect({ where, size: [p.width, p.height] }).toEqual({ where, size: [size.width * scale, size.height * scale] });
            const corners = [[0, 0], [p.width - 1, 0], [0, p.height - 1], [p.width - 1, p.height - 1]].map(([x, y]) => p.pixel(x!, y!).a);
            expect({ where, corners }).toEqual({ where, corners: [0, 0, 0, 0] });
            // Inside the rounded edge the banner is opaque: the panel is really there.
            expect({ where, middle: p.pixel(p.width >> 1, 2 * scale).a }).toEqual({ where, middle: 255 });
          }
        }
      }
    }
  });
});

describe("status", () => {
  test("every server template shows the status colour of its status, and not the other one", () => {
    for (const key of serverKeys) {
      for (const theme of THEMES) {
        const { status } = PALETTES[theme];
        for (const size of BANNER_SIZES) {
          const online = renderBanner(key, SERVER, { size, theme, scale: 1 });
          const offline = renderBanner(key, { ...SERVER, status: "offline", players: null }, { size, theme, scale: 1 });
          const where = `${key} ${size.width}x${size.height} ${theme}`;
          expect({ where, online: countPixels(online, status.online) > 0, red: countPixels(online, status.offline) }).toEqual({ where, online: true, red: 0 });
          expect({ where, offline: countPixels(offline, status.offline) > 0, green: countPixels(offline, status.online) }).toEqual({ where, offline: true, green: 0 });
        }
      }
    }
  });

  test("minimal-status paints its dot in the status colour at the dot's place, at both scales", () => {
    for (const size of BANNER_SIZES) {
      const { layout, factor } = layoutOf<MinimalStatusLayout>("minimal-status", size);
      for (const scale of [1, 2] as const) {
        for (const status of ["online", "offline"] as const) {
          const p = renderBanner("minimal-status", { ...SERVER, status }, { size, theme: "dark", scale });
          const f = factor * scale;
          // The dot's ring starts at the status slot; the dot is centred on the word's capitals.
          const cx = layout.status.x + layout.dot * 1.8, cy = layout.status.baseline - layout.status.size.max * 0.36;
          const centre = p.pixel(Math.floor(cx * f), Math.floor(cy * f));
          expect({ size, scale, status, centre }).toEqual({ size, scale, status, centre: PALETTES.dark.status[status] });
        }
      }
    }
  });

  test("card draws the status colour inside its pill row", () => {
    for (const size of BANNER_SIZES) {
      const { layout, factor } = layoutOf<CardLayout>("card", size);
      const p = renderBanner("card", SERVER, { size, theme: "light", scale: 1 });
      const h = layout.pills.height;
      const row = { x: 0, y: Math.floor((layout.pills.centerY - h / 2) * factor), width: p.width, height: Math.ceil(h * factor) };
      expect({ size, pill: countPixels(p, PALETTES.light.status.online, row) > 0 }).toEqual({ size, pill: true });
    }
  });
});

describe("text fitting", () => {
  const LONG = "The Ultimate Minecraft Survival Experience Network ".repeat(40);

  interface TextBox {
    x: number;
    width: number;
    baseline: number;
    size: { max: number };
    wrap?: number;
    lineHeight?: number;
  }

  /** Pixels that differ between two renders right of `box` (to the banner's edge) in its rows; and inside it. */
  function compare(a: Pixmap, b: Pixmap, box: TextBox, rows: number, f: number): { outside: number; inside: number } {
    const lines = (box.wrap ?? 1) * rows - 1;
    const top = Math.max(0, Math.floor((box.baseline - box.size.max * 1.1) * f));
    const bottom = Math.min(a.height, Math.ceil((box.baseline + lines * box.size.max * (box.lineHeight ?? 1.5) + box.size.max * 0.4) * f));
    const right = Math.ceil((box.x + box.width) * f);
    let outside = 0, inside = 0;
    for (let y = top; y < bottom; y++) {
      for (let x = Math.floor(box.x * f); x < a.width; x++) {
        if (a.pixels[y * a.width + x] === b.pixels[y * a.width + x]) continue;
        if (x >= right) outside++;
        else inside++;
      }
    }
    return { outside, inside };
  }

  function check(key: string, field: "name" | "motd", change: (data: BannerData) => object, empty: (data: BannerData) => object, rows: number): void {
    for (const size of BANNER_SIZES) {
      for (const scale of [1, 2] as const) {
        for (const theme of THEMES) {
          const { layout, factor } = layoutOf<Record<string, TextBox>>(key, size);
          const data = dataFor(key);
          const long = renderBanner(key, { ...data, ...change(data) } as ServerBannerData, { size, theme, scale });
          const none = renderBanner(key, { ...data, ...empty(data) } as ServerBannerData, { size, theme, scale });
          const where = `${key} ${field} ${size.width}x${size.height} ${theme} @${scale}`;
          const { outside, inside } = compare(long, none, layout[field]!, rows, factor * scale);
          // Nothing right of the box, and the text was drawn at all.
          expect({ where, outside, drawn: inside > 0 }).toEqual({ where, outside: 0, drawn: true });
        }
      }
    }
  }

  test("a 2000-character name never paints right of its box", () => {
    for (const { key } of templates.values()) check(key, "name", () => ({ name: LONG.slice(0, 2000) }), () => ({ name: "" }), 1);
  });

  test("long MOTDs in low-contrast colours (shifted), bold and with the game's shadow never paint right of their box", () => {
    const motd = ["§1" + LONG.slice(0, 300), "§e§l" + LONG.slice(0, 300)];
    for (const key of ["minimal-status", "classic", "card"]) check(key, "motd", () => ({ motd }), () => ({ motd: ["", ""] }), 2);
  });
});

describe("players-bar", () => {
  function filledColumns(size: BannerSize, players: ServerBannerData["players"], status: ServerBannerData["status"] = "online"): { filled: number; width: number } {
    const { layout, factor } = layoutOf<PlayersBarLayout>("players-bar", size);
    const draw = (p: ServerBannerData["players"]) => renderBanner("players-bar", { ...SERVER, status, players: p }, { size, theme: "dark", scale: 1 });
    const bar = draw(players), empty = draw({ online: 0, max: 1 });
    const y = Math.floor((layout.bar.y + layout.bar.height / 2) * factor);
    let filled = 0;
    for (let x = Math.floor(layout.bar.x * factor); x < Math.ceil((layout.bar.x + layout.bar.width) * factor); x++) {
      const a = bar.pixel(x, y), b = empty.pixel(x, y);
      if (Math.abs(a.r - b.r) + Math.abs(a.g - b.g) + Math.abs(a.b - b.b) > 60) filled++;
    }
    return { filled, width: layout.bar.width * factor };
  }

  test("fills the bar in proportion to online/max", () => {
    for (const size of BANNER_SIZES) {
      for (const online of [1, 25, 50, 75, 100]) {
        const { filled, width } = filledColumns(size, { online, max: 100 });
        expect({ size, online, off: Math.abs(filled - (width * online) / 100) <= 1.5 }).toEqual({ size, online, off: true });
      }
    }
  });

  test("over capacity fills it once; max 0 and an offline server's missing count leave it empty", () => {
    const size = { width: 728, height: 90 };
    const full = filledColumns(size, { online: 500, max: 100 });
    expect(Math.abs(full.filled - full.width)).toBeLessThanOrEqual(1);
    expect(filledColumns(size, { online: 5, max: 0 }).filled).toBe(0);
    expect(filledColumns(size, null, "offline").filled).toBe(0);
  });

  test("an online server's unknown count stripes the track across, no fill in the accent: not an empty bar", () => {
    for (const size of BANNER_SIZES) {
      const { layout, factor } = layoutOf<PlayersBarLayout>("players-bar", size);
      const unknown = renderBanner("players-bar", { ...SERVER, players: null }, { size, theme: "dark", scale: 1 });
      const empty = renderBanner("players-bar", { ...SERVER, players: { online: 0, max: 1 } }, { size, theme: "dark", scale: 1 });
      const y = Math.floor((layout.bar.y + layout.bar.height / 2) * factor);
      const row = (p: Pixmap) => Array.from({ length: Math.floor((layout.bar.width - layout.bar.height) * factor) }, (_, i) => p.pixel(Math.ceil((layout.bar.x + layout.bar.height / 2) * factor) + i, y));
      const changes = (pixels: Color[]) => pixels.filter((c, i) => i > 0 && Math.abs(c.r - pixels[i - 1]!.r) > 8).length;
      // Stripes one bar-height apart: two edges each along the track; the empty track is flat.
      expect({ size, stripes: changes(row(unknown)) >= (layout.bar.width / layout.bar.height) * 1.5 }).toEqual({ size, stripes: true });
      expect(changes(row(empty))).toBe(0);
      const { accent } = PALETTES.dark;
      expect(row(unknown).some((c) => Math.abs(c.r - accent.r) + Math.abs(c.g - accent.g) + Math.abs(c.b - accent.b) < 30)).toBe(false);
    }
  });
});

describe("sparkline", () => {
  const HOUR = 3_600_000;
  const history = Array.from({ length: 49 }, (_, i) => ({ at: 1_700_000_000_000 + i * HOUR / 2, online: i === 30 ? 40 : 10 + (i % 7) * 3 }));

  test("the peak point is the highest thing drawn in the chart", () => {
    for (const size of BANNER_SIZES) {
      const { layout, factor } = layoutOf<SparklineLayout>("sparkline", size);
      const chart = chartOf(history, layout.chart)!;
      expect(chart.points[chart.peak]!.online).toBe(40);
      const peak = chart.points[chart.peak]!;
      expect(peak.y).toBeCloseTo(layout.chart.y, 9);
      const p = renderBanner("sparkline", { ...SERVER, history }, { size, theme: "dark", scale: 1 });
      const { accent } = PALETTES.dark;
      const box = layout.chart, m = layout.marker + layout.line;
      let top: { x: number; y: number } | null = null;
      for (let y = Math.floor((box.y - m) * factor); y < (box.y + box.height) * factor && !top; y++) {
        for (let x = Math.floor((box.x - m) * factor); x < (box.x + box.width + m) * factor; x++) {
          if (near(p.pixel(x, y), accent, 40)) {
            top = { x, y };
            break;
          }
        }
      }
      // The peak's marker reaches above the line there: the topmost accent pixel is the marker's top.
      expect({ size, dx: Math.abs(top!.x / factor - peak.x) <= layout.marker }).toEqual({ size, dx: true });
      expect({ size, dy: Math.abs(top!.y / factor - (peak.y - layout.marker)) <= 1 }).toEqual({ size, dy: true });
    }
  });

  test("keeps the last 24 hours before the newest sample", () => {
    const box = { x: 0, y: 0, width: 240, height: 100 };
    const old = [{ at: 0, online: 999 }, ...history];
    const chart = chartOf(old, box)!;
    expect(chart.points.length).toBe(history.length);
    expect(chart.points.at(-1)!.x).toBeCloseTo(240, 9);
    expect(chart.points[0]!.x).toBeCloseTo(0, 9);
    expect(chartOf([history[0]!], box)).toBeNull();
    expect(chartOf([], box)).toBeNull();
  });

  test("without history or a count draws a flat line on the floor and a note instead of a chart", () => {
    for (const size of BANNER_SIZES) {
      const { layout, factor } = layoutOf<SparklineLayout>("sparkline", size);
      const p = renderBanner("sparkline", { ...SERVER, players: null }, { size, theme: "dark", scale: 1 });
      const box = layout.chart;
      expect(countPixels(p, PALETTES.dark.accent, { x: 0, y: 0, width: p.width, height: p.height })).toBe(0);
      const note = layout.note;
      const noteArea = { x: Math.floor(note.x * factor), y: Math.floor((note.baseline - note.size.max) * factor), width: Math.ceil(note.width * factor), height: Math.ceil(note.size.max * 1.3 * factor) };
      expect(countPixels(p, PALETTES.dark.muted, noteArea)).toBeGreaterThan(0);
      const floor = { x: Math.floor(box.x * factor) + 2, y: Math.floor((box.y + box.height - layout.line) * factor), width: Math.floor(box.width * factor) - 4, height: Math.ceil(layout.line * factor) };
      expect(countPixels(p, PALETTES.dark.background[0], floor)).toBe(0);
    }
  });
});

describe("classic", () => {
  function litBars(size: BannerSize, data: ServerBannerData): { lit: number; cross: number } {
    const { layout, factor } = layoutOf<ClassicLayout>("classic", size);
    const p = renderBanner("classic", data, { size, theme: "dark", scale: 1 });
    const { bars } = layout;
    // Runs of the lit colour along the bars' bottom row: one per lit bar.
    const y = Math.floor((bars.y + bars.height) * factor) - 1;
    let lit = 0, inRun = false;
    for (let x = Math.floor(bars.x * factor); x < Math.ceil((bars.x + bars.width) * factor); x++) {
      const on = near(p.pixel(x, y), PALETTES.dark.status.online, 8);
      if (on && !inRun) lit++;
      inRun = on;
    }
    const area = { x: Math.floor(bars.x * factor), y: Math.floor(bars.y * factor), width: Math.ceil(bars.width * factor), height: Math.ceil(bars.height * factor) };
    return { lit, cross: countPixels(p, PALETTES.dark.status.offline, area) };
  }

  test("signal bars follow the game's latency steps", () => {
    expect([0, 149, 150, 299, 300, 599, 600, 999, 1000, 5000].map(signalBarCount)).toEqual([5, 5, 4, 4, 3, 3, 2, 2, 1, 1]);
    expect([null, -1, Number.NaN].map(signalBarCount)).toEqual([null, null, null]);
    for (const size of BANNER_SIZES) {
      for (const [latencyMs, bars] of [[42, 5], [200, 4], [450, 3], [800, 2], [3000, 1], [null, 0]] as const) {
        expect({ size, latencyMs, ...litBars(size, { ...SERVER, latencyMs }) }).toEqual({ size, latencyMs, lit: bars, cross: 0 });
      }
      const offline = litBars(size, { ...SERVER, status: "offline", latencyMs: 42 });
      expect({ size, lit: offline.lit, cross: offline.cross > 0 }).toEqual({ size, lit: 0, cross: true });
    }
  });
});

describe("classic MOTD", () => {
  test("has the game's drop shadow on the dark theme and none on the light one", () => {
    const size = { width: 728, height: 90 };
    const { layout } = layoutOf<ClassicLayout>("classic", size);
    const area = { x: layout.motd.x, y: layout.motd.baseline - 20, width: layout.motd.width, height: 30 };
    const green = parseHexColor("#55ff55")!;
    for (const theme of THEMES) {
      const drawn = readableOn(green, backdrops(PALETTES[theme]));
      const p = renderBanner("classic", { ...SERVER, motd: ["§aWelcome to Skyblock", ""] }, { size, theme, scale: 1 });
      const shadow = countPixels(p, shadowColor(drawn), area);
      expect({ theme, text: countPixels(p, drawn, area) > 20, shadow: shadow > 20 }).toEqual({ theme, text: true, shadow: theme === "dark" });
    }
  });
});

describe("server icons", () => {
  const MAGENTA = parseHexColor("#ff00ff")!;
  const favicon = new Pixmap(64, 64);
  favicon.fill(MAGENTA);
  const GRASS = parseHexColor("#86c45a")!, DIRT = parseHexColor("#8a5a33")!;

  for (const key of ["classic", "card"]) {
    test(`${key}: the favicon fills its box; without one, the default icon is drawn there`, () => {
      for (const size of BANNER_SIZES) {
        for (const scale of [1, 2] as const) {
          const { layout, factor } = layoutOf<{ icon: { x: number; y: number; width: number; height: number } }>(key, size);
          const f = factor * scale, icon = layout.icon;
          const box = { x: Math.ceil(icon.x * f), y: Math.ceil(icon.y * f), width: Math.floor(icon.width * f), height: Math.floor(icon.height * f) };
          const where = `${size.width}x${size.height} @${scale}`;
          const withIcon = renderBanner(key, { ...SERVER, favicon }, { size, theme: "dark", scale });
          const centre = withIcon.pixel(Math.floor((icon.x + icon.width / 2) * f), Math.floor((icon.y + icon.height / 2) * f));
          expect({ where, centre }).toEqual({ where, centre: MAGENTA });
          const magenta = countPixels(withIcon, MAGENTA);
          // Only inside the box: at most its area (square in classic, corners rounded off in card).
          expect({ where, inBox: magenta <= box.width * box.height + 2 * (box.width + box.height), most: magenta > box.width * box.height * 0.85 }).toEqual({ where, inBox: true, most: true });
          const without = renderBanner(key, SERVER, { size, theme: "dark", scale });
          expect({ where, magenta: countPixels(without, MAGENTA), grass: countPixels(without, GRASS, box) > 0, dirt: countPixels(without, DIRT, box) > 0 })
            .toEqual({ where, magenta: 0, grass: true, dirt: true });
        }
      }
    });
  }

  test("card rounds the favicon's corners; classic keeps it square, as the game does", () => {
    const size = { width: 728, height: 90 };
    const card = layoutOf<CardLayout>("card", size).layout.icon;
    const classic = layoutOf<ClassicLayout>("classic", size).layout.icon;
    expect(near(renderBanner("card", { ...SERVER, favicon }, { size, theme: "dark", scale: 1 }).pixel(card.x, card.y), MAGENTA)).toBe(false);
    expect(renderBanner("classic", { ...SERVER, favicon }, { size, theme: "dark", scale: 1 }).pixel(classic.x, classic.y)).toEqual(MAGENTA);
  });
});

describe("odd data", () => {
  const cases: Array<[string, Partial<ServerBannerData>]> = [
    ["max 0", { players: { online: 0, max: 0 } }],
    ["negative and huge counts", { players: { online: -5, max: Number.MAX_SAFE_INTEGER } }],
    ["no MOTD", { motd: ["", ""] }],
    ["only § codes", { name: "§a§l§k", motd: ["§a§l§r§6", "§"] }],
    ["2000-character name", { name: "W".repeat(2000) }],
    ["long MOTD", { motd: ["§k" + "x".repeat(5000), "§c".repeat(3000)] }],
    ["CJK and emoji", { name: "中文服务器 🎮🔥 サーバー", motd: ["§6★ 欢迎 §a😀", "한국어 서버"] }],
    ["empty name", { name: "" }],
    ["bad history", { history: [{ at: Number.NaN, online: 3 }, { at: 5, online: Number.POSITIVE_INFINITY }, { at: 6, online: -1 }] }],
    ["a 1x1 favicon and a wide one", { favicon: new Pixmap(1, 1) }],
    ["unknown everything", { players: null, version: null, latencyMs: null, status: "offline" }],
  ];
  const pluginCases: Array<[string, Partial<PluginBannerData>]> = [
    ["no counters", { counters: [] }],
    ["many long counters", { counters: Array.from({ length: 50 }, (_, i) => [`counter_${"x".repeat(200)}_${i}`, i * 1e9] as const) }],
    ["no version, odd name", { version: null, name: "§l§k中文 🎮" }],
  ];

  test("draws every template at every size without throwing", () => {
    for (const size of BANNER_SIZES) {
      for (const key of serverKeys) {
        for (const [, change] of cases) {
          const p = renderBanner(key, { ...SERVER, ...change }, { size, theme: "light", scale: 1 });
          expect(p.width).toBe(size.width);
        }
      }
      for (const [, change] of pluginCases) {
        const p = renderBanner("plugin-stats", { ...PLUGIN, ...change }, { size, theme: "dark", scale: 2 });
        expect(p.width).toBe(size.width * 2);
      }
    }
  });
});

describe("accent and background", () => {
  test("the accent colours the players bar's fill; the background replaces the panel's", () => {
    const size = { width: 728, height: 90 };
    const accent = parseHexColor("#ff8800")!, background = parseHexColor("#123456")!;
    const { layout } = layoutOf<PlayersBarLayout>("players-bar", size);
    const p = renderBanner("players-bar", { ...SERVER, players: { online: 50, max: 100 } }, { size, theme: "dark", scale: 1, accent, background });
    expect(near(p.pixel(layout.bar.x + 12, layout.bar.y + layout.bar.height / 2), accent, 6)).toBe(true);
    expect(p.pixel(4, 4)).toEqual(background);
  });

  test("a transparent background leaves only the content (plugin-stats on any page)", () => {
    const size = { width: 468, height: 60 };
    const p = renderBanner("plugin-stats", PLUGIN, { size, theme: "light", scale: 1, background: parseHexColor("#00000000")! });
    expect(p.pixel(4, 30).a).toBe(0);
    expect(p.pixel(234, 5).a).toBe(0);
    let ink = 0;
    for (let i = 3; i < p.data.length; i += 4) if (p.data[i] === 255) ink++;
    expect(ink).toBeGreaterThan(200);
  });

  test("text keeps 4.5:1 on a banner's own background: the theme's colours where they hold, else the other theme's", () => {
    const roles: Array<[string, (palette: Palette) => Color]> = [
      ["text", (p) => p.text], ["muted", (p) => p.muted], ["motd", (p) => p.motd],
      ["online", (p) => p.statusText.online], ["offline", (p) => p.statusText.offline],
    ];
    const cases: Array<[Theme, string]> = [
      ["dark", "#ffffff"], ["dark", "#fde68a"], ["dark", "#102030"], ["dark", "#777777"], ["dark", "#7a7a7a"],
      ["light", "#000000"], ["light", "#123456"], ["light", "#fafafa"], ["light", "#777777"], ["light", "#7a7a7a"],
    ];
    let swapped = 0;
    for (const [theme, hex] of cases) {
      const palette = paletteFor({ theme, background: parseHexColor(hex)! });
      const ends = backdrops(palette);
      const other = PALETTES[theme === "dark" ? "light" : "dark"];
      for (const [role, pick] of roles) {
        const color = pick(palette), own = pick(PALETTES[theme]), theirs = pick(other);
        const where = `${theme} on ${hex}: ${role}`;
        // A gradient around mid grey can be too close to both black and white: then the better of them.
        const [black, white] = [parseHexColor("#000000")!, parseHexColor("#ffffff")!];
        const best = worstContrast(black, ends) >= worstContrast(white, ends) ? black : white;
        if (worstContrast(best, ends) >= TEXT_CONTRAST) expect({ where, passes: worstContrast(color, ends) >= TEXT_CONTRAST }).toEqual({ where, passes: true });
        else expect({ where, color }).toEqual({ where, color: best });
        if (worstContrast(own, ends) >= TEXT_CONTRAST) expect({ where, color }).toEqual({ where, color: own });
        else if (worstContrast(theirs, ends) >= TEXT_CONTRAST) {
          expect({ where, color }).toEqual({ where, color: theirs });
          swapped++;
        }
      }
    }
    expect(swapped).toBeGreaterThanOrEqual(10);
  });

  test("wells and the hairline follow the text colours to the other theme's when those swap", () => {
    const cases: Array<[Theme, string, Theme]> = [["dark", "#ffffff", "light"], ["light", "#1e3a8a", "dark"], ["dark", "#102030", "dark"], ["light", "#fafafa", "light"]];
    for (const [theme, hex, neutrals] of cases) {
      const palette = paletteFor({ theme, background: parseHexColor(hex)! });
      expect({ theme, hex, well: palette.well, border: palette.border })
        .toEqual({ theme, hex, well: PALETTES[neutrals].well, border: PALETTES[neutrals].border });
    }
  });

  test("a light background on the dark theme draws the name in the light theme's text colour", () => {
    const size = { width: 728, height: 90 };
    const p = renderBanner("minimal-status", SERVER, { size, theme: "dark", scale: 1, background: parseHexColor("#ffffff")! });
    // The name's row up to the count (whose muted label's anti-aliased edges can come near any light colour).
    const { layout } = layoutOf<MinimalStatusLayout>("minimal-status", size);
    const name = { x: 0, y: 0, width: layout.count.count.x, height: 50 };
    expect(countPixels(p, PALETTES.light.text, name)).toBeGreaterThan(50);
    expect(countPixels(p, PALETTES.dark.text, name)).toBe(0);
  });
});
