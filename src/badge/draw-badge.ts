// Draws a laid-out badge with the render engine, at 1x or a whole multiple
// (Hi-DPI): the same layout, every coordinate and font size times `scale`.

import {
  Path, Pixmap, drawTextLine, fillPath, layoutText, linearGradient, rgba, sansFamily, scale as scaling, solid, strokePath,
  stretchToWidth, type Color, type GradientStop, type Paint, type TextLine, type Transform,
} from "../render/index.ts";
import { colorNumber } from "./colors.ts";
import { BadgeCaches } from "./badge-caches.ts";
import { SPILLS, type LabelColumns } from "./label-pixels.ts";
import type { BadgeLayout, PlacedText, PlateLayout, Segment, SocialLayout } from "./badge-layout.ts";
import { STYLE_NAMES, STYLES, type PlateStyle } from "./styles.ts";

/** Each style's number in cache keys (the styles are fixed objects). */
const STYLE_NUMBERS = new Map(STYLE_NAMES.map((name, i) => [STYLES[name], i]));

/** One badge being drawn: its pixels, the scale and the transform to it, and what is kept between badges. */
interface Drawing {
  pixmap: Pixmap;
  scale: number;
  transform: Transform;
  caches: BadgeCaches;
}

function fill(d: Drawing, path: Path, paint: Paint): void {
  fillPath(d.pixmap, path, paint, { transform: d.transform, context: d.caches.render });
}

function stroke(d: Drawing, path: Path, paint: Paint): void {
  strokePath(d.pixmap, path, { width: 1 }, paint, { transform: d.transform, context: d.caches.render });
}

/**
 * The text laid out in DejaVu Sans at the scaled size and spread over its box
 * as SVG's textLength spreads it: the difference goes after every glyph, the
 * last one included, so the glyphs end one share short of the box's right edge.
 */
function lineOf(d: Drawing, text: PlacedText): TextLine {
  const line = layoutText(text.text, { family: sansFamily(), size: text.font.size * d.scale, bold: text.font.bold }, d.caches.render);
  const advancing = line.glyphs.filter((glyph) => glyph.advance > 0).length;
  const box = text.width * d.scale;
  return advancing > 1 ? stretchToWidth(line, box - (box - line.width) / advancing) : line;
}

