// The reference scenes of the render bench, as plain data that each renderer
// (ours, @napi-rs/canvas, satori + resvg) draws in its own way.

export interface TextItem {
  text: string;
  /** Left edge, or right edge when `align` is "right". */
  x: number;
  /** Baseline. */
  y: number;
  size: number;
  bold: boolean;
  color: string;
  align: "left" | "right";
}

export interface BannerScene {
  kind: "banner";
  name: string;
  width: number;
  height: number;
  radius: number;
  gradient: [from: string, to: string];
  icon: { x: number; y: number; size: number };
  texts: TextItem[];
  dot: { cx: number; cy: number; r: number; color: string };
}

export interface BadgeScene {
  kind: "badge";
  name: string;
  width: number;
  height: number;
  split: number;
  colors: [label: string, value: string];
  texts: TextItem[];
}

export type Scene = BannerScene | BadgeScene;

const text = (t: string, x: number, y: number, size: number, color: string, bold = false, align: "left" | "right" = "left"): TextItem =>
  ({ text: t, x, y, size, bold, color, align });

/** Where one size of the banner puts its parts; the content is the same at every size. */
interface BannerGeometry {
  width: number;
  height: number;
  radius: number;
  icon: { x: number; y: number; size: number };
  /** Left edge of the title and MOTD lines, and right edge of the player count. */
  textX: number;
  countX: number;
  /** Baselines of the title, the two MOTD lines (the count shares the first MOTD line's). */
  baselines: [title: number, first: number, second: number];
  sizes: { title: number; motd: number; count: number };
  dot: { cx: number; cy: number; r: number };
}

function bannerScene(g: BannerGeometry): BannerScene {
  const [title, first, second] = g.baselines;
  return {
    kind: "banner",
    name: `banner ${g.width}x${g.height}`,
    width: g.width,
    height: g.height,
    radius: g.radius,
    gradient: ["#1e2a4a", "#5a2a78"],
    icon: g.icon,
    texts: [
      text("Pennant Survival", g.textX, title, g.sizes.title, "#ffffff", true),
      text("Welcome back! New season", g.textX, first, g.sizes.motd, "#55ff55"),
      text("Economy, quests, weekly events", g.textX, second, g.sizes.motd, "#ffaa00"),
      text("123/500", g.countX, first, g.sizes.count, "#aaaaaa", false, "right"),
    ],
    dot: { ...g.dot, color: "#55ff55" },
  };
}

export const BANNER_SMALL = bannerScene({
  width: 468, height: 60, radius: 8, icon: { x: 6, y: 6, size: 48 }, textX: 62, countX: 456,
  baselines: [21, 37, 52], sizes: { title: 16, motd: 11, count: 12 }, dot: { cx: 451, cy: 14, r: 5 },
});

export const BANNER_LARGE = bannerScene({
  width: 1200, height: 300, radius: 24, icon: { x: 22, y: 22, size: 256 }, textX: 310, countX: 1170,
  baselines: [90, 170, 230], sizes: { title: 64, motd: 36, count: 40 }, dot: { cx: 1160, cy: 40, r: 14 },
});

/** shields.io's flat look: 20 px high, two segments, a light-to-dark overlay, white text over a faint shadow. */
export const BADGE: BadgeScene = {
  kind: "badge",
  name: "badge 2 segments",
  width: 114,
  height: 20,
  split: 69,
  colors: ["#555555", "#44cc11"],
  texts: [text("downloads", 6, 14, 11, "#ffffff"), text("12.3k", 75, 14, 11, "#ffffff")],
};

/** A 64x64 pixel-art icon as a server favicon arrives: straight RGBA, few colours. */
export function iconRgba(): Uint8Array {
  const out = new Uint8Array(64 * 64 * 4);
  const palette = [[95, 159, 53], [121, 192, 72], [134, 96, 67], [110, 78, 54], [150, 108, 74]];
  for (let y = 0; y < 64; y++) {
    for (let x = 0; x < 64; x++) {
      const bx = x >> 2, by = y >> 2; // 16x16 art drawn at 4x, like most favicons
      const noise = (bx * 7 + by * 13 + ((bx * by) % 5)) % 3;
      const grass = by < 4 || (by === 4 && noise !== 0);
      const [r, g, b] = palette[grass ? noise % 2 : 2 + noise]!;
      out.set([r!, g!, b!, 255], (y * 64 + x) * 4);
    }
  }
  return out;
}
