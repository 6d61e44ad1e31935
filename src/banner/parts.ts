// Pieces several templates draw: the panel, status marks, signal bars and
// server icons. Positions and sizes come from the templates' layouts (CSS px).

import {
  Path, Pixmap, cellNoise, hashNoise, linearGradient, pixelTile, rasterizeToMask, repeatTile, solid, type Color,
} from "../render/index.ts";
import { fitText, type FittedText } from "./fit-text.ts";
import { drawSlot, fitSlot, textInSlot, type TextSlot } from "./slots.ts";
import { stripFormatting } from "../minecraft/format.ts";
import { DEFAULT_EDITION } from "../minecraft/edition.ts";
import { drawFallbackIcon } from "./fallback-icons.ts";
import type { ServerBannerData, ServerStatus } from "./model.ts";
import type { Box, Surface } from "./surface.ts";
import { BLOCK_PIXELS, type TextureLook } from "./backgrounds.ts";
import type { Palette, PresetFill } from "./theme.ts";

export const STATUS_WORD: Record<ServerStatus, string> = { online: "Online", offline: "Offline" };

/**
 * Panels as drawn on a blank surface, by size, scale, radius and colours, in
 * the banner_panels cache (banner-caches.ts): every template starts with one,
 * and copying it costs a few microseconds where drawing it (a gradient over
 * the whole banner, four hairline strokes) costs over a hundred. Only panels
 * up to MAX_KEPT_PANEL_BYTES are kept (the sizes drawn most, at 1x; 468x60
 * also at 2x).
 */
const MAX_KEPT_PANEL_BYTES = 512 * 1024;
/** Kept panels never go stale; unused ones are dropped after this to free memory. */
const PANEL_TTL_MS = 3_600_000;

const colorKey = (color: Color) => `${color.r},${color.g},${color.b},${color.a}`;

/** The banner's rounded background with a hairline edge; its corners stay transparent. */
export function drawPanel(surface: Surface, palette: Palette, radius: number): void {
  const { width, height, scale, pixmap } = surface;
  const [from, to] = palette.background;
  // Drawn on anything but a blank surface the panel would blend with what is there: not a copy.
  const key = surface.blank && pixmap.data.byteLength <= MAX_KEPT_PANEL_BYTES
    ? `${width}x${height}@${scale} ${radius} ${palette.preset?.name ?? ""} ${colorKey(from)} ${colorKey(to)} ${colorKey(palette.border)}`
    : null;
  const { panels } = surface.caches;
  const kept = key === null ? undefined : panels.get(key);
  if (kept) {
    surface.copyBlankDrawing(kept);
    return;
  }
  const outline = new Path().roundRect(0, 0, width, height, radius);
  const preset = palette.preset;
  if (preset?.look.kind === "texture") drawPresetTexture(surface, outline, preset.look, preset);
  else surface.fill(outline, panelGradient(surface, preset ? preset.colors : palette.background, preset !== undefined));
  drawHairline(surface, radius, palette.border);
  if (key !== null) panels.set(key, pixmap.pixels.slice(), PANEL_TTL_MS);
}

/** Colours spread evenly: a preset's from top to bottom (a sky), the theme's two from top-left to bottom-right. */
function panelGradient(surface: Surface, colors: readonly Color[], vertical: boolean) {
  const stops = colors.map((color, i) => ({ offset: i / (colors.length - 1), color }));
  return linearGradient(0, 0, vertical ? 0 : surface.width, surface.height, stops);
}

/** CSS pixels per texture pixel: a block is 32 px, as the game draws its menu background at GUI scale 2. */
const TEXEL = 2;

/**
 * The texture of `look` over `columns` x `rows` texture pixels, in `colors`
 * (its shades as drawn, darkest first): one block tile, repeated.
 */