function drawPlateText(d: Drawing, text: PlacedText, style: PlateStyle): void {
  const { pixmap, scale, caches } = d;
  const line = lineOf(d, text);
  const x = text.x * scale, baseline = text.baseline * scale;
  const { shadow } = style;
  // One pixel down: a soft copy (blurred glyphs) under a sharp one, drawn as one.
  if (shadow) drawTextLine(pixmap, line, x, baseline + scale, text.colors.shadow, { context: caches.render, glyphCache: caches.shadowGlyphs(shadow, scale) });
  drawTextLine(pixmap, line, x, baseline, text.colors.text, { context: caches.render });
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
 * The style's overlay laid over `color`, sampled at the centre of each of
 * `rows` rows. Kept (segment_stops): the same list for the same arguments, so
 * the paint's table is built once (shader.ts). A list holds one stop per
 * device row (56 at most), a few KB with its table.
 */
function overlaidStops(d: Drawing, style: PlateStyle, color: Color, rows: number): readonly GradientStop[] {
  const { overlay } = style;
  const key = `${STYLE_NUMBERS.get(style)} ${rows} ${colorNumber(color)}`;
  return d.caches.segmentStops.getOrCompute(key, () =>
    Array.from({ length: rows }, (_, row) => {
      const offset = (row + 0.5) / rows;
      return { offset, color: over(overlayAt(overlay, offset), color) };
    }),
  );
}

/**
 * A segment's fill with the style's overlay already laid over it, sampled at
 * the centre of every device row: one fill instead of two, and at the rounded
 * corners the same as SVG, which clips segments and overlay together.
 */
function segmentPaint(d: Drawing, style: PlateStyle, color: Color, height: number): Paint {
  if (style.overlay.length === 0) return solid(color);
  return linearGradient(0, 0, 0, height, overlaidStops(d, style, color, height * d.scale));
}

/** The layout's texts by segment. */
function plateTexts(layout: PlateLayout): { labelText: PlacedText | undefined; messageText: PlacedText | undefined } {
  return { labelText: layout.texts.find((text) => text.part === "label"), messageText: layout.texts.find((text) => text.part === "message") };
}

function drawLabelSegment(d: Drawing, layout: PlateLayout, label: Segment): void {
  const { style, height } = layout;
  const r = style.radius;
  fill(d, new Path().roundRect(0, 0, label.width, height, [r, 0, 0, r]), segmentPaint(d, style, label.color, height));
}

function drawMessageSegment(d: Drawing, layout: PlateLayout): void {
  const { style, label, message, height } = layout;
  const r = style.radius;
  const corners = label ? ([0, r, r, 0] as const) : r;
  fill(d, new Path().roundRect(message.x, 0, message.width, height, corners), segmentPaint(d, style, message.color, height));
}

/** shields' order: both fills, then the texts (the label's first). */
function drawPlateInOrder(d: Drawing, layout: PlateLayout): void {
  if (layout.label) drawLabelSegment(d, layout, layout.label);
  drawMessageSegment(d, layout);
  for (const text of layout.texts) drawPlateText(d, text, layout.style);
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
 * A plate with its label's pixels from the label pixels when kept, else drawn
 * and kept. The label and the message meet on a whole pixel (every width is
 * whole), so the message's fill covers nothing left of it: drawing the label whole
 * first (fill, then text) leaves the same pixels as shields' order (both
 * fills, then the texts) unless the label's ink reaches past its segment,
 * which is looked at once per label and then kept as SPILLS. The message's
 * text is drawn last in both orders, so its shadow may fall on the copied
 * label as on a drawn one.
 */
function drawPlate(d: Drawing, layout: PlateLayout): void {
  const { pixmap, scale } = d;
  const labels = d.caches.labels;
  const { label } = layout;
  const { labelText, messageText } = plateTexts(layout);
  const columns = label ? label.width * scale : 0;
  if (!labels || !label || !labelText) return drawPlateInOrder(d, layout);
  const key = `${STYLE_NUMBERS.get(layout.style)} ${scale} ${colorNumber(label.color)} ${labelText.text}`;
  const kept = labels.get(key);
  if (kept === SPILLS) return drawPlateInOrder(d, layout);
  if (kept) copyIn(pixmap, kept);
  else {
    drawLabelSegment(d, layout, label);
    drawPlateText(d, labelText, layout.style);
    if (inkFrom(pixmap, columns)) {
      labels.set(key, SPILLS);
      pixmap.pixels.fill(0);
      return drawPlateInOrder(d, layout);
    }
    labels.set(key, copyOut(pixmap, columns));
  }
  drawMessageSegment(d, layout);
  if (messageText) drawPlateText(d, messageText, layout.style);
}

function drawSocial(d: Drawing, layout: SocialLayout): void {
  const { pixmap, scale, caches } = d;
  const { style, labelBoxWidth, bubble } = layout;
  const inner = style.height - 1;
  const box = () => new Path().roundRect(0.5, 0.5, labelBoxWidth, inner, style.radius);
  fill(d, box(), solid(style.labelFill));
  if (bubble) {
    const left = bubble.x + 0.5;
    const body = new Path().roundRect(left, 0.5, bubble.width, inner, style.radius);
    fill(d, body, solid(style.bubbleFill));
    stroke(d, body, solid(style.border));
    // The notch: the bubble's border is wiped where the arrow joins it, then the arrow drawn.
    fill(d, new Path().rect(bubble.x - 0.5, 7, 1.5, 6), solid(style.bubbleFill));
    const arrow = new Path().moveTo(left, 6.5).lineTo(left - 3, 9.5).lineTo(left - 3, 10.5).lineTo(left, 13.5);
    fill(d, arrow, solid(style.bubbleFill));
    stroke(d, arrow, solid(style.border));
  }
  fill(d, box(), linearGradient(0, 0, 0, style.height, style.labelOverlay));
  stroke(d, box(), solid(style.border));
  for (const text of layout.texts) {
    const line = lineOf(d, text);
    drawTextLine(pixmap, line, text.x * scale, (text.baseline + 1) * scale, text.colors.shadow, { context: caches.render });
    drawTextLine(pixmap, line, text.x * scale, text.baseline * scale, text.colors.text, { context: caches.render });
  }
}

/**
 * The badge's pixels at `scale` (a whole number: 2 is Hi-DPI); transparent
 * outside its shape. What is kept between badges comes from `caches` (the
 * application's); by default the drawing keeps its own, for this badge only.
 */
export function drawBadge(layout: BadgeLayout, scale = 1, caches = new BadgeCaches()): Pixmap {
  const pixmap = new Pixmap(layout.width * scale, layout.height * scale);
  const d: Drawing = { pixmap, scale, transform: scaling(scale), caches };
  if (layout.kind === "social") drawSocial(d, layout);
  else drawPlate(d, layout);
  return pixmap;
}
