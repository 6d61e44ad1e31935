// Draws a laid-out badge with the render engine, at 1x or a whole multiple
// (Hi-DPI): the same layout, every coordinate and font size times `scale`.

import {
  GlyphCache, Path, Pixmap, drawTextLine, fillPath, layoutText, linearGradient, rgba, sansFamily, scale as scaling, solid,
  strokePath, stretchToWidth, type Color, type GradientStop, type Paint, type TextLine, type Transform,
} from "../render/index.ts";
import { colorNumber } from "./colors.ts";
import { SPILLS, sharedLabelPixels, type LabelColumns, type LabelPixels } from "./label-pixels.ts";
import type { BadgeLayout, PlacedText, PlateLayout, Segment, SocialLayout } from "./layout.ts";
import type { PlateStyle } from "./styles.ts";

/** Bytes of shadow glyph masks kept per shadow and scale (a badge glyph's shadow mask is ~400 bytes at 1x). */
const SHADOW_GLYPHS_BYTES = 2 * 1024 * 1024;
/** Shadow glyphs per shadow (the styles' own objects) and scale, so a handful. */
const shadowGlyphs = new WeakMap<NonNullable<PlateStyle["shadow"]>, Map<number, GlyphCache>>();

/** Glyphs as the style's text shadow at `scale`: the blurred and the sharp copy in one mask each (GlyphShadow). */
function shadowGlyphsOf(shadow: NonNullable<PlateStyle["shadow"]>, scale: number): GlyphCache {
  let byScale = shadowGlyphs.get(shadow);
  if (!byScale) shadowGlyphs.set(shadow, (byScale = new Map()));
  let cache = byScale.get(scale);
  if (!cache) {
    cache = new GlyphCache(SHADOW_GLYPHS_BYTES, { blur: shadow.blur * scale, blurOpacity: shadow.blurOpacity, sharpOpacity: shadow.opacity });
    byScale.set(scale, cache);
  }
  return cache;
}

/**
 * The text laid out in DejaVu Sans at the scaled size and spread over its box
 * as SVG's textLength spreads it: the difference goes after every glyph, the
 * last one included, so the glyphs end one share short of the box's right edge.
 */
function lineOf(text: PlacedText, scale: number): TextLine {
  const line = layoutText(text.text, { family: sansFamily(), size: text.font.size * scale, bold: text.font.bold });
  const advancing = line.glyphs.filter((glyph) => glyph.advance > 0).length;
  const box = text.width * scale;
  return advancing > 1 ? stretchToWidth(line, box - (box - line.width) / advancing) : line;
}

function drawPlateText(pixmap: Pixmap, text: PlacedText, style: PlateStyle, scale: number): void {
  const line = lineOf(text, scale);
  const x = text.x * scale, baseline = text.baseline * scale;
  const { shadow } = style;
  // One pixel down: a soft copy (blurred glyphs) under a sharp one, drawn as one.
  if (shadow) drawTextLine(pixmap, line, x, baseline + scale, text.colors.shadow, { glyphCache: shadowGlyphsOf(shadow, scale) });
  drawTextLine(pixmap, line, x, baseline, text.colors.text);
}

/** The overlay's colour at `t` (0 top, 1 bottom), interpolated between its stops in straight RGBA as SVG does. */
function overlayAt(stops: readonly GradientStop[], t: number): Color {
  const next = stops.findIndex((stop) => stop.offset >= t);
  if (next <= 0) return stops[next === 0 ? 0 : stops.length - 1]!.color;
  const a = stops[next - 1]!, b = stops[next]!;
  const f = (t - a.offset) / (b.offset - a.offset);
  const mix = (p: number, q: number) => p + (q - p) * f;
  return rgba(mix(a.color.r, b.color.r), mix(a.color.g, b.color.g), mix(a.color.b, b.color.b), mix(a.color.a, b.color.a));
}

/** `top` composited over `bottom`, straight alpha. */
function over(top: Color, bottom: Color): Color {
  const ta = top.a / 255, ba = (bottom.a / 255) * (1 - ta);
  const a = ta + ba;
  if (a === 0) return rgba(0, 0, 0, 0);
  const mix = (t: number, b: number) => (t * ta + b * ba) / a;
  return rgba(mix(top.r, bottom.r), mix(top.g, bottom.g), mix(top.b, bottom.b), a * 255);
}

/**
 * Segment stops kept per overlay: one list per colour and row count, at most
 * this many per overlay (colours come from queries), oldest dropped first. A
 * list holds one stop per device row (56 at most), a few KB with its table.
 */
