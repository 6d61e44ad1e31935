// The two palettes every template draws with. Dark: slate blues
// (#0f172a-#1e293b) with light text; light: near-whites (#f8fafc-#e2e8f0)
// with dark text. Text colours hold 4.5:1 against both ends of their
// background (checked in test/banner/fit-text.test.ts), also on a banner's own
// background (paletteFor), and on every pixel of a background preset's
// (presetPalette).

import { parseHexColor, type Color } from "../render/basics.ts";
import { BACKGROUND_LOOKS, type BackgroundLook, type BackgroundPresetName } from "./backgrounds.ts";
import { contrastRatio, over, readableOn, worstContrast, TEXT_CONTRAST } from "./contrast.ts";
import type { BannerOptions, ServerStatus, Theme } from "./model.ts";

/** A background preset as one theme draws it (parts.ts drawPanel). */
export interface PresetFill {
  name: BackgroundPresetName;
  look: Exclude<BackgroundLook, { kind: "none" }>;
  /** The look's shades or stops under the theme's overlay: the colours drawn. */
  colors: readonly Color[];
}

export interface Palette {
  theme: Theme;
  /**
   * Background gradient, top-left to bottom-right. With a preset: the
   * darkest and lightest colours it draws (what text is judged against).
   */
  background: readonly [Color, Color];
  /** A background preset drawn instead of the gradient; absent: none. */
  preset?: PresetFill;
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

/**
 * The accent's share of an online server's empty track (a players bar, a chart
 * with nothing to draw yet), washed over the well: a chosen accent shows before
 * there is anything to fill, as a progress bar's track carries its colour.
 */
const TRACK_WASH = 0.3;

/** The wash laid over the well of an online server's empty track: the accent at TRACK_WASH of its alpha. */
export function accentWash(palette: Palette): Color {
  return { ...palette.accent, a: Math.round(palette.accent.a * TRACK_WASH) };
}

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

const BLACK: Color = { r: 0, g: 0, b: 0, a: 255 };
const WHITE: Color = { r: 255, g: 255, b: 255, a: 255 };
const CLEAR: Color = { r: 0, g: 0, b: 0, a: 0 };

/**
 * The contrast a preset's overlay gives the theme's main text. Above the
 * 4.5:1 every text colour needs, so that labels and the MOTD can stay a
 * step softer than the name and still hold 4.5:1.
 */
const PRESET_TEXT_CONTRAST = 7;
/** The overlay grows in steps of this alpha until the text holds PRESET_TEXT_CONTRAST. */
const OVERLAY_STEP = 8;
/** Entries of the renderer's gradient table (paint/shader.ts): every colour a gradient draws is one of them. */
const GRADIENT_STEPS = 256;

/** Every colour `look` draws from `colors`: a texture's shades, or each step between a gradient's stops. */
function drawnColors(look: PresetFill["look"], colors: readonly Color[]): Color[] {
  if (look.kind === "texture") return [...colors];
  const last = colors.length - 1;
  return Array.from({ length: GRADIENT_STEPS }, (_, i) => {
    const at = (i / (GRADIENT_STEPS - 1)) * last, index = Math.min(Math.floor(at), last - 1), t = at - index;
    const from = colors[index]!, to = colors[index + 1]!;
    const mix = (p: number, q: number) => Math.round(p + (q - p) * t);
    return { r: mix(from.r, to.r), g: mix(from.g, to.g), b: mix(from.b, to.b), a: 255 };
  });
}

/** The darkest and the lightest of `colors` (contrast with black grows with luminance). */
function extremes(colors: readonly Color[]): [Color, Color] {
  const byLuminance = [...colors].sort((p, q) => contrastRatio(p, BLACK) - contrastRatio(q, BLACK));
  return [byLuminance[0]!, byLuminance[byLuminance.length - 1]!];
}

/**
 * `palette` on background preset `name`. The preset's colours get the
 * least overlay towards the theme's background (black for dark, white for
 * light) that gives the main text PRESET_TEXT_CONTRAST against each of
 * them; every text colour then holds 4.5:1 against the darkest and the
 * lightest colour drawn, so against every pixel. `transparent`: nothing
 * drawn, not even the hairline, and the theme's own colours.
 */
function presetPalette(palette: Palette, name: BackgroundPresetName): Palette {
  const look = BACKGROUND_LOOKS[name];
  if (look.kind === "none") return { ...palette, background: [CLEAR, CLEAR], border: CLEAR };
  const raw = (look.kind === "texture" ? look.shades : look.stops).map(hex);
  const toward = palette.theme === "dark" ? BLACK : WHITE;
  const under = (alpha: number) => raw.map((color) => over({ ...toward, a: alpha }, color));
  let alpha = 0;
  while (alpha < 255 && worstContrast(palette.text, extremes(drawnColors(look, under(alpha)))) < PRESET_TEXT_CONTRAST) {
    alpha = Math.min(255, alpha + OVERLAY_STEP);
  }
  const colors = under(alpha);
  const ends = extremes(drawnColors(look, colors));
  const text = (color: Color) => readableOn(color, ends);
  return {
    ...palette,
    background: ends,
    preset: { name, look, colors },
    text: text(palette.text),
    muted: text(palette.muted),
    motd: text(palette.motd),
    statusText: { online: text(palette.statusText.online), offline: text(palette.statusText.offline) },
  };
}

/** Presets by name and theme: worked out once (a few hundred contrast checks each). */
const presetPalettes = new Map<string, Palette>();

/** The theme's palette with the banner's own accent and background (a colour or a preset), if it chose them. */
export function paletteFor(options: Pick<BannerOptions, "theme" | "accent" | "background">): Palette {
  const base = PALETTES[options.theme];
  const accent = options.accent ?? base.accent;
  const accented = { ...base, accent };
  const background = options.background;
  if (!background) return accented;
  if (typeof background === "string") {
    const key = `${background} ${base.theme}`;
    let preset = presetPalettes.get(key);
    if (!preset) presetPalettes.set(key, (preset = presetPalette(base, background)));
    return { ...preset, accent };
  }
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