export function presetTexture(look: TextureLook, colors: readonly Color[], columns: number, rows: number): Pixmap {
  const [cellWidth, cellHeight] = look.cell;
  const tile = pixelTile(BLOCK_PIXELS, (x, y) => {
    const value = look.clump * cellNoise(x, y, cellWidth, cellHeight, BLOCK_PIXELS, look.seed) + (1 - look.clump) * hashNoise(x, y, look.seed);
    return colors[Math.min(colors.length - 1, Math.floor(value * colors.length))]!;
  });
  return repeatTile(tile, columns, rows);
}

/** A texture preset's blocks inside the panel's outline, each texture pixel a hard square. */
function drawPresetTexture(surface: Surface, outline: Path, look: TextureLook, preset: PresetFill): void {
  const columns = Math.ceil(surface.width / TEXEL), rows = Math.ceil(surface.height / TEXEL);
  // By preset, theme (its overlay) and grid: a few dozen at most (banner_textures).
  const key = `${preset.name} ${colorKey(preset.colors[0]!)} ${columns}x${rows}`;
  const texture = surface.caches.textures.getOrCompute(key, () => presetTexture(look, preset.colors, columns, rows));
  // Clipped to the whole pixmap, not the masks' default bounds: a 1200x300 banner at 2x is 2400 pixels wide.
  const { pixmap } = surface;
  const clip = rasterizeToMask(outline, surface.transform, "nonzero", { x: 0, y: 0, width: pixmap.width, height: pixmap.height });
  surface.image(texture, { x: 0, y: 0, width: columns * TEXEL, height: rows * TEXEL }, { filter: "nearest", clip });
}

/**
 * A one-pixel line half a pixel inside the rounded edge, so it covers whole
 * device pixels at any scale. Stroked as four corner-and-side pieces: one
 * stroke of the whole outline would rasterize the banner's full area.
 */
function drawHairline(surface: Surface, radius: number, color: Color): void {
  const inset = 0.5, r = Math.max(0, radius - inset);
  const left = inset, top = inset, right = surface.width - inset, bottom = surface.height - inset;
  const quarter = Math.PI / 2;
  const pieces = [
    new Path().arc(left + r, top + r, r, 2 * quarter, 3 * quarter).lineTo(right - r, top),
    new Path().arc(right - r, top + r, r, 3 * quarter, 4 * quarter).lineTo(right, bottom - r),
    new Path().arc(right - r, bottom - r, r, 0, quarter).lineTo(left + r, bottom),
    new Path().arc(left + r, bottom - r, r, quarter, 2 * quarter).lineTo(left, top + r),
  ];
  for (const piece of pieces) surface.stroke(piece, { width: 1, cap: "butt" }, solid(color));
}

function blockTexture(columns: number, rows: number, cornerBlocks: number, strength: number): Pixmap {
  const texture = new Pixmap(columns, rows);
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < columns; x++) {
      // Blocks under the rounded corners stay empty, so the texture needs no clip.
      const inCorner = (x < cornerBlocks || x >= columns - cornerBlocks) && (y < cornerBlocks || y >= rows - cornerBlocks);
      if (inCorner) continue;
      // A small integer hash: stable across renders, no visible pattern at banner sizes.
      let h = Math.imul(x * 374761393 + y * 668265263, 1274126177);
      h = (h ^ (h >>> 13)) >>> 0;
      const level = (h % 1000) / 1000;
      const alpha = Math.round(strength * 255 * Math.abs(level - 0.5) * 2);
      const shade = level < 0.5 ? 0 : alpha; // premultiplied: dark squares are black, light ones white
      texture.data.set([shade, shade, shade, alpha], (y * columns + x) * 4);
    }
  }
  return texture;
}

/**
 * A blocky texture of faint light and dark squares over the panel (a nod to
 * the game's menu background, drawn from a hash, not from its assets): one
 * tiny pixmap scaled up by a whole factor, one draw at any size.
 */
