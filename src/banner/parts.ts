// Pieces several templates draw: the panel, status marks, signal bars and
// server icons. Positions and sizes come from the templates' layouts (CSS px).

import { Path, Pixmap, linearGradient, parseHexColor, solid, type Color } from "../render/index.ts";
import { fitText, type FittedText } from "./fit.ts";
import { drawSlot, fitSlot, type TextSlot } from "./slots.ts";
import type { ServerStatus } from "./model.ts";
import type { Box, Surface } from "./surface.ts";
import type { Palette } from "./theme.ts";

export const STATUS_WORD: Record<ServerStatus, string> = { online: "Online", offline: "Offline" };

/** The banner's rounded background with a hairline edge; its corners stay transparent. */
export function drawPanel(surface: Surface, palette: Palette, radius: number): void {
  const { width, height } = surface;
  const [from, to] = palette.background;
  surface.fill(new Path().roundRect(0, 0, width, height, radius), linearGradient(0, 0, width, height, [
    { offset: 0, color: from },
    { offset: 1, color: to },
  ]));
  // Half a pixel in, so the one-pixel line covers whole device pixels at any scale.
  surface.stroke(new Path().roundRect(0.5, 0.5, width - 1, height - 1, Math.max(0, radius - 0.5)), { width: 1 }, solid(palette.border));
}

/**
 * A blocky texture of faint light and dark squares over the panel (a nod to
 * the game's menu background, drawn from a hash, not from its assets).
 * One tiny pixmap scaled up by a whole factor: one draw call at any size.
 */
export function drawBlockTexture(surface: Surface, radius: number, block: number, strength: number): void {
  const columns = Math.ceil(surface.width / block), rows = Math.ceil(surface.height / block);
  const texture = new Pixmap(columns, rows);
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < columns; x++) {
      // A small integer hash: stable across renders, no visible pattern at banner sizes.
      let h = Math.imul(x * 374761393 + y * 668265263, 1274126177);
      h = (h ^ (h >>> 13)) >>> 0;
      const level = (h % 1000) / 1000;
      const alpha = Math.round(strength * 255 * Math.abs(level - 0.5) * 2);
      const shade = level < 0.5 ? 0 : alpha; // premultiplied: dark squares are black, light ones white
      texture.data.set([shade, shade, shade, alpha], (y * columns + x) * 4);
    }
  }
  const clip = surface.mask(new Path().roundRect(0, 0, surface.width, surface.height, radius));
  surface.image(texture, { x: 0, y: 0, width: columns * block, height: rows * block }, { filter: "nearest", clip });
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

// The default server icon: a grass-topped block in isometric view, on a 16-unit grid.
const ICON_FACES: ReadonlyArray<readonly [color: string, points: readonly number[]]> = [
  ["#86c45a", [8, 1.5, 14.5, 4.75, 8, 8, 1.5, 4.75]],
  ["#8a5a33", [1.5, 4.75, 8, 8, 8, 14.5, 1.5, 11.25]],
  ["#6a4427", [8, 8, 14.5, 4.75, 14.5, 11.25, 8, 14.5]],
  ["#5e9e3a", [1.5, 4.75, 8, 8, 8, 9.75, 1.5, 6.5]],
  ["#4a8130", [8, 8, 14.5, 4.75, 14.5, 6.5, 8, 9.75]],
];

/** Pennant's own default icon (no game assets): a block on a rounded well. */
export function drawDefaultIcon(surface: Surface, box: Box, well: Color): void {
  surface.fill(new Path().roundRect(box.x, box.y, box.width, box.height, box.width * 0.16), solid(well));
  const unit = box.width / 16;
  for (const [color, points] of ICON_FACES) {
    const path = new Path();
    for (let i = 0; i < points.length; i += 2) path.lineTo(box.x + points[i]! * unit, box.y + points[i + 1]! * unit);
    surface.fill(path.close(), solid(parseHexColor(color)!));
  }
}

/**
 * The server's favicon in `box` (hard pixels when scaled by a whole factor),
 * rounded by `radius` (0 for the game's square look); else the default icon.
 */
export function drawServerIcon(surface: Surface, favicon: Pixmap | null, box: Box, radius: number, well: Color): void {
  if (!favicon) {
    drawDefaultIcon(surface, box, well);
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
  const fitted = fitText(text, { face: "sans", bold: true }, room, { max: style.size, min: style.size }, surface.scale);
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
