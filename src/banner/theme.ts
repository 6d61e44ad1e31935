// The two palettes every template draws with. Dark: slate blues
// (#0f172a-#1e293b) with light text; light: near-whites (#f8fafc-#e2e8f0)
// with dark text. Text colours hold 4.5:1 against both ends of their
// background (checked in test/banner/theme.test.ts).

import { parseHexColor, type Color } from "../render/index.ts";
import { over } from "./contrast.ts";
import type { BannerOptions, ServerStatus, Theme } from "./model.ts";

export interface Palette {
  theme: Theme;
  /** Background gradient, top-left to bottom-right. */
  background: readonly [Color, Color];
  /** Hairline around the banner, so it keeps its edge on a page of the same colour. */
  border: Color;
  /** Recessed areas: bar tracks, chart grids, icon wells. */
  well: Color;
  text: Color;
  /** Labels and secondary values. */
  muted: Color;
  /** MOTD text that names no colour. */
  motd: Color;
  accent: Color;
  /** Shapes (dots, pills, bars) in each status. */
  status: Record<ServerStatus, Color>;
  /** The status word, readable as text on the background. */
  statusText: Record<ServerStatus, Color>;
  /** Where outlines of text unreadable on the background lean (see Surface.formatted). */
  halo: Color;
}

const hex = (text: string): Color => parseHexColor(text)!;

const DARK: Palette = {
  theme: "dark",
  background: [hex("#0f172a"), hex("#1e293b")],
  border: hex("#94a3b833"),
  well: hex("#33415599"),
  text: hex("#f1f5f9"),
  muted: hex("#94a3b8"),
  motd: hex("#cbd5e1"),
  accent: hex("#38bdf8"),
  status: { online: hex("#22c55e"), offline: hex("#ef4444") },
  statusText: { online: hex("#4ade80"), offline: hex("#f87171") },
  halo: hex("#ffffff"),
};

const LIGHT: Palette = {
  theme: "light",
  background: [hex("#f8fafc"), hex("#e2e8f0")],
  border: hex("#0f172a1f"),
  well: hex("#cbd5e1b3"),
  text: hex("#0f172a"),
  muted: hex("#475569"),
  motd: hex("#334155"),
  accent: hex("#0369a1"),
  status: { online: hex("#16a34a"), offline: hex("#dc2626") },
  statusText: { online: hex("#166534"), offline: hex("#b91c1c") },
  halo: hex("#000000"),
};

export const PALETTES: Record<Theme, Palette> = { dark: DARK, light: LIGHT };

/** Moves each channel `amount` (0..1) of the way to white (positive) or black (negative). */
function shade(color: Color, amount: number): Color {
  const target = amount >= 0 ? 255 : 0, t = Math.abs(amount);
  const mix = (c: number) => Math.round(c + (target - c) * t);
  return { r: mix(color.r), g: mix(color.g), b: mix(color.b), a: color.a };
}

/** The theme's palette with the banner's own accent and background, if it chose them. */
export function paletteFor(options: Pick<BannerOptions, "theme" | "accent" | "background">): Palette {
  const base = PALETTES[options.theme];
  const background = options.background;
  return {
    ...base,
    accent: options.accent ?? base.accent,
    // One colour becomes a gentle gradient towards the theme's direction, like the defaults.
    background: background ? [background, shade(background, base.theme === "dark" ? 0.08 : -0.06)] : base.background,
  };
}

/**
 * The colour text is judged against: the middle of the background gradient,
 * over the theme's own background when translucent (the page is unknown).
 */
export function backdrop(palette: Palette): Color {
  const [a, b] = palette.background;
  const middle = { r: (a.r + b.r) >> 1, g: (a.g + b.g) >> 1, b: (a.b + b.b) >> 1, a: (a.a + b.a) >> 1 };
  const [base0, base1] = PALETTES[palette.theme].background;
  return over(middle, { r: (base0.r + base1.r) >> 1, g: (base0.g + base1.g) >> 1, b: (base0.b + base1.b) >> 1, a: 255 });
}