export function drawBlockTexture(surface: Surface, radius: number, block: number, strength: number): void {
  const columns = Math.ceil(surface.width / block), rows = Math.ceil(surface.height / block);
  const cornerBlocks = Math.ceil(radius / block);
  // By grid and strength: a handful of layouts and themes use them (banner_textures).
  const key = `${columns}x${rows}:${cornerBlocks}:${strength}`;
  const texture = surface.caches.textures.getOrCompute(key, () => blockTexture(columns, rows, cornerBlocks, strength));
  surface.image(texture, { x: 0, y: 0, width: columns * block, height: rows * block }, { filter: "nearest" });
}

/** The soft ring around a status dot, in dot radii. */
const STATUS_RING = 1.8;

/** A status dot with a soft ring of its colour around it. */
export function drawStatusDot(surface: Surface, cx: number, cy: number, r: number, color: Color): void {
  surface.fill(new Path().circle(cx, cy, r * STATUS_RING), solid({ ...color, a: 56 }));
  surface.fill(new Path().circle(cx, cy, r), solid(color));
}

/**
 * Bars the game shows for a measured round trip: 5 under 150 ms, 4 under
 * 300, 3 under 600, 2 under 1000, else 1; null when nothing was measured.
 */
export function signalBarCount(latencyMs: number | null): number | null {
  if (latencyMs === null || !Number.isFinite(latencyMs) || latencyMs < 0) return null;
  if (latencyMs < 150) return 5;
  if (latencyMs < 300) return 4;
  if (latencyMs < 600) return 3;
  if (latencyMs < 1000) return 2;
  return 1;
}

export interface SignalColors {
  lit: Color;
  unlit: Color;
  cross: Color;
}

/**
 * Five bars rising left to right inside `box`, `lit` of them lit (null:
 * unmeasured, all unlit); an offline server gets a cross instead.
 */
export function drawSignalBars(surface: Surface, box: Box, lit: number | null, offline: boolean, colors: SignalColors): void {
  if (offline) {
    const inset = box.height * 0.12;
    const side = box.height - 2 * inset;
    const x = box.x + box.width - side - inset, y = box.y + inset;
    const cross = new Path().moveTo(x, y).lineTo(x + side, y + side).moveTo(x + side, y).lineTo(x, y + side);
    surface.stroke(cross, { width: Math.max(1.5, box.height / 5), cap: "round" }, solid(colors.cross));
    return;
  }
  const gap = Math.max(1, Math.round(box.width / 14));
  const barWidth = (box.width - 4 * gap) / 5;
  for (let i = 0; i < 5; i++) {
    const height = (box.height * (i + 1)) / 5;
    const bar = new Path().rect(box.x + i * (barWidth + gap), box.y + box.height - height, barWidth, height);
    surface.fill(bar, solid(lit !== null && i < lit ? colors.lit : colors.unlit));
  }
}

/**
 * The server's favicon in `box` (hard pixels when scaled by a whole factor),
 * rounded by `radius` (0 for the game's square look); else the fallback icon
 * of its edition (absent: Java).
 */
export function drawServerIcon(surface: Surface, server: Pick<ServerBannerData, "favicon" | "edition">, box: Box, radius: number, well: Color): void {
  const { favicon } = server;
  if (!favicon) {
    drawFallbackIcon(surface, box, well, server.edition ?? DEFAULT_EDITION);
    return;
  }
  const clip = radius > 0 ? surface.mask(new Path().roundRect(box.x, box.y, box.width, box.height, radius)) : null;
  surface.image(favicon, box, { clip });
}

export interface PillStyle {
  height: number;
  /** Text size (CSS px) and horizontal padding. */
  size: number;
  padding: number;
  /** A status dot before the text, or none. */
  dot: Color | null;
  fill: Color;
  text: Color;
}

export interface Pill {
  style: PillStyle;
  fitted: FittedText;
  width: number;
}

/** A rounded label (status, version) fitted to at most `maxWidth`; width 0 when nothing fits. */
export function fitPill(surface: Surface, text: string, style: PillStyle, maxWidth: number): Pill {
  const dotSpace = style.dot ? style.height * 0.55 : 0;
  const room = maxWidth - 2 * style.padding - dotSpace;
  const fitted = fitText(text, { face: "sans", bold: true }, room, { max: style.size, min: style.size }, surface.scale, surface.caches.render);
  return { style, fitted, width: fitted.width === 0 ? 0 : fitted.width + 2 * style.padding + dotSpace };
}

