// The two palettes every template draws with. Dark: slate blues
// (#0f172a-#1e293b) with light text; light: near-whites (#f8fafc-#e2e8f0)
// with dark text. Text colours hold 4.5:1 against both ends of their
// background (checked in test/banner/fit-text.test.ts), also on a banner's own
// background (paletteFor).

import { parseHexColor, type Color } from "../render/index.ts";
import { over, readableOn, worstContrast, TEXT_CONTRAST } from "./contrast.ts";
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
};

export const PALETTES: Record<Theme, Palette> = { light: LIGHT, dark: DARK };

/** The themes a banner can be drawn in: one per palette, in the order above (how they are offered and listed). */
export const THEMES = Object.keys(PALETTES) as readonly Theme[];

/** Moves each channel `amount` (0..1) of the way to white (positive) or black (negative). */
export function shade(color: Color, amount: number): Color {
  const target = amount >= 0 ? 255 : 0, t = Math.abs(amount);
  const mix = (c: number) => Math.round(c + (target - c) * t);
  return { r: mix(color.r), g: mix(color.g), b: mix(color.b), a: color.a };
}

/**
 * The colours text is judged against: both ends of the background gradient,
 * each over the theme's own when translucent (the page is unknown).
 */
export function backdrops(palette: Palette): [Color, Color] {
  const [base0, base1] = PALETTES[palette.theme].background;
  return [over(palette.background[0], base0), over(palette.background[1], base1)];
}

/**
 * Whether the theme's colour `own` suits a banner's own background (ends):
 * it holds 4.5:1 there, or the other theme's `theirs` does no better.
 */
function keepsOwn(own: Color, theirs: Color, ends: readonly Color[]): boolean {
  const mine = worstContrast(own, ends);
  return mine >= TEXT_CONTRAST || mine >= worstContrast(theirs, ends);
}

/** The theme's palette with the banner's own accent and background, if it chose them. */
export function paletteFor(options: Pick<BannerOptions, "theme" | "accent" | "background">): Palette {
  const base = PALETTES[options.theme];
  const accented = { ...base, accent: options.accent ?? base.accent };
  const background = options.background;
  if (!background) return accented;
  // One colour becomes a gentle gradient towards the theme's direction, like the defaults.
  const own: Palette = { ...accented, background: [background, shade(background, base.theme === "dark" ? 0.08 : -0.06)] };
  const other = PALETTES[base.theme === "dark" ? "light" : "dark"];
  const ends = backdrops(own);
  // Each text colour: the theme's, else the other theme's (light or dark), moved in lightness if even that falls short.
  const text = (pick: (palette: Palette) => Color) =>
    readableOn(keepsOwn(pick(base), pick(other), ends) ? pick(base) : pick(other), ends);
  // Wells (pills, tracks) and the hairline go with the main text colour: each theme's are made for its own text.
  const neutrals = keepsOwn(base.text, other.text, ends) ? base : other;
  return {
    ...own,
    well: neutrals.well,
    border: neutrals.border,
    text: text((p) => p.text),
    muted: text((p) => p.muted),
    motd: text((p) => p.motd),
    statusText: { online: text((p) => p.statusText.online), offline: text((p) => p.statusText.offline) },
  };
}
