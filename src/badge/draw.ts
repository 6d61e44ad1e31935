// Draws a laid-out badge with the render engine, at 1x or a whole multiple
// (Hi-DPI): the same layout, every coordinate and font size times `scale`.

import {
  Path, Pixmap, blurMask, drawMask, drawTextLine, fillPath, layoutText, linearGradient, rgba, sansFamily, scale as scaling,
  solid, strokePath, stretchToWidth, type Mask, type TextLine, type Transform,
} from "../render/index.ts";
import type { BadgeLayout, PlacedText, PlateLayout, SocialLayout } from "./layout.ts";
import type { PlateStyle } from "./styles.ts";

const WHITE = rgba(255, 255, 255);

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

/** Coverage of `line` drawn at (x, baseline), over the columns of its box (one pixel wider each side) and every row. */
function coverageOf(line: TextLine, x: number, baseline: number, width: number, height: number): Mask {
  const left = Math.max(0, Math.floor(x) - 1);
  const right = Math.min(width, Math.ceil(x + line.width) + 1);
  const scratch = new Pixmap(Math.max(1, right - left), height);
  drawTextLine(scratch, line, x - left, baseline, WHITE);
  const data = new Uint8Array(scratch.width * height);
  for (let i = 0; i < data.length; i++) data[i] = scratch.data[i * 4 + 3]!;
  return { x: left, y: 0, width: scratch.width, height, data };
}

function drawPlateText(pixmap: Pixmap, text: PlacedText, style: PlateStyle, scale: number): void {
  const line = lineOf(text, scale);
  const x = text.x * scale, baseline = text.baseline * scale;
  const { shadow } = style;
  if (shadow) {
    const below = baseline + scale;
    const soft = blurMask(coverageOf(line, x, below, pixmap.width, pixmap.height), shadow.blur * scale);
    drawMask(pixmap, soft, 0, 0, text.colors.shadow, shadow.blurOpacity);
    drawTextLine(pixmap, line, x, below, text.colors.shadow, { opacity: shadow.opacity });
  }
  drawTextLine(pixmap, line, x, baseline, text.colors.text);
}

function drawPlate(pixmap: Pixmap, layout: PlateLayout, transform: Transform, scale: number): void {
  const { style, label, message, width, height } = layout;
  const r = style.radius;
  if (label) fillPath(pixmap, new Path().roundRect(0, 0, label.width, height, [r, 0, 0, r]), solid(label.color), { transform });
  const messageCorners = label ? ([0, r, r, 0] as const) : r;
  fillPath(pixmap, new Path().roundRect(message.x, 0, message.width, height, messageCorners), solid(message.color), { transform });
  if (style.overlay.length > 0) {
    fillPath(pixmap, new Path().roundRect(0, 0, width, height, r), linearGradient(0, 0, 0, height, style.overlay), { transform });
  }
  for (const text of layout.texts) drawPlateText(pixmap, text, style, scale);
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

/** The badge's pixels at `scale` (a whole number: 2 is Hi-DPI); transparent outside its shape. */
export function drawBadge(layout: BadgeLayout, scale = 1): Pixmap {
  // for-the-badge widths may end in a fraction of a pixel (1.25 px per character): its last column is partly covered.
  const pixmap = new Pixmap(Math.ceil(layout.width * scale), layout.height * scale);
  const transform = scaling(scale);
  if (layout.kind === "social") drawSocial(pixmap, layout, transform, scale);
  else drawPlate(pixmap, layout, transform, scale);
  return pixmap;
}