export const MAX_SEGMENT_STOPS = 256;
const segmentStops = new WeakMap<readonly GradientStop[], Map<number, readonly GradientStop[]>>();

/** `overlay` laid over `color`, sampled at the centre of each of `rows` rows; the same list for the same arguments, so the paint's table is built once (shader.ts). */
function overlaidStops(color: Color, overlay: readonly GradientStop[], rows: number): readonly GradientStop[] {
  let lists = segmentStops.get(overlay);
  if (!lists) segmentStops.set(overlay, (lists = new Map()));
  // Rows and the colour's four bytes, as one number (exact below 2^53).
  const key = rows * 2 ** 32 + colorNumber(color);
  let stops = lists.get(key);
  if (!stops) {
    stops = Array.from({ length: rows }, (_, row) => {
      const offset = (row + 0.5) / rows;
      return { offset, color: over(overlayAt(overlay, offset), color) };
    });
    if (lists.size >= MAX_SEGMENT_STOPS) lists.delete(lists.keys().next().value!);
    lists.set(key, stops);
  }
  return stops;
}

/** Stop lists kept for `overlay` (tests check the bound). */
export function keptSegmentStops(overlay: readonly GradientStop[]): number {
  return segmentStops.get(overlay)?.size ?? 0;
}

/**
 * A segment's fill with the style's overlay already laid over it, sampled at
 * the centre of every device row: one fill instead of two, and at the rounded
 * corners the same as SVG, which clips segments and overlay together.
 */
function segmentPaint(color: Color, overlay: readonly GradientStop[], height: number, rows: number): Paint {
  if (overlay.length === 0) return solid(color);
  return linearGradient(0, 0, 0, height, overlaidStops(color, overlay, rows));
}

/** The layout's texts, the label's first (layout.ts). */
function plateTexts(layout: PlateLayout): { labelText: PlacedText | undefined; messageText: PlacedText | undefined } {
  const [first, second] = layout.texts;
  return layout.label ? { labelText: first, messageText: second } : { labelText: undefined, messageText: first };
}

function drawLabelSegment(pixmap: Pixmap, layout: PlateLayout, label: Segment, transform: Transform, scale: number): void {
  const { style, height } = layout;
  const r = style.radius;
  const paint = segmentPaint(label.color, style.overlay, height, height * scale);
  fillPath(pixmap, new Path().roundRect(0, 0, label.width, height, [r, 0, 0, r]), paint, { transform });
}

function drawMessageSegment(pixmap: Pixmap, layout: PlateLayout, transform: Transform, scale: number): void {
  const { style, label, message, height } = layout;
  const r = style.radius;
  const corners = label ? ([0, r, r, 0] as const) : r;
  const paint = segmentPaint(message.color, style.overlay, height, height * scale);
  fillPath(pixmap, new Path().roundRect(message.x, 0, message.width, height, corners), paint, { transform });
}

/** shields' order: both fills, then the texts (the label's first). */
function drawPlateInOrder(pixmap: Pixmap, layout: PlateLayout, transform: Transform, scale: number): void {
  if (layout.label) drawLabelSegment(pixmap, layout, layout.label, transform, scale);
  drawMessageSegment(pixmap, layout, transform, scale);
  for (const text of layout.texts) drawPlateText(pixmap, text, layout.style, scale);
}

/** Each plate style's number in label keys (the styles are fixed objects). */
const styleNumbers = new WeakMap<PlateStyle, number>();
let stylesNumbered = 0;
function styleNumber(style: PlateStyle): number {
  let n = styleNumbers.get(style);
  if (n === undefined) styleNumbers.set(style, (n = ++stylesNumbered));
  return n;
}

/** True when any pixel in columns `from` and to the right of it is not transparent. */
function inkFrom(pixmap: Pixmap, from: number): boolean {
  const { pixels, width, height } = pixmap;
  for (let y = 0; y < height; y++) {
    for (let i = y * width + from, end = (y + 1) * width; i < end; i++) if (pixels[i] !== 0) return true;
  }
  return false;
}

function copyOut(pixmap: Pixmap, columns: number): LabelColumns {
  const { pixels: from, width, height } = pixmap;
  const pixels = new Int32Array(columns * height);
  for (let y = 0; y < height; y++) pixels.set(from.subarray(y * width, y * width + columns), y * columns);
  return { columns, pixels };
}

