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

export const BANNER_SMALL: BannerScene = {
  kind: "banner",
  name: "banner 468x60",
  width: 468,
  height: 60,
  radius: 8,
  gradient: ["#1e2a4a", "#5a2a78"],
  icon: { x: 6, y: 6, size: 48 },
  texts: [
    text("Pennant Survival", 62, 21, 16, "#ffffff", true),
    text("Welcome back! New season", 62, 37, 11, "#55ff55"),
    text("Economy, quests, weekly events", 62, 52, 11, "#ffaa00"),
    text("123/500", 456, 37, 12, "#aaaaaa", false, "right"),
  ],
  dot: { cx: 451, cy: 14, r: 5, color: "#55ff55" },
};

export const BANNER_LARGE: BannerScene = {
  kind: "banner",
  name: "banner 1200x300",
  width: 1200,
  height: 300,
  radius: 24,
  gradient: ["#1e2a4a", "#5a2a78"],
  icon: { x: 22, y: 22, size: 256 },
  texts: [
    text("Pennant Survival", 310, 90, 64, "#ffffff", true),
    text("Welcome back! New season", 310, 170, 36, "#55ff55"),
    text("Economy, quests, weekly events", 310, 230, 36, "#ffaa00"),
    text("123/500", 1170, 170, 40, "#aaaaaa", false, "right"),
  ],
  dot: { cx: 1160, cy: 40, r: 14, color: "#55ff55" },
};

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
