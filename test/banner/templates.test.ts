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
import { renderBanner, templates } from "../../src/banner/templates/index.ts";
import { layoutFor, type LayoutKey } from "../../src/banner/layout.ts";
import { BANNER_SIZES, type BannerSize, type PluginBannerData, type ServerBannerData, type Theme } from "../../src/banner/model.ts";
import { signalBarCount } from "../../src/banner/parts.ts";
import { PALETTES } from "../../src/banner/theme.ts";
import { Pixmap, parseHexColor, type Color } from "../../src/render/index.ts";

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
const dataFor = (key: string) => (templates.get(key)!.kind === "server" ? SERVER : PLUGIN);

function layoutOf<T>(key: string, size: BannerSize): { layout: T; factor: number } {
  const choice = layoutFor(size)!;
  return { layout: templates.get(key)!.template.layouts[choice.key as LayoutKey] as T, factor: choice.factor };
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
  test("lists the six templates with their sizes, kind, default theme and parameters", () => {
    expect([...templates.keys()]).toEqual(["minimal-status", "classic", "card", "players-bar", "sparkline", "plugin-stats"]);
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
          const centre = p.pixel(Math.floor(layout.dot.cx * f), Math.floor(layout.dot.cy * f));
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

  test("a 2000-character name never paints right of its box", () => {
    for (const { key } of templates.values()) {
      for (const size of BANNER_SIZES) {
        for (const scale of [1, 2] as const) {
          const { layout, factor } = layoutOf<{ name: { x: number; width: number; baseline: number; size: { max: number }; wrap?: number; lineHeight?: number } }>(key, size);
          const { name } = layout;
          const data = { ...dataFor(key), name: LONG.slice(0, 2000) };
          const long = renderBanner(key, data, { size, theme: "dark", scale });
          const empty = renderBanner(key, { ...data, name: "" }, { size, theme: "dark", scale });
          const f = factor * scale;
          const rows = ((name.wrap ?? 1) - 1) * name.size.max * (name.lineHeight ?? 1);
          const top = Math.max(0, Math.floor((name.baseline - name.size.max * 1.1) * f));
          const bottom = Math.min(long.height, Math.ceil((name.baseline + rows + name.size.max * 0.35) * f));
          let differing = 0;
          for (let y = top; y < bottom; y++) {
            for (let x = Math.ceil((name.x + name.width) * f); x < long.width; x++) {
              if (long.pixels[y * long.width + x] !== empty.pixels[y * long.width + x]) differing++;
            }
          }
          // And the name was drawn at all: its box differs from the empty one.
          let inside = 0;
          for (let y = top; y < bottom; y++) {
            for (let x = Math.floor(name.x * f); x < Math.ceil((name.x + name.width) * f); x++) {
              if (long.pixels[y * long.width + x] !== empty.pixels[y * long.width + x]) inside++;
            }
          }
          const where = `${key} ${size.width}x${size.height} @${scale}`;
          expect({ where, differing, drawn: inside > 0 }).toEqual({ where, differing: 0, drawn: true });
        }
      }
    }
  });
});

describe("players-bar", () => {
  function filledColumns(size: BannerSize, players: ServerBannerData["players"]): { filled: number; width: number } {
    const { layout, factor } = layoutOf<PlayersBarLayout>("players-bar", size);
    const draw = (p: ServerBannerData["players"]) => renderBanner("players-bar", { ...SERVER, players: p }, { size, theme: "dark", scale: 1 });
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

  test("over capacity fills it once; max 0 and an unknown count leave it empty", () => {
    const size = { width: 728, height: 90 };
    const full = filledColumns(size, { online: 500, max: 100 });
    expect(Math.abs(full.filled - full.width)).toBeLessThanOrEqual(1);
    expect(filledColumns(size, { online: 5, max: 0 }).filled).toBe(0);
    expect(filledColumns(size, null).filled).toBe(0);
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

  test("without history draws a flat line and a note instead of a chart", () => {
    for (const size of BANNER_SIZES) {
      const { layout, factor } = layoutOf<SparklineLayout>("sparkline", size);
      const p = renderBanner("sparkline", SERVER, { size, theme: "dark", scale: 1 });
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