function copyIn(pixmap: Pixmap, { columns, pixels }: LabelColumns): void {
  const { pixels: to, width, height } = pixmap;
  for (let y = 0; y < height; y++) to.set(pixels.subarray(y * columns, (y + 1) * columns), y * width);
}

/**
 * A plate with its label's pixels from `labels` when kept, else drawn and kept.
 * Only where the label and the message meet on a whole device pixel, so the
 * message's fill covers nothing left of it: drawing the label whole first
 * (fill, then text) leaves the same pixels as shields' order (both fills, then
 * the texts) unless the label's ink reaches past its segment, which is looked
 * at once per label and then kept as SPILLS. The message's text is drawn last
 * in both orders, so its shadow may fall on the copied label as on a drawn one.
 */
function drawPlate(pixmap: Pixmap, layout: PlateLayout, transform: Transform, scale: number, labels: LabelPixels | null): void {
  const { label } = layout;
  const { labelText, messageText } = plateTexts(layout);
  const columns = label ? label.width * scale : 0;
  // for-the-badge widths may end in a quarter pixel: there the two segments share a column, and the label is drawn.
  if (!labels || !label || !labelText || !Number.isInteger(columns)) return drawPlateInOrder(pixmap, layout, transform, scale);
  const key = `${styleNumber(layout.style)} ${scale} ${colorNumber(label.color)} ${labelText.text}`;
  const kept = labels.get(key);
  if (kept === SPILLS) return drawPlateInOrder(pixmap, layout, transform, scale);
  if (kept) copyIn(pixmap, kept);
  else {
    drawLabelSegment(pixmap, layout, label, transform, scale);
    drawPlateText(pixmap, labelText, layout.style, scale);
    if (inkFrom(pixmap, columns)) {
      labels.set(key, SPILLS);
      pixmap.pixels.fill(0);
      return drawPlateInOrder(pixmap, layout, transform, scale);
    }
    labels.set(key, copyOut(pixmap, columns));
  }
  drawMessageSegment(pixmap, layout, transform, scale);
  if (messageText) drawPlateText(pixmap, messageText, layout.style, scale);
}

function drawSocial(pixmap: Pixmap, layout: SocialLayout, transform: Transform, scale: number): void {
  const { style, labelBoxWidth, bubble } = layout;
  const border = { width: 1 };
  const inner = style.height - 1;
  const box = () => new Path().roundRect(0.5, 0.5, labelBoxWidth, inner, style.radius);
  fillPath(pixmap, box(), solid(style.labelFill), { transform });
  if (bubble) {
    const left = bubble.x + 0.5;
    const body = new Path().roundRect(left, 0.5, bubble.width, inner, style.radius);
    fillPath(pixmap, body, solid(style.bubbleFill), { transform });
    strokePath(pixmap, body, border, solid(style.border), { transform });
    // The notch: the bubble's border is wiped where the arrow joins it, then the arrow drawn.
    fillPath(pixmap, new Path().rect(bubble.x - 0.5, 7, 1.5, 6), solid(style.bubbleFill), { transform });
    const arrow = new Path().moveTo(left, 6.5).lineTo(left - 3, 9.5).lineTo(left - 3, 10.5).lineTo(left, 13.5);
    fillPath(pixmap, arrow, solid(style.bubbleFill), { transform });
    strokePath(pixmap, arrow, border, solid(style.border), { transform });
  }
  fillPath(pixmap, box(), linearGradient(0, 0, 0, style.height, style.labelOverlay), { transform });
  strokePath(pixmap, box(), border, solid(style.border), { transform });
  for (const text of layout.texts) {
    const line = lineOf(text, scale);
    drawTextLine(pixmap, line, text.x * scale, (text.baseline + 1) * scale, text.colors.shadow);
    drawTextLine(pixmap, line, text.x * scale, text.baseline * scale, text.colors.text);
  }
}

/**
 * The badge's pixels at `scale` (a whole number: 2 is Hi-DPI); transparent
 * outside its shape. Label pixels are reused from `labels` (null: drawn every time).
 */
export function drawBadge(layout: BadgeLayout, scale = 1, labels: LabelPixels | null = sharedLabelPixels): Pixmap {
  // for-the-badge widths may end in a fraction of a pixel (1.25 px per character): its last column is partly covered.
  const pixmap = new Pixmap(Math.ceil(layout.width * scale), layout.height * scale);
  const transform = scaling(scale);
  if (layout.kind === "social") drawSocial(pixmap, layout, transform, scale);
  else drawPlate(pixmap, layout, transform, scale, labels);
  return pixmap;
}