/** Draws a fitted pill with its left edge at `x` and its middle on `centerY`. */
export function drawPill(surface: Surface, pill: Pill, x: number, centerY: number): void {
  const { style, fitted, width } = pill;
  if (width === 0) return;
  const top = centerY - style.height / 2;
  surface.fill(new Path().roundRect(x, top, width, style.height, style.height / 2), solid(style.fill));
  const dotR = style.height * 0.16;
  if (style.dot) surface.fill(new Path().circle(x + style.padding + dotR, centerY, dotR), solid(style.dot));
  // Cap height of the sans face is about 0.73 em: this centres capitals on the pill.
  surface.text(fitted, x + width - style.padding - fitted.width, centerY + style.size * 0.365, style.text);
}

/**
 * A status as a dot and a word in its slot (the dot sits before the word,
 * whichever side of the slot the word is aligned to); returns the CSS width
 * used from the slot's start edge.
 */
export function drawStatusWord(surface: Surface, slot: TextSlot, word: string, dot: Color, text: Color, dotRadius: number): number {
  const ring = dotRadius * STATUS_RING;
  const gap = 2 * ring + dotRadius * 0.8;
  const box = { ...slot, x: slot.x + gap, width: slot.width - gap };
  const fitted = fitSlot(surface, box, word, { face: "sans", bold: true });
  drawSlot(surface, box, fitted, text);
  const wordLeft = slot.align === "right" ? slot.x + slot.width - fitted.width : box.x;
  // The dot's centre sits at the middle of the capitals (about 0.36 em above the baseline).
  drawStatusDot(surface, wordLeft - gap + ring, slot.baseline - fitted.size * 0.36, dotRadius, dot);
  return gap + fitted.width;
}

/** A server's status word, dot and colours. */
export function drawServerStatus(surface: Surface, slot: TextSlot, status: ServerStatus, palette: Palette, dotRadius: number): number {
  return drawStatusWord(surface, slot, STATUS_WORD[status], palette.status[status], palette.statusText[status], dotRadius);
}

/** The top of the templates that lead with the server's status: panel, name and status slots. */
export interface StatusHeaderLayout {
  radius: number;
  name: TextSlot;
  status: TextSlot;
  /** The status dot's radius. */
  dot: number;
}

/** The panel, the server's name in bold and its status dot and word; returns the status's width. */
export function drawStatusHeader(
  surface: Surface,
  layout: StatusHeaderLayout,
  server: { name: string; status: ServerStatus },
  palette: Palette,
): number {
  drawPanel(surface, palette, layout.radius);
  textInSlot(surface, layout.name, stripFormatting(server.name), { face: "sans", bold: true }, palette.text);
  return drawServerStatus(surface, layout.status, server.status, palette, layout.dot);
}

/** Pennant's plugin mark: a puzzle piece on a rounded well (no third-party art). */
export function drawPluginIcon(surface: Surface, box: Box, well: Color, ink: Color): void {
  const { x, y, width: s } = box;
  surface.fill(new Path().roundRect(x, y, s, box.height, s * 0.22), solid(well));
  const piece = new Path()
    .roundRect(x + s * 0.24, y + s * 0.32, s * 0.44, s * 0.44, s * 0.06)
    .circle(x + s * 0.46, y + s * 0.28, s * 0.1)
    .circle(x + s * 0.72, y + s * 0.54, s * 0.1);
  surface.fill(piece, solid(ink));
}

/** A horizontal hairline in the border colour. */
export function drawDivider(surface: Surface, line: { x: number; y: number; width: number }, palette: Palette): void {
  surface.fill(new Path().rect(line.x, line.y, line.width, 1), solid(palette.border));
}
